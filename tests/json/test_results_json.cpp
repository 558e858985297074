// The JSON edge of the results types (analyzer/results_json.hpp): a results file read into typed data
// and written back is the same file, byte for byte; older and hand-made files are read with defaults;
// anything that is not results is rejected.
#include <gtest/gtest.h>

#include <regex>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/json/results_json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rooflab;

using rooflab::testing::fileText;
using rooflab::testing::firstDifference;

namespace {

const fs::path kSourceDir = ROOFLAB_SOURCE_DIR;

// A schema-1 file is written back at schema 2 with nothing else changed: each saved sentence keeps its
// schema-1 key.
void expectByteForByteRoundTrip(const fs::path& path) {
  const std::string saved = fileText(path);
  ASSERT_FALSE(saved.empty()) << path;
  const ResultsDocument document = resultsDocumentFromJson(json::parse(saved));
  const std::string text = std::regex_replace(saved, std::regex("\n  \"schema\": 1,\n"), "\n  \"schema\": 2,\n");
  const std::string written = toJson(document).dump(2) + "\n";
  EXPECT_TRUE(text == written) << path << ": " << firstDifference(text, written);
}

}  // namespace

TEST(ResultsJson, GoldenPoclRunRoundTripsByteForByte) {
  expectByteForByteRoundTrip(kSourceDir / "tests/fixtures/report-golden/pocl-default/input.json");
}

TEST(ResultsJson, GoldenH100RunWithCountersAndMutantsRoundTripsByteForByte) {
  expectByteForByteRoundTrip(kSourceDir / "tests/fixtures/report-golden/h100-default/input.json");
}

