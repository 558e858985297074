// The end-to-end model's arithmetic (analyzer/diagnose/end_to_end_model.hpp, end_to_end_analysis.hpp):
// the overlapped pipeline against its closed form, each part's prediction from the link and launch
// ceilings, the bound of the whole and the best strategy; and the launch-bound diagnosis.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/diagnose/diagnosis.hpp"
#include "analyzer/diagnose/end_to_end_analysis.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/end_to_end_sentences.hpp"

// The link ceilings fixtures are shared with the sentence tests.
#include "reports/end_to_end_cases.hpp"

using namespace rooflab;
using rooflab::reports::boundText;
using rooflab::reports::endToEndBoundText;
using rooflab::reports::endToEndPredictedFromText;
using rooflab::reports::endToEndSummaryText;
using rooflab::reports::evidenceText;
using rooflab::testing::endToEndCeiling;

namespace {

// copy at 8 GB/s up and 10 GB/s down, 10 us a transfer; copy-async (pinned) at 25 / 25 GB/s, 5 us;
// alloc-host-ptr zero-copy; the host's memcpy at 20 GB/s.
LinkCeilings link() {
  LinkCeilings l;
  l.transfers = {endToEndCeiling(LinkStrategy::copy, LinkDirection::host_to_device, 10'000, 8),
                 endToEndCeiling(LinkStrategy::copy, LinkDirection::device_to_host, 10'000, 10),
                 endToEndCeiling(LinkStrategy::copy_async, LinkDirection::host_to_device, 5'000, 25),
                 endToEndCeiling(LinkStrategy::copy_async, LinkDirection::device_to_host, 5'000, 25),
                 endToEndCeiling(LinkStrategy::alloc_host_ptr, LinkDirection::host_to_device, 2'000, std::nullopt),
                 endToEndCeiling(LinkStrategy::alloc_host_ptr, LinkDirection::device_to_host, 2'000, std::nullopt)};
  l.transfers[4].zero_copy = l.transfers[5].zero_copy = true;
  l.host_memcpy = endToEndCeiling(LinkStrategy::host_memcpy, LinkDirection::host_to_device, 0, 20);
  return l;
}

// A vector add of 2^26 floats: two buffers of 256 MiB up, one down, one launch.
EndToEndRun run(EndToEndStrategy strategy, int chunks = 1) {
  EndToEndRun r;
  r.strategy = strategy;
  r.chunks = chunks;
  r.queues = chunks > 1 ? 2 : 1;
  r.upload_bytes = 2ull << 28;
  r.download_bytes = 1ull << 28;
  r.upload_buffers = 2;
  r.download_buffers = 1;
  r.launches = chunks;
  for (int k = 0; k < chunks; ++k) r.chunk_elements.push_back((1ull << 26) / std::uint64_t(chunks));
  return r;
}

}  // namespace

TEST(EndToEndModel, ThePipelineOfEqualChunksIsItsLongestStageOncePerChunkPlusFillAndDrain) {
  for (const PipelineStage stage : {PipelineStage{1, 3, 1}, PipelineStage{4, 1, 2}, PipelineStage{2, 2, 5}})
    for (int chunks : {1, 2, 3, 5}) {
      const std::vector<PipelineStage> stages(std::size_t(chunks), stage);
      const double longest = std::max({stage.upload_ns, stage.kernel_ns, stage.download_ns});
      const double closed_form = stage.upload_ns + stage.kernel_ns + stage.download_ns + (chunks - 1) * longest;
      // Unlimited queues never hold a chunk back; two do not here either.
      EXPECT_DOUBLE_EQ(pipelineNs(stages, chunks), closed_form) << chunks << " chunks";
      EXPECT_DOUBLE_EQ(pipelineNs(stages, 2), closed_form) << chunks << " chunks, two queues";
    }
}

TEST(EndToEndModel, OneQueueRunsTheChunksOneAfterTheOther) {
  const std::vector<PipelineStage> stages = {{1, 3, 1}, {1, 3, 1}, {1, 3, 1}};
  EXPECT_DOUBLE_EQ(pipelineNs(stages, 1), 15);  // each chunk's upload waits for the last download
}

TEST(EndToEndModel, UnevenChunksFollowTheRecurrence) {
  // Upload, kernel, download of three chunks of 4, 3 and 3 parts on two queues, by hand:
  // chunk 0: up 0-4, kernel 4-10, down 10-12; chunk 1: up 4-7, kernel 10-14.5, down 14.5-16;
  // chunk 2 (queue 0, after chunk 0's download at 12): up 12-15, kernel 15-19.5, down 19.5-21.
  const std::vector<PipelineStage> stages = {{4, 6, 2}, {3, 4.5, 1.5}, {3, 4.5, 1.5}};
  EXPECT_DOUBLE_EQ(pipelineNs(stages, 2), 21);
  EXPECT_DOUBLE_EQ(pipelineNs({}, 2), 0);
}

TEST(EndToEndModel, ABlockingRunIsPredictedPartByPartFromItsCeilings) {
  const LinkCeilings l = link();
  const EndToEndCeilings ceilings{&l, 7'000, 2'000};
  const auto predicted = predictRun(run(EndToEndStrategy::copy), 270'000, ceilings);
  ASSERT_TRUE(predicted);
  EXPECT_DOUBLE_EQ(predicted->upload_ns, 2 * 10'000 + double(2ull << 28) / 8);
  EXPECT_DOUBLE_EQ(predicted->launch_ns, 7'000);
  EXPECT_DOUBLE_EQ(predicted->kernel_ns, 270'000);
  EXPECT_DOUBLE_EQ(predicted->download_ns, 10'000 + double(1ull << 28) / 10);
  EXPECT_DOUBLE_EQ(predicted->gaps_ns, 0);
  EXPECT_DOUBLE_EQ(predicted->total_ns, predicted->upload_ns + 7'000 + 270'000 + predicted->download_ns);
  EndToEndRunPrediction judged;
  judged.basis = EndToEndPredictionBasis::ceilings;
  judged.inputs = predictionInputs(run(EndToEndStrategy::copy), 270'000, ceilings);
  ASSERT_TRUE(judged.inputs && judged.inputs->upload);
  EXPECT_EQ(judged.inputs->upload->gbps, 8);
  const std::string from = endToEndPredictedFromText(judged);
  EXPECT_NE(from.find("copy 8.00 GB/s"), std::string::npos) << from;

  // A zero-copy map moves nothing: its latency a buffer, and the host's copies at memcpy speed.
  EndToEndRun mapped = run(EndToEndStrategy::alloc_host_ptr);
  mapped.host_copy_bytes = 3ull << 28;
  const auto zero_copy = predictRun(mapped, 270'000, ceilings);
  ASSERT_TRUE(zero_copy);
  EXPECT_DOUBLE_EQ(zero_copy->upload_ns, 2 * 2'000);
  EXPECT_DOUBLE_EQ(zero_copy->gaps_ns, double(3ull << 28) / 20);
}

TEST(EndToEndModel, AnOverlappedRunIsPredictedThroughThePipeline) {
  const LinkCeilings l = link();
  const EndToEndCeilings ceilings{&l, 7'000, 2'000};
  const auto serial = predictRun(run(EndToEndStrategy::overlap, 1), 270'000, ceilings);
  const auto overlapped = predictRun(run(EndToEndStrategy::overlap, 4), 270'000, ceilings);
  ASSERT_TRUE(serial && overlapped);
  const double up = 2 * 5'000 + double(2ull << 28) / 25 / 4, kernel = 2'000 + 270'000.0 / 4,
               down = 5'000 + double(1ull << 28) / 25 / 4;
  EXPECT_DOUBLE_EQ(overlapped->total_ns, up + kernel + down + 3 * std::max({up, kernel, down}));
  EXPECT_DOUBLE_EQ(serial->total_ns,
                   2 * 5'000 + double(2ull << 28) / 25 + 2'000 + 270'000 + 5'000 + double(1ull << 28) / 25);
  // Upload-bound: overlapping hides the download and the kernel, not the upload.
  EXPECT_GT(serial->total_ns / overlapped->total_ns, 1.3);
}

TEST(EndToEndModel, WithoutCeilingsThereIsNoPrediction) {
  EXPECT_FALSE(predictRun(run(EndToEndStrategy::copy), 1e5, EndToEndCeilings{}));
  const LinkCeilings l = link();
  EXPECT_FALSE(predictRun(run(EndToEndStrategy::map), 1e5, EndToEndCeilings{&l, 7'000, {}}));  // no map ceiling
  EXPECT_FALSE(predictionInputs(run(EndToEndStrategy::map), 1e5, EndToEndCeilings{&l, 7'000, {}}));
}

TEST(EndToEndAnalysis, TheLargestPartNamesTheBoundAndTheFastestVerifiedRunIsTheBest) {
  RunRecord record;
  record.timings.emplace().kernel_ns.median = 270'000;
  EndToEndResult& e = record.end_to_end.emplace();
  EndToEndRun copy = run(EndToEndStrategy::copy);
  copy.median = {70e6, 7e3, 270e3, 27e6, 1e6, 98.3e6};
  copy.repetitions = {copy.median};
  copy.verification.status = VerificationStatus::passed;
  EndToEndRun serial = run(EndToEndStrategy::overlap, 1);
  serial.median = {22e6, 2e3, 270e3, 11e6, 0, 33.3e6};
  serial.repetitions = {serial.median};
  serial.verification.status = VerificationStatus::passed;
  EndToEndRun overlapped = run(EndToEndStrategy::overlap, 4);
  overlapped.median = {22e6, 8e3, 270e3, 11e6, 0, 23e6};
  overlapped.repetitions = {overlapped.median};
  overlapped.verification.status = VerificationStatus::passed;
  EndToEndRun wrong = run(EndToEndStrategy::map);  // fastest, but wrong: never the best
  wrong.median = {1e3, 1e3, 1e3, 1e3, 0, 4e3};
  wrong.repetitions = {wrong.median};
  wrong.verification.status = VerificationStatus::failed;
  e.runs = {copy, wrong, serial, overlapped};
  const LinkCeilings l = link();
  const EndToEndAnalysis a = analyseEndToEnd(record, EndToEndCeilings{&l, 7'000, 2'000});

  EXPECT_EQ(a.runs[0].bound, EndToEndBound::link_up);
  EXPECT_NE(endToEndBoundText(a.runs[0]).find("link-bound at 7.67 GB/s host-to-device"), std::string::npos)
      << endToEndBoundText(a.runs[0]);
  EXPECT_EQ(a.runs[0].basis, EndToEndPredictionBasis::ceilings);
  EXPECT_TRUE(a.runs[0].predicted);
  EXPECT_FALSE(a.runs[1].predicted);  // failed verification: not judged
  ASSERT_TRUE(a.verdict);
  EXPECT_EQ(a.verdict->best, EndToEndStrategy::overlap);
  EXPECT_EQ(a.verdict->best_chunks, 4);
  EXPECT_EQ(a.verdict->worst, EndToEndStrategy::copy);
  EXPECT_NE(endToEndSummaryText(*a.verdict).find("4.27x faster than copy"), std::string::npos)
      << endToEndSummaryText(*a.verdict);
  ASSERT_EQ(a.overlap.size(), 1u);
  EXPECT_EQ(a.overlap[0].chunks, 4);
  ASSERT_TRUE(a.overlap[0].measured_gain && a.overlap[0].predicted_gain);
  EXPECT_NEAR(*a.overlap[0].measured_gain, 33.3 / 23, 1e-9);
  EXPECT_NEAR(*a.overlap[0].predicted_gain, a.overlap[0].predicted_serial_ns / a.overlap[0].predicted_overlapped_ns,
              1e-12);
  EXPECT_TRUE(e.failed());  // the wrong run fails the record
}

TEST(LaunchBound, AKernelWithinTwiceItsLaunchLatencyIsLaunchBound) {
  AnalysedRecord r;
  r.status = RecordStatus::ok;
  r.timings.emplace().kernel_ns.median = 9'000;
  r.geometry.resize(1);
  RooflinePlacement p;
  p.fraction_of_roof = 0.8;
  p.bound = RooflineBound::memory;
  p.intensity = 0.1;
  r.roofline["device"] = p;
  const Diagnosis d = diagnose(r, 7'000.0);
  EXPECT_EQ(d.bound, DiagnosedBound::launch);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::launch);
  ASSERT_TRUE(d.launch_floor_ns);
  EXPECT_DOUBLE_EQ(*d.launch_floor_ns, 7'000);
  EXPECT_EQ(boundText(d), "launch (7.0 us of launches)");
  EXPECT_EQ(d.confidence, DiagnosisConfidence::medium);
  ASSERT_FALSE(d.disagreements.empty());  // the roofline said memory
  EXPECT_EQ(d.disagreements.back().overruled, DiagnosisSignal::roofline);
  EXPECT_NE(evidenceText(d.evidence.back()).find("1.29x the 7.0 us launch latency"), std::string::npos)
      << evidenceText(d.evidence.back());

  // Without a launch latency, or with a kernel well above it, the other signals decide.
  EXPECT_EQ(diagnose(r).bound, DiagnosedBound::memory);
  r.timings->kernel_ns.median = 20'000;
  EXPECT_EQ(diagnose(r, 7'000.0).bound, DiagnosedBound::memory);
  // Two launches double the floor.
  r.geometry.resize(2);
  EXPECT_EQ(diagnose(r, 7'000.0).bound, DiagnosedBound::launch);
}

TEST(LaunchBound, TheNewBoundRoundTripsAndOldNamesStillLoad) {
  Diagnosis d;
  d.bound = DiagnosedBound::launch;
  d.decided_by = DiagnosisSignal::launch;
  d.launch_floor_ns = 7'000;
  const Diagnosis back = diagnosisFromJson(toJson(d));
  EXPECT_EQ(back.bound, DiagnosedBound::launch);
  EXPECT_EQ(back.decided_by, DiagnosisSignal::launch);
  EXPECT_EQ(back.launch_floor_ns, 7'000);
  const Diagnosis old = diagnosisFromJson(nlohmann::json{{"bound", "latency"}, {"decided_by", "roofline"}});
  EXPECT_EQ(old.bound, DiagnosedBound::latency);
  EXPECT_FALSE(old.launch_floor_ns);
  EXPECT_FALSE(toJson(old).contains("launch_floor_ns"));
}
