// The words of what a batch cost (reports/text/progress_text.hpp, cost_text.hpp): the estimate the
// batch prints, and the phase table's details, written from the counts the batch keeps; a detail a
// results file saved as text before the counts were kept is said and written back as saved.
#include <gtest/gtest.h>

#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/cost_text.hpp"
#include "reports/text/device_list_text.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/text/progress_text.hpp"
#include "reports/text/tuning_text.hpp"

using namespace rooflab;

TEST(ProgressText, SaysTheEstimateInSecondsMinutesOrHours) {
  EXPECT_EQ(reports::estimateText(42), "about 42 s");
  EXPECT_EQ(reports::estimateText(0.2), "about 1 s");
  EXPECT_EQ(reports::estimateText(210), "about 3.5 min");
  EXPECT_EQ(reports::estimateText(7560), "about 2.1 h");
}

TEST(CostText, WritesEachPhasesDetailFromItsCounts) {
  BatchTimes times;
  times.ceilings_measured = true;
  times.worker_starts = 3;
  std::vector<RunRecord> records(2);
  records[0].build_seconds = 3.4;
  records[0].phase_seconds = {{"counters", 0.5}};
  records[0].counters.cost.emplace().pass_seconds = {0.1, 0.2};
  records[0].counters.cost->session_reused = true;
  BatchCost cost = batchCost(times, records, 8);
  closeBatchCost(cost, 1, 10);
  std::map<std::string, std::string> details;
  for (const PhaseCost& phase : cost.phases) details[phase.name] = reports::phaseDetailText(phase);
  EXPECT_EQ(details["start-up"], "config, plan, device, output folder");
  EXPECT_EQ(details["ceilings"], "measured at the start");
  EXPECT_EQ(details["worker start"], "3 worker processes");
  EXPECT_EQ(details["records: build (waiting)"],
            "1 programs, 3.4 s of compiler time on 8 background threads while earlier records ran");
  EXPECT_EQ(details["records: counters"],
            "1 records, 0.500 s and 2.0 profiling passes a record; metric set configuration reused by 1");
  EXPECT_EQ(details["records: timed runs"], "");
  EXPECT_EQ(details["records: bookkeeping"], "2 records: worker messages, placement, journal, checkpoints");
  EXPECT_EQ(details["finish"], "analysis, results file");
  EXPECT_EQ(details["reports"], "every format asked for");
  EXPECT_EQ(details["other"], "process start and exit, terminal summary");

  // The counts survive a write and a read, and no text is written beside them.
  const nlohmann::json written = toJson(cost);
  for (const nlohmann::json& phase : written["phases"]) EXPECT_FALSE(phase.contains("detail")) << phase.dump();
  const BatchCost read = batchCostFromJson(written);
  ASSERT_EQ(read.phases.size(), cost.phases.size());
  for (std::size_t i = 0; i < read.phases.size(); ++i)
    EXPECT_EQ(reports::phaseDetailText(read.phases[i]), reports::phaseDetailText(cost.phases[i])) << i;
  EXPECT_EQ(toJson(read), written);
}

TEST(CostText, APhaseSavedAsTextIsSaidAndWrittenBackAsSaved) {
  const nlohmann::json saved = nlohmann::json::parse(R"json({"wall_seconds": 2.0, "phases": [
      {"name": "worker start", "seconds": 0.5, "detail": "1 worker process"},
      {"name": "records: build (waiting)", "seconds": 1.0, "detail": "4 programs, 2.0 s of compiler time"},
      {"name": "records: prepare", "seconds": 0.5}]
})json");
  const BatchCost read = batchCostFromJson(saved);
  ASSERT_EQ(read.phases.size(), 3u);
  EXPECT_EQ(reports::phaseDetailText(read.phases[0]), "1 worker process");
  EXPECT_EQ(reports::phaseDetailText(read.phases[1]), "4 programs, 2.0 s of compiler time");
  EXPECT_EQ(reports::phaseDetailText(read.phases[2]), "");
  EXPECT_EQ(toJson(read), saved);
}