TEST(ResultsJson, TypedFieldsOfAGoldenRecord) {
  const ResultsDocument d = resultsDocumentFromJson(
      json::parse(fileText(kSourceDir / "tests/fixtures/report-golden/h100-default/input.json")));
  EXPECT_EQ(d.status, BatchStatus::complete);
  ASSERT_TRUE(d.device.has_value());
  EXPECT_EQ(d.device->name, "NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(d.models.roofline_models.count("gtx670"));
  EXPECT_EQ(d.models.roofline_models.at("gtx670").role, RooflineModelRole::reference);
  EXPECT_EQ(d.models.roofline_models.at("device").role, RooflineModelRole::measured);
  ASSERT_TRUE(d.models.ceilings.has_value());
  EXPECT_EQ(d.models.ceilings->dram_read.unit, "GB/s");
  EXPECT_EQ(d.models.ceilings->fp32_fma.unit, "GFLOP/s");
  ASSERT_TRUE(d.summary.has_value());
  EXPECT_EQ(d.summary->not_run, std::optional<std::size_t>(0));

  const AnalysedResults analysed(d);
  const AnalysedRecord& normal = analysed.records.front();
  EXPECT_EQ(normal.mode, RunMode::normal);
  EXPECT_EQ(normal.status, RecordStatus::ok);
  EXPECT_TRUE(normal.counters.available);
  EXPECT_FALSE(normal.counters.not_attempted);
  EXPECT_TRUE(normal.counters.bridged_vs_opencl.has_value());
  EXPECT_TRUE(normal.counters.bridged_to_opencl_time_ratio.has_value());
  EXPECT_EQ(normal.counters.metric_set, "full table");
  ASSERT_TRUE(normal.counters.derived.at("fp32_flops").has_value());
  ASSERT_TRUE(normal.roofline.count("device_counters"));
  EXPECT_EQ(normal.roofline.at("device_counters").intensity_source, IntensitySource::counters);
  ASSERT_TRUE(normal.mutation.has_value());
  EXPECT_TRUE(normal.mutation->validation.memory_only.has_value());
  EXPECT_EQ(normal.mutation->validation.memory_only->by, MutantValidation::Method::counters);
  EXPECT_TRUE(normal.mutation->occupancy.has_value());
  EXPECT_FALSE(normal.occupancy_padding.has_value());

  const AnalysedRecord& mutant = analysed.records.at(1);
  EXPECT_NE(mutant.mode, RunMode::normal);
  EXPECT_FALSE(mutant.mutation.has_value());
  ASSERT_TRUE(mutant.occupancy_padding.has_value());
  EXPECT_EQ(mutant.occupancy_padding->method, OccupancyMatchMethod::driver_occupancy);
  ASSERT_FALSE(mutant.occupancy_padding->launches.empty());
  EXPECT_TRUE(mutant.occupancy_padding->launches.front().original.occupancy.has_value());
}

// Every value `in` holds is in `out` at the same place (numbers compare by value: older files wrote
// some measured quantities as integers); `out` may hold more.
void expectHoldsEveryValueOf(const json& out, const json& in, const std::string& path,
                             const std::vector<std::string>& dropped) {
  if (std::find(dropped.begin(), dropped.end(), path) != dropped.end()) return;
  if (in.is_object()) {
    ASSERT_TRUE(out.is_object()) << path;
    for (const auto& [key, value] : in.items()) {
      const std::string at = path + "." + key;
      if (std::find(dropped.begin(), dropped.end(), at) != dropped.end()) continue;
      ASSERT_TRUE(out.contains(key)) << at;
      expectHoldsEveryValueOf(out.at(key), value, at, dropped);
    }
  } else if (in.is_array()) {
    ASSERT_TRUE(out.is_array()) << path;
    ASSERT_EQ(out.size(), in.size()) << path;
    for (std::size_t i = 0; i < in.size(); ++i) expectHoldsEveryValueOf(out[i], in[i], path + "[]", dropped);
  } else {
    EXPECT_EQ(out, in) << path;
  }
}

// The fixtures in tests/fixtures/results were written by an older rooflab: fields added since then
// are written with their defaults, so they do not round-trip as text; every value they hold must.
TEST(ResultsJson, OlderFixturesKeepEveryValueTheyHold) {
  // A verdict margin that no rooflab reads any more, and a role the fixture generator gave the
  // ceilings' model (which no record is placed on).
  // The schema number is the current one once written.
  const std::vector<std::string> dropped = {".records[].mutation.margins.far", ".models.ceilings.model.role",
                                            ".schema"};
  for (const char* name : {"cpu-pocl-small.json", "gpu-h100-modes.json"}) {
    SCOPED_TRACE(name);
    const json input = json::parse(fileText(kSourceDir / "tests/fixtures/results" / name));
    expectHoldsEveryValueOf(toJson(resultsDocumentFromJson(input)), input, "", dropped);
  }
}

TEST(ResultsJson, MissingKeysAndNullsTakeDefaults) {
  const json sparse = {{"schema", 1},
                       {"records",
                        {{{"family", "f"}, {"variant", "v"}, {"mode", "normal"}, {"status", "ok"}},
                         {{"family", "f"}, {"variant", "w"}, {"status", "error"}, {"error", nullptr}},
                         {{"family", "g"},
                          {"variant", "v"},
                          {"timings", nullptr},
                          {"roofline", {{"device", nullptr}}},
                          {"counters", nullptr},
                          {"mutation", nullptr},
                          {"params", {{"N", 1024}}}}}}};
  const ResultsDocument d = resultsDocumentFromJson(sparse);
  EXPECT_EQ(d.status, BatchStatus::complete);  // as reports have always read a document without one
  EXPECT_FALSE(d.config.has_value());
  EXPECT_FALSE(d.device.has_value());
  EXPECT_FALSE(d.summary.has_value());
  ASSERT_EQ(d.records.size(), 3u);
  EXPECT_EQ(d.records[0].status, RecordStatus::ok);
  EXPECT_EQ(d.records[1].status, RecordStatus::error);
  EXPECT_EQ(d.records[1].status_reason, "");
  // Without a status the record cannot be taken to have run.
  EXPECT_EQ(d.records[2].status, RecordStatus::error);
  EXPECT_NE(d.records[2].status_reason.find("no status"), std::string::npos);
  EXPECT_FALSE(d.records[2].timings.has_value());
  EXPECT_TRUE(d.analysis.records[2].roofline.empty());
  EXPECT_TRUE(d.records[2].counters.not_attempted);
  EXPECT_EQ(d.records[2].params.at("N"), 1024);

  const json written = toJson(d);
  EXPECT_FALSE(written.contains("config"));
  EXPECT_FALSE(written.contains("device"));
  EXPECT_EQ(written["records"][1]["error"], nullptr);
  EXPECT_EQ(written["records"][2]["counters"], (json{{"available", false}, {"reason", "not measured"}}));
  EXPECT_TRUE(written["records"][2]["work"]["flops"].is_null());  // unknown, not 0
  EXPECT_EQ(written["records"][2]["params"]["N"], 1024);
  EXPECT_TRUE(written["records"][2]["params"]["N"].is_number_integer());
}

TEST(ResultsJson, NumberKindsAreKept) {
  RunRecord r;
  r.params = {{"N", 538624}, {"alpha", 0.5}};
  r.work.flops = 538624;
  r.counters = counters::CounterSet{};
  r.counters.available = true;
  r.counters.values = {{"count", 16777216.0}, {"pct", 42.5}, {"bad", std::nan("")}};
  r.counters.derived = {{"fp32_flops", 1024.0}, {"none", std::nullopt}};
  r.counters.bridged_to_opencl_time_ratio = 1.0;
  const json j = toJson(r);
  EXPECT_EQ(j["params"]["N"].dump(), "538624");
  EXPECT_EQ(j["params"]["alpha"].dump(), "0.5");
  EXPECT_EQ(j["work"]["flops"].dump(), "538624.0");
  EXPECT_EQ(j["counters"]["values"]["count"].dump(), "16777216");
  EXPECT_EQ(j["counters"]["values"]["pct"].dump(), "42.5");
  EXPECT_TRUE(j["counters"]["values"]["bad"].is_null());
  EXPECT_EQ(j["counters"]["derived"]["fp32_flops"].dump(), "1024");
  EXPECT_TRUE(j["counters"]["derived"]["none"].is_null());
  EXPECT_EQ(j["counters"]["bridged_to_opencl_time_ratio"].dump(), "1.0");
  EXPECT_FALSE(j["counters"].contains("bridged_vs_opencl_rel_l2_error"));
  EXPECT_FALSE(j["counters"].contains("metric_set"));
  EXPECT_EQ(j.dump().find("NaN"), std::string::npos);
  EXPECT_EQ(toJson(runRecordFromJson(j)), j);
}

TEST(ResultsJson, ANonResultsDocumentIsRejected) {
  EXPECT_THROW(resultsDocumentFromJson(json::array()), std::invalid_argument);
  EXPECT_THROW(resultsDocumentFromJson(json{{"records", json::array()}}), std::invalid_argument);
  EXPECT_THROW(resultsDocumentFromJson(json{{"schema", 3}, {"records", json::array()}}), std::invalid_argument);
  EXPECT_THROW(resultsDocumentFromJson(json{{"schema", 1}}), std::invalid_argument);
  EXPECT_THROW(resultsDocumentFromJson(json{{"schema", 1}, {"records", {1, 2}}}), std::invalid_argument);
  try {
    resultsDocumentFromJson(json{{"name", "a device model"}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not a rooflab results file"), std::string::npos) << e.what();
  }
}

// The ceilings' spread fields (kernel, vector width, spread; dram_write, candidates, host, noisy_host,
// repetition_rule)
// are written only when present: a ceilings report without them writes what older rooflab wrote, and
// one with them reads back into the same typed report.
TEST(ResultsJson, CeilingsSpreadCandidatesAndHostRoundTrip) {
  CeilingsReport older;
  older.dram_read.name = "dram_read";
  older.dram_read.unit = "GB/s";
  older.dram_read.best_rate = 2969.0;
  const json older_json = toJson(older);
  for (const char* key : {"dram_write", "candidates", "host", "noisy_host", "repetition_rule"})
    EXPECT_FALSE(older_json.contains(key)) << key;
  for (const char* key : {"kernel", "vector_width", "spread"})
    EXPECT_FALSE(older_json["benchmarks"][1].contains(key)) << key;

  CeilingsReport report = older;
  CeilingBenchmark write;
  write.name = "dram_write";
  write.unit = "GB/s";
  write.best_rate = 3050.5;
  write.kernel = "dram_write_float4";
  write.vector_width = 4;
  CeilingSpread spread;
  spread.min_rate = 3000.25;
  spread.median_rate = 3040.5;
  spread.max_rate = 3050.5;
  spread.median_lower_rate = 3030.0;
  spread.median_upper_rate = 3045.0;
  spread.confidence = 0.96875;
  spread.noise = 0.0025;
  spread.stopped = StopDecision::converged;
  spread.measured_seconds = 0.0125;
  write.spread = spread;
  report.dram_write = write;
  CeilingBenchmark fp32;
  fp32.name = "fp32_fma";
  fp32.unit = "GFLOP/s";
  fp32.best_rate = 60000.0;
  fp32.kernel = "fp32_fma_chains 16 x float";
  fp32.vector_width = 1;
  spread.noise.reset();  // fewer than 6 repetitions: no 95% interval
  spread.stopped = StopDecision::budget_exhausted;
  fp32.spread = spread;
  report.candidates = {write, fp32};
  report.host = HostCondition{std::nullopt, 0.25, 16u};
  report.repetition_rule = NoiseTarget{5, 1000, 0.01, 0.95, 0, 0.2};

  const json j = toJson(report);
  EXPECT_EQ(j["dram_write"]["kernel"], "dram_write_float4");
  EXPECT_EQ(j["dram_write"]["spread"]["median_interval_gbps"], json::array({3030.0, 3045.0}));
  EXPECT_EQ(j["dram_write"]["spread"]["stopped"], "converged");
  EXPECT_TRUE(j["candidates"][1]["spread"].contains("min_gflops"));
  EXPECT_TRUE(j["candidates"][1]["spread"]["noise"].is_null());
  EXPECT_TRUE(j["host"]["cpu_governor"].is_null());
  EXPECT_EQ(j["host"]["core_count"], 16);
  EXPECT_TRUE(j.contains("noisy_host"));
  EXPECT_TRUE(j["noisy_host"].is_null());

  const CeilingsReport back = ceilingsReportFromJson(j);
  ASSERT_TRUE(back.dram_write.has_value());
  ASSERT_TRUE(back.dram_write->spread.has_value());
  EXPECT_EQ(back.dram_write->spread->stopped, StopDecision::converged);
  EXPECT_EQ(back.dram_write->spread->noise, std::optional<double>(0.0025));
  ASSERT_EQ(back.candidates.size(), 2u);
  EXPECT_EQ(back.candidates[1].unit, "GFLOP/s");
  EXPECT_EQ(back.candidates[1].vector_width, 1);
  EXPECT_FALSE(back.candidates[1].spread->noise.has_value());
  ASSERT_TRUE(back.host.has_value());
  EXPECT_EQ(back.host->core_count, std::optional<unsigned>(16));
  EXPECT_FALSE(back.noisy_host.has_value());
  ASSERT_TRUE(back.repetition_rule.has_value());
  EXPECT_EQ(back.repetition_rule->min_repetitions, 5u);
  EXPECT_EQ(back.repetition_rule->max_time_s, 0.2);
  EXPECT_EQ(toJson(back), j);

  // A noisy host as data under "host_noise"; a schema-1 file's sentence kept under "noisy_host".
  report.noisy_host = HostNoise{HostLoadNoise{9.0, 2, 4.5, 0.5}, "powersave", std::nullopt, std::nullopt};
  const json noisy = toJson(report);
  EXPECT_FALSE(noisy.contains("noisy_host"));
  EXPECT_EQ(noisy["host_noise"]["load"]["core_count"], 2);
  EXPECT_EQ(noisy["host_noise"]["cpu_governor"], "powersave");
  const auto noise = ceilingsReportFromJson(noisy).noisy_host;
  ASSERT_TRUE(noise && noise->load);
  EXPECT_EQ(noise->load->load_average_1min, 9.0);
  EXPECT_EQ(noise->load->load_per_core, 4.5);
  EXPECT_EQ(noise->cpu_governor, std::optional<std::string>("powersave"));
  EXPECT_FALSE(noise->gpu_clock || noise->text_as_saved);
  EXPECT_EQ(toJson(ceilingsReportFromJson(noisy)), noisy);
  json saved = j;
  saved["noisy_host"] = "load average 9.0 on 2 cores";
  const auto saved_noise = ceilingsReportFromJson(saved).noisy_host;
  ASSERT_TRUE(saved_noise.has_value());
  EXPECT_EQ(saved_noise->text_as_saved, std::optional<std::string>("load average 9.0 on 2 cores"));
  EXPECT_EQ(toJson(ceilingsReportFromJson(saved)), saved);
}

// What a run cost and its drift control (docs/cost.md) survive a write and a read, and an A/B run's
// sides with them; a file without them reads as one written before they were recorded.
TEST(ResultsJson, CostDriftControlAndAbSidesRoundTrip) {
  ResultsDocument document;
  BatchCost& cost = document.cost.emplace();
  cost.wall_seconds = 14.5;
  cost.phases.resize(2);
  cost.phases[0] = {"start-up", 0.5};
  cost.phases[0].detail_as_saved = "config, plan";
  cost.phases[1] = {"other", 0.25};
  cost.estimate = BatchEstimateTrace{12, {{1, 0.5, 11.25}}, 13.0};
  document.drift_control = DriftControlSpec{"rooflab_drift_control 16384 x 256 x 2 FMA", 16384, 256, 5};
  document.ab = AbRun{"a.toml", "b.toml", std::nullopt};
  RunRecord record;
  record.family = "vecadd";
  record.variant = "global";
  record.drift_control = DriftControlSample{1830000.5, {1829000, 1830000}};
  record.ab_side = AbSide::candidate;
  record.counters.available = true;
  record.counters.not_attempted = false;
  counters::CountersCost& counters_cost = record.counters.cost.emplace();
  counters_cost.pass_seconds = {0.01, 0.02};
  counters_cost.session_reused = true;
  counters_cost.jit_compiles = 3;
  document.records.push_back(record);

  const ResultsDocument read = resultsDocumentFromJson(toJson(document));
  ASSERT_TRUE(read.cost.has_value());
  EXPECT_EQ(read.cost->phases.size(), 2u);
  EXPECT_EQ(read.cost->phases[0].detail_as_saved, std::optional<std::string>("config, plan"));
  ASSERT_TRUE(read.cost->estimate.has_value());
  EXPECT_EQ(read.cost->estimate->updates[0].points_done, 1u);
  EXPECT_EQ(read.cost->estimate->actual_seconds, 13.0);
  EXPECT_EQ(read.drift_control->iterations, 256);
  EXPECT_EQ(read.ab->candidate, "b.toml");
  const RunRecord& r = read.records.at(0);
  EXPECT_EQ(r.drift_control->median_ns, 1830000.5);
  EXPECT_EQ(r.drift_control->repetitions_ns.size(), 2u);
  EXPECT_EQ(r.ab_side, AbSide::candidate);
  ASSERT_TRUE(r.counters.cost.has_value());
  EXPECT_EQ(r.counters.cost->pass_seconds.size(), 2u);
  EXPECT_TRUE(r.counters.cost->session_reused);
  EXPECT_EQ(r.counters.cost->jit_compiles, 3);
  EXPECT_EQ(toJson(read).dump(), toJson(document).dump());

  const ResultsDocument older = resultsDocumentFromJson(json{{"schema", 1}, {"records", json::array()}});
  EXPECT_FALSE(older.cost.has_value());
  EXPECT_FALSE(older.drift_control.has_value());
}

// An automatic mutant's source check with the bytes its accesses reach round-trips; an older one
// (loads counted, no bytes) still reads, without bytes.
TEST(ResultsJson, AMutantSourceCheckWithItsBytesRoundTrips) {
  const json check = json::parse(R"({"quantity": "floating-point and integer operations", "original": 15, "mutant": 15,
    "kept_global_loads": {"kept": 4, "of": 6, "bytes": 270344, "of_bytes": 536584},
    "global_bytes": {"loads": 536584, "kept_loads": 270344, "stores": 147460, "launches": [
      {"kernel": "CsrBuild", "loads": 8192, "kept_loads": 8192, "stores": 139268},
      {"kernel": "SpmvCsrScalar", "loads": 528392, "kept_loads": 262152, "stores": 8192}]}})");
  const MutantSourceCheck read = mutantSourceCheckFromJson(check);
  ASSERT_TRUE(read.bytes.has_value());
  EXPECT_DOUBLE_EQ(read.bytes->kept_loads, 270344);
  ASSERT_EQ(read.launch_bytes.size(), 2u);
  EXPECT_EQ(read.launch_bytes[1].kernel, "SpmvCsrScalar");
  EXPECT_EQ(toJson(read), check);
  const json older = json::parse(R"({"quantity": "floating-point and integer operations", "original": 15, "mutant": 15,
    "kept_global_loads": {"kept": 4, "of": 6}})");
  const MutantSourceCheck old = mutantSourceCheckFromJson(older);
  EXPECT_EQ(old.kept_global_loads, 4);
  EXPECT_FALSE(old.bytes.has_value());
  EXPECT_EQ(toJson(old), older);
  const json untraced = json::parse(R"({"quantity": "global loads, stores and atomics", "original": 3, "mutant": 3,
    "global_bytes_unknown": "k.cl:4: a global access through a pointer that is not traced to a kernel argument"})");
  EXPECT_EQ(toJson(mutantSourceCheckFromJson(untraced)), untraced);
}

