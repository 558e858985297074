// The JSON edge of the host link (analyzer/json/results_json_link.cpp): link and launch ceilings and a
// record's end-to-end runs written and read back the same, and files without them unchanged.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"

using nlohmann::json;
using namespace rooflab;

TEST(EndToEndJson, ARecordsRunsRoundTrip) {
  AnalysedRecord record;
  record.family = "vecadd";
  record.variant = "global";
  EndToEndResult& e = record.end_to_end.emplace();
  EndToEndAnalysis& concluded = record.end_to_end_analysis.emplace();
  EndToEndRunPrediction judged;
  EndToEndRun run;
  run.strategy = EndToEndStrategy::overlap;
  run.chunks = 3;
  run.queues = 2;
  run.chunk_elements = {1024, 768, 808};
  run.upload_bytes = 20800;
  run.download_bytes = 10400;
  run.upload_buffers = 2;
  run.download_buffers = 1;
  run.host_copy_bytes = 0;
  run.launches = 3;
  run.repetitions = {{1, 2, 3, 4, 5, 15}};
  run.median = run.repetitions.front();
  run.total_noise = 0.02;
  run.converged = true;
  run.verification.status = VerificationStatus::passed;
  judged.predicted = EndToEndParts{1, 2, 3, 4, 0, 9};
  judged.basis = EndToEndPredictionBasis::ceilings;
  EndToEndPredictionInputs& inputs = judged.inputs.emplace();
  inputs.upload = UsedLinkCeiling{LinkStrategy::copy_async, false, 25.0, 5000, 2};
  inputs.launch_ns = 2000;
  inputs.back_to_back = true;
  inputs.launches = 3;
  inputs.kernel_ns = 3;
  inputs.download = UsedLinkCeiling{LinkStrategy::copy_async, false, std::nullopt, 5000, 1};
  inputs.chunks = 3;
  inputs.queues = 2;
  judged.bound = EndToEndBound::link_up;
  judged.bound_figures.time_fraction = 0.0667;
  judged.bound_figures.link_gbps = 1.0;
  e.runs = {run};
  concluded.runs = {judged};
  OverlapWhatIf w;
  w.chunks = 3;
  w.predicted_serial_ns = 20;
  w.predicted_overlapped_ns = 10;
  w.predicted_gain = 2;
  w.measured_gain = 1.8;
  concluded.overlap = {w};
  concluded.verdict = EndToEndVerdict{EndToEndBound::link_up,
                                      judged.bound_figures,
                                      std::nullopt,
                                      EndToEndStrategy::overlap,
                                      3,
                                      15.0,
                                      EndToEndStrategy::copy,
                                      30.0,
                                      std::nullopt};

  const json written = toJson(record, record);
  const AnalysedRecord back = analysedRecordFromJson(written);
  ASSERT_TRUE(back.end_to_end);
  EXPECT_EQ(toJson(back, back), written);
  EXPECT_EQ(back.end_to_end->runs[0].chunk_elements, run.chunk_elements);
  EXPECT_EQ(back.endToEnd().verdict->best, EndToEndStrategy::overlap);
  EXPECT_EQ(back.endToEndPrediction(0).inputs->download->gbps, std::nullopt);
  EXPECT_EQ(back.endToEndPrediction(0).bound_figures.link_gbps, 1.0);
  // A record without runs writes no key: older files re-write unchanged.
  record.end_to_end.reset();
  EXPECT_FALSE(toJson(record).contains("end_to_end"));
}

TEST(EndToEndJson, LinkAndLaunchCeilingsRoundTrip) {
  CeilingsReport report;
  LinkCeilings& link = report.link.emplace();
  LinkCeiling c;
  c.strategy = LinkStrategy::use_host_ptr;
  c.direction = LinkDirection::device_to_host;
  c.calls = "map";
  c.sizes = {{4096, LatencyFigure{400.0, 390.0, 380, 420, 0.01, 12, StopDecision::converged, 0.01}}};
  c.latency_ns = 400;
  c.zero_copy = true;
  c.zero_copy_evidence = ZeroCopyEvidence{ZeroCopyReason::time_flat, 4096, 400, 16 << 20, 410};
  c.zero_copy_evidence->pointer = MappedPointer::own_array;
  c.maps_host_pointer = true;
  link.transfers = {c};
  report.launch.emplace().queued_to_start.median_ns = 7000;
  const json written = toJson(report);
  const CeilingsReport back = ceilingsReportFromJson(written);
  ASSERT_TRUE(back.link && back.launch);
  EXPECT_EQ(toJson(back), written);
  EXPECT_TRUE(back.link->transfers[0].zero_copy);
  EXPECT_EQ(back.launch->latencyNs(), 7000);
  EXPECT_FALSE(toJson(CeilingsReport{}).contains("link"));
}

TEST(EndToEndJson, TheModelsLinkFieldsAreWrittenOnlyWhenKnown) {
  DeviceModel model;
  model.key = "measured";
  model.peak_gflops = 1;
  model.dram_gbps = 1;
  EXPECT_FALSE(toJson(model).contains("launch_latency_ns"));
  model.launch_latency_ns = 7000;
  model.host_to_device_gbps = 7.5;
  const DeviceModel back = deviceModelFromJson(toJson(model));
  EXPECT_EQ(back.launch_latency_ns, 7000);
  EXPECT_EQ(back.host_to_device_gbps, 7.5);
}