// The lines a batch and a search print as they run, and `rooflab devices`, written by reports/ from
// the batch's figures; each as the batch and the command once wrote it with printf.
TEST(ProgressText, SaysHowTheBatchStarts) {
  BatchStart start{84, 5, "cpu [PoCL]", 1, 5, 0.02, 1, 49.2, "out/results.json"};
  EXPECT_EQ(reports::batchStartText(start),
            "rooflab: 84 points (5 families) on cpu [PoCL]; 1 warm-up + at least 5 timed runs each, to ±2% noise "
            "within 1 s; estimated about 49 s; results in out/results.json");
  start.families = 1;
  start.max_noise = 0.005;
  start.max_time_s = 0.25;
  start.estimate_seconds.reset();
  EXPECT_EQ(reports::batchStartText(start),
            "rooflab: 84 points (1 family) on cpu [PoCL]; 1 warm-up + at least 5 timed runs each, to ±0.5% noise "
            "within 0.25 s; results in out/results.json");
}

TEST(ProgressText, SaysTheGpuClockAndEachTuningEvaluation) {
  EXPECT_EQ(reports::gpuClockText(GpuClockSamples{1755.4, 1980.0, 84}), "GPU SM clock 1755-1980 MHz over 84 samples");

  TuningResult search;
  search.family = "matmul";
  search.variant = "tiled";
  search.rate_unit = "GFLOP/s";
  search.dimensions = {{"TILE", "define", {8, 16}}};
  search.configurations.resize(2);
  search.configurations[1].values = {16};
  search.configurations[1].outcome = ConfigurationOutcome::ok;
  search.configurations[1].median_ns = 1234567;
  search.configurations[1].rate = 2750.06;
  search.evaluations = 3;
  EXPECT_EQ(reports::tuneProgressText(search, 1, 12),
            "rooflab: tune matmul/tiled [3/12] TILE=16: 1.235 ms, 2750.1 GFLOP/s");
  search.configurations[1].median_ns = 81234;
  search.configurations[1].resumed = true;
  EXPECT_EQ(reports::tuneProgressText(search, 1, 12),
            "rooflab: tune matmul/tiled [3/12] TILE=16: 81.23 us, 2750.1 GFLOP/s (from the journal)");
}

TEST(ProgressText, ListsTheDevicesWithTheirModels) {
  reports::ListedDevice cpu;
  cpu.info.platform = "Portable Computing Language";
  cpu.info.name = "cpu";
  cpu.info.type = "CPU";
  cpu.info.vendor = "AuthenticAMD";
  cpu.info.opencl_version = "OpenCL 3.0 PoCL";
  cpu.info.driver_version = "3.1";
  cpu.info.compute_units = 2;
  cpu.info.clock_mhz = 2596;
  cpu.info.global_mem_bytes = 15128842240ull;
  cpu.info.max_alloc_bytes = 4294967296ull;
  cpu.info.local_mem_bytes = 1048576;
  cpu.info.max_work_group_size = 4096;
  cpu.info.max_work_item_sizes = {4096, 4096, 4096};
  cpu.info.timer_resolution_ns = 1;
  reports::ListedDevice gpu = cpu;
  gpu.info.device_index = 1;
  gpu.model.emplace();
  gpu.model->key = "h100";
  gpu.model->display_name = "NVIDIA H100 SXM";
  gpu.model->peak_gflops = 66900.4;
  gpu.model->dram_gbps = 3352.96;
  EXPECT_EQ(reports::deviceListText({cpu, gpu}),
            "platform 0: Portable Computing Language\n"
            "  0:0  cpu  [CPU, AuthenticAMD]\n"
            "        OpenCL 3.0 PoCL, driver 3.1\n"
            "        2 compute units at 2596 MHz; global memory 14.09 GiB (max allocation 4.00 GiB); local memory "
            "1024 KiB\n"
            "        max work-group 4096 (per dimension 4096x4096x4096); profiling timer resolution 1 ns\n"
            "        device model: none in configs/devices; `rooflab run` measures one (`rooflab ceilings --device "
            "0:0` saves it)\n"
            "  0:1  cpu  [CPU, AuthenticAMD]\n"
            "        OpenCL 3.0 PoCL, driver 3.1\n"
            "        2 compute units at 2596 MHz; global memory 14.09 GiB (max allocation 4.00 GiB); local memory "
            "1024 KiB\n"
            "        max work-group 4096 (per dimension 4096x4096x4096); profiling timer resolution 1 ns\n"
            "        device model: h100 (NVIDIA H100 SXM): 66900 GFLOP/s FP32, 3353.0 GB/s DRAM\n");
}