// A batch on several devices and a part of a batch: the devices with their own models, each record's
// device, the batch identity with its part and a merge's summary are written and read back whole; a
// file without them (every older one) reads with none.
TEST(ResultsJson, SeveralDevicesPartsAndMergesRoundTrip) {
  ResultsDocument d;
  d.device_mode = DeviceMode::compare;
  DeviceRun cpu;
  cpu.key = "0:0";
  cpu.info.name = "pthread-cpu";
  cpu.info.type = "CPU";
  DeviceModel model;
  model.key = "device";
  model.display_name = "measured";
  model.peak_gflops = 100;
  model.dram_gbps = 20;
  cpu.models.roofline_models["device"] = {model, RooflineModelRole::measured};
  cpu.ceilings_seconds = 2.5;
  DeviceRun gpu = cpu;
  gpu.key = "1:0";
  gpu.info.name = "gpu";
  gpu.info.type = "GPU";
  d.device_runs = {cpu, gpu};
  RunRecord record;
  record.family = "vecadd";
  record.variant = "global";
  record.device = "1:0";
  d.records.push_back(record);
  d.batch = BatchIdentity{"0123456789abcdef", 12,
                          BatchPart{2, 3, "--shard 2/3", {4, 4, 4}, {"vecadd/global  (normal)"}, {5}}};
  d.merge = MergeSummary{3, {{1, "p1/results.json", 4, "pthread-cpu"}}, {2}, {"x (normal)"}, {"y (normal)"}};

  const json written = toJson(d);
  const ResultsDocument read = resultsDocumentFromJson(written);
  EXPECT_EQ(toJson(read), written);
  ASSERT_EQ(read.device_runs.size(), 2u);
  EXPECT_EQ(read.device_runs[1].key, "1:0");
  EXPECT_EQ(read.device_runs[1].models.roofline_models.at("device").model.dram_gbps, 20);
  EXPECT_EQ(read.records[0].device, "1:0");
  ASSERT_TRUE(read.batch && read.batch->part);
  EXPECT_EQ(read.batch->part->plan_indices, std::vector<std::size_t>{5});
  ASSERT_TRUE(read.merge);
  EXPECT_EQ(read.merge->missing_parts, std::vector<std::size_t>{2});

  const ResultsDocument older =
      resultsDocumentFromJson(json{{"schema", 1}, {"records", json::array({json{{"family", "f"}}})}});
  EXPECT_FALSE(older.device_mode || older.batch || older.merge || older.records[0].device);
  EXPECT_TRUE(older.device_runs.empty());
}
