// What a batch costs rooflab itself: the estimate as the batch runs (analyzer/batch/batch_estimate.hpp)
// and the phase table (analyzer/batch/batch_cost.hpp), on made-up costs.
#include <gtest/gtest.h>

#include <sstream>

#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/batch/batch_estimate.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "reports/text/cost_text.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

PointCostPrior prior(const std::string& family, const std::string& mode, double fixed, double timed) {
  return {family + " " + mode, mode, fixed, timed};
}

}  // namespace

TEST(BatchEstimate, BeforeAnyPointEveryPointCostsItsPrior) {
  const BatchEstimator estimator({prior("a", "normal", 1, 0.5), prior("a", "memory-only", 2, 0.5)}, 0.25);
  EXPECT_DOUBLE_EQ(estimator.initialSeconds(), 1 + 0.5 + 2 + 0.5 + 0.25);
  EXPECT_DOUBLE_EQ(estimator.remainingSeconds(), estimator.initialSeconds());
}

TEST(BatchEstimate, PointsOfAKindCostWhatTheFirstOfThemCost) {
  // Ten points of one kind whose prior is ten times too low: after the first, the rest cost as it did.
  std::vector<PointCostPrior> points(10, prior("nbody", "normal", 0.1, 0));
  BatchEstimator estimator(points, 0);
  EXPECT_NEAR(estimator.initialSeconds(), 1.0, 1e-12);
  estimator.pointDone(0, 1.0, 0, 1.0);
  EXPECT_NEAR(estimator.remainingSeconds(), 9.0, 1e-12);
  ASSERT_EQ(estimator.trace().updates.size(), 1u);
  EXPECT_EQ(estimator.trace().updates[0].points_done, 1u);
  EXPECT_NEAR(estimator.trace().updates[0].remaining_seconds, 9.0, 1e-12);
}

TEST(BatchEstimate, AKindNotRunYetIsScaledByItsModeThenByEveryPoint) {
  BatchEstimator estimator({prior("a", "normal", 1, 0), prior("b", "normal", 2, 0), prior("c", "compute-only", 4, 0)},
                           0);
  estimator.pointDone(0, 3, 0, 3);  // a normal point cost 3 times its prior
  // b (normal, not run): 3 x its prior; c (another mode): 3 x its prior, from every point run.
  EXPECT_NEAR(estimator.remainingSeconds(), 6 + 12, 1e-12);
}

TEST(BatchEstimate, TimedRunsAreScaledByWhatTheTimedRunsSoFarCost) {
  BatchEstimator estimator({prior("a", "normal", 0, 1), prior("a", "normal", 0, 2)}, 0);
  estimator.pointDone(0, 0.5, 0.5, 0.5);  // its timed runs took half their prior
  EXPECT_NEAR(estimator.remainingSeconds(), 1.0, 1e-12);
}

TEST(BatchCost, ThePhaseTableSumsTheBatchsStepsAndTheRecordsPhases) {
  BatchTimes times;
  times.startup_seconds = 0.5;
  times.ceilings_seconds = 1;
  times.ceilings_measured = true;
  times.worker_start_seconds = 0.25;
  times.worker_starts = 1;
  times.points_seconds = 10;
  times.finish_seconds = 0.125;
  std::vector<RunRecord> records(2);
  records[0].phase_seconds = {{"build", 1}, {"run", 2}, {"counters", 3}};
  records[1].phase_seconds = {
      {"prepare", 0.5}, {"warmup", 0.75}, {"run", 1.25}, {"drift_control", 0.25}, {"release", 0.5}};
  records[0].build_seconds = 4;
  records[0].counters.cost.emplace().pass_seconds = {0.1, 0.2};
  BatchCost cost = batchCost(times, records, 8);
  double sum = 0;
  for (const PhaseCost& p : cost.phases) sum += p.seconds;
  EXPECT_DOUBLE_EQ(cost.wall_seconds, sum);
  auto phase = [&](const std::string& name) -> const PhaseCost& {
    for (const PhaseCost& p : cost.phases)
      if (p.name == name) return p;
    throw std::runtime_error("no phase " + name);
  };
  EXPECT_DOUBLE_EQ(phase("records: timed runs").seconds, 3.25);
  EXPECT_DOUBLE_EQ(phase("records: warm-up runs").seconds, 0.75);
  EXPECT_DOUBLE_EQ(phase("records: release").seconds, 0.5);
  EXPECT_DOUBLE_EQ(phase("records: counters").seconds, 3);
  // What the worker did beside the records' own phases: the loop, less the worker's start and the phases.
  EXPECT_DOUBLE_EQ(phase("records: bookkeeping").seconds, 10 - 0.25 - 9.25);
  EXPECT_NE(reports::phaseDetailText(phase("records: build (waiting)")).find("8 background threads"),
            std::string::npos);
  EXPECT_NE(reports::phaseDetailText(phase("records: counters")).find("2.0 profiling passes a record"),
            std::string::npos);

  closeBatchCost(cost, 2, 20);
  EXPECT_DOUBLE_EQ(cost.wall_seconds, 20);
  EXPECT_DOUBLE_EQ(phase("reports").seconds, 2);
  EXPECT_DOUBLE_EQ(phase("other").seconds, 20 - sum - 2);

  ResultsDocument document;
  document.cost = cost;
  document.records = records;
  std::ostringstream table;
  reports::printPhaseTable(document, table);
  EXPECT_NE(table.str().find("phases (wall 20.0 s):"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("records: counters"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("counters per record"), std::string::npos) << table.str();
}

TEST(BatchCost, AResultsFileWithoutCostsSaysSo) {
  std::ostringstream table;
  reports::printPhaseTable(ResultsDocument{}, table);
  EXPECT_NE(table.str().find("not recorded"), std::string::npos);
}

// A sharded batch's GPUs share their host with one worker each: the fixed part of a point costs a
// fifth more before any point has run; the timed runs, each on its own GPU, do not. PoCL's points,
// whose kernels share the host's cores, are left as they are.
TEST(BatchEstimate, ShardedGpusPriceTheirPointsFixedPartAFifthHigher) {
  const BatchPlan plan = planBatch(parseBatchConfig(std::string(rooflab::testing::kQuickCpuRun) +
                                                        "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\n",
                                                    "estimate.toml", ROOFLAB_SOURCE_DIR));
  ASSERT_TRUE(plan.input_errors.empty());
  const std::vector<std::size_t> slots = {0};
  RooflineModels models;
  models.reference.peak_gflops = 1000;
  models.reference.dram_gbps = 100;
  RunSettings settings;
  DeviceInfo gpu;
  gpu.type = "GPU";
  gpu.vendor = "Advanced Micro Devices, Inc.";
  const auto one = BatchEstimator::forPlan(plan, slots, models, settings, gpu, 1).priorSeconds();
  const auto two = BatchEstimator::forPlan(plan, slots, models, settings, gpu, 2).priorSeconds();
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_GT(two[0], one[0]);
  EXPECT_LT(two[0], 1.2 * one[0]);  // the timed runs are not scaled
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  EXPECT_DOUBLE_EQ(BatchEstimator::forPlan(plan, slots, models, settings, cpu, 2).priorSeconds()[0],
                   BatchEstimator::forPlan(plan, slots, models, settings, cpu, 1).priorSeconds()[0]);
}
