// compareRuns (analyzer/diagnose/run_comparison.hpp): the typed comparison of two runs, on records
// built in code; the text of it is tested in tests/reports/test_report_diff.cpp.
#include <gtest/gtest.h>

#include <variant>

#include "analyzer/diagnose/run_comparison.hpp"
#include "analyzer/stats/stats.hpp"

using namespace rooflab;

namespace {

// A record of `repetitions` kernel times spread by +-1% around `median_ns`, optionally each beside
// a control run of `control_ns`.
RunRecord record(const std::string& variant, double median_ns, int repetitions = 10, double control_ns = 0) {
  RunRecord r;
  r.family = "matmul";
  r.variant = variant;
  r.params = {{"N", 1024}};
  r.param_order = {"N"};
  r.verification.status = VerificationStatus::passed;
  EventTimings& timings = r.timings.emplace();
  std::vector<double> samples_ns;
  for (int i = 0; i < repetitions; ++i) {
    RepetitionTiming repetition;
    repetition.kernel_ns = static_cast<std::int64_t>(median_ns * (0.99 + 0.02 * i / std::max(1, repetitions - 1)));
    timings.repetitions.push_back(repetition);
    samples_ns.push_back(static_cast<double>(repetition.kernel_ns));
  }
  timings.kernel_ns = summarize(samples_ns);
  if (control_ns > 0)
    r.drift_control =
        DriftControlSample{control_ns, std::vector<double>(static_cast<std::size_t>(repetitions), control_ns)};
  return r;
}

ResultsDocument run(std::vector<RunRecord> records, bool with_controls = false) {
  ResultsDocument document;
  document.device = DeviceInfo{};
  document.device->name = "cpu";
  document.device->platform = "Portable Computing Language";
  if (with_controls)
    document.drift_control = DriftControlSpec{"rooflab_drift_control 16384 x 384 x 2 FMA", 16384, 384, 0};
  document.records = std::move(records);
  return document;
}

}  // namespace

TEST(RunComparison, IdenticalRunsShowNoChange) {
  const ResultsDocument both = run({record("naive", 4e6), record("tiled16", 1e6)});
  const RunComparison comparison = compareRuns(both, both);
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::no_regression);
  EXPECT_FALSE(comparison.refusal.has_value());
  ASSERT_EQ(comparison.matched.size(), 2u);
  for (const PointComparison& point : comparison.matched) {
    EXPECT_EQ(point.verdict, PointVerdict::unchanged_within_noise);
    EXPECT_EQ(point.reason, VerdictReason::none);
    ASSERT_TRUE(point.time_change.has_value());
    EXPECT_DOUBLE_EQ(*point.time_change, 0.0);
  }
  EXPECT_TRUE(comparison.added.empty());
  EXPECT_TRUE(comparison.removed.empty());
  EXPECT_TRUE(comparison.warnings.empty());
  EXPECT_FALSE(comparison.drift.has_value());
}

TEST(RunComparison, AClearRegressionGivesTheRegressionOutcome) {
  const RunComparison comparison = compareRuns(run({record("naive", 4e6), record("tiled16", 1e6)}),
                                               run({record("naive", 4e6), record("tiled16", 2e6)}));
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::regressed);
  EXPECT_EQ(comparison.count(PointVerdict::regressed), 1u);
  const PointComparison& tiled = comparison.matched[1];
  EXPECT_EQ(tiled.key.variant, "tiled16");
  EXPECT_EQ(tiled.verdict, PointVerdict::regressed);
  ASSERT_TRUE(tiled.comparison.has_value());
  EXPECT_NEAR(tiled.comparison->ratio.ratio, 2.0, 1e-3);
  EXPECT_LT(tiled.comparison->p_value, 1e-3);  // 10 + 10 that do not overlap
  EXPECT_NEAR(*tiled.time_change, 1.0, 1e-3);
  EXPECT_EQ(comparison.matched[0].verdict, PointVerdict::unchanged_within_noise);

  // The same change is an improvement the other way round, and under a larger minimum effect none.
  const RunComparison faster = compareRuns(run({record("tiled16", 2e6)}), run({record("tiled16", 1e6)}));
  EXPECT_EQ(faster.outcome, ComparisonOutcome::no_regression);
  EXPECT_EQ(faster.matched[0].verdict, PointVerdict::improved);
  RunComparisonOptions lenient;
  lenient.min_effect = 1.5;
  EXPECT_EQ(compareRuns(run({record("tiled16", 1e6)}), run({record("tiled16", 2e6)}), lenient).outcome,
            ComparisonOutcome::no_regression);
}

TEST(RunComparison, ANewErrorRegressesAndAnOldOneIsNotCompared) {
  RunRecord errors = record("tiled16", 1e6);
  errors.status = RecordStatus::error;
  errors.timings.reset();
  const RunComparison comparison = compareRuns(run({record("tiled16", 1e6)}), run({errors}));
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::regressed);
  EXPECT_EQ(comparison.matched[0].verdict, PointVerdict::regressed);
  EXPECT_EQ(comparison.matched[0].reason, VerdictReason::now_errors);

  const RunComparison both = compareRuns(run({errors}), run({errors}));
  EXPECT_EQ(both.outcome, ComparisonOutcome::no_regression);
  EXPECT_EQ(both.matched[0].verdict, PointVerdict::not_compared);
  EXPECT_EQ(both.matched[0].reason, VerdictReason::same_fault_in_both);
}

TEST(RunComparison, TooFewRepetitionsSayHowMany) {
  const RunComparison comparison = compareRuns(run({record("tiled16", 1e6, 3)}), run({record("tiled16", 2e6, 3)}));
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::no_regression);
  const PointComparison& point = comparison.matched[0];
  EXPECT_EQ(point.verdict, PointVerdict::unchanged_within_noise);
  EXPECT_EQ(point.reason, VerdictReason::too_few_repetitions);
  EXPECT_EQ(point.old_repetitions, 3u);
  EXPECT_EQ(point.new_repetitions, 3u);
}

TEST(RunComparison, AHostSlowerThroughoutIsDriftNotARegression) {
  const ResultsDocument old_run = run({record("naive", 2.4e6, 12, 1e6), record("tiled16", 1e6, 12, 1e6)}, true);
  const ResultsDocument new_run =
      run({record("naive", 2.4e6 * 1.45, 12, 1.45e6), record("tiled16", 1.45e6, 12, 1.45e6)}, true);
  const RunComparison comparison = compareRuns(old_run, new_run);
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::no_regression);
  ASSERT_TRUE(comparison.drift.has_value());
  EXPECT_NEAR(comparison.drift->ratio, 1.45, 1e-9);
  EXPECT_EQ(comparison.count(PointVerdict::unchanged_within_drift), 2u);
  EXPECT_EQ(comparison.matched[0].reason, VerdictReason::within_drift);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<LargeDrift>(comparison.warnings[0]));
}

TEST(RunComparison, RunsThatCannotBeComparedAreRefused) {
  ResultsDocument other_device = run({record("tiled16", 1e6)});
  other_device.device->name = "gpu";
  const RunComparison refused = compareRuns(run({record("tiled16", 1e6)}), other_device);
  EXPECT_EQ(refused.outcome, ComparisonOutcome::refused);
  ASSERT_TRUE(refused.refusal.has_value());
  EXPECT_TRUE(std::holds_alternative<OtherDevices>(*refused.refusal));
  EXPECT_TRUE(refused.matched.empty());

  RunComparisonOptions allow;
  allow.allow_other_device = true;
  const RunComparison allowed = compareRuns(run({record("tiled16", 1e6)}), other_device, allow);
  EXPECT_EQ(allowed.outcome, ComparisonOutcome::no_regression);
  ASSERT_EQ(allowed.warnings.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<OtherDevices>(allowed.warnings[0]));

  ResultsDocument other_family = run({record("tiled16", 1e6)});
  other_family.records[0].family = "transpose";
  const RunComparison nothing = compareRuns(run({record("tiled16", 1e6)}), other_family);
  EXPECT_EQ(nothing.outcome, ComparisonOutcome::refused);
  const auto* families = std::get_if<NoFamilyInCommon>(&*nothing.refusal);
  ASSERT_NE(families, nullptr);
  EXPECT_EQ(families->old_families, std::set<std::string>{"matmul"});
  EXPECT_EQ(families->new_families, std::set<std::string>{"transpose"});

  EXPECT_THROW(compareRuns(other_device, other_device, RunComparisonOptions{0.0, 0.2, false}), std::invalid_argument);
  EXPECT_THROW(compareRuns(other_device, other_device, RunComparisonOptions{0.05, -0.1, false}), std::invalid_argument);
}

TEST(RunComparison, AddedAndRemovedPointsAreKeyedByValue) {
  RunRecord larger = record("tiled16", 1e6);
  larger.params["N"] = 2048;
  const RunComparison comparison =
      compareRuns(run({record("naive", 4e6), record("tiled16", 1e6)}), run({record("tiled16", 1e6), larger}));
  ASSERT_EQ(comparison.matched.size(), 1u);
  ASSERT_EQ(comparison.added.size(), 1u);
  EXPECT_EQ(comparison.added[0].params.at("N"), 2048);
  ASSERT_EQ(comparison.removed.size(), 1u);
  EXPECT_EQ(comparison.removed[0].variant, "naive");
}

TEST(RunComparison, APointHeldTwiceIsComparedOnceUnderAWarning) {
  const RunComparison comparison =
      compareRuns(run({record("tiled16", 1e6)}), run({record("tiled16", 1e6), record("tiled16", 3e6)}));
  EXPECT_EQ(comparison.outcome, ComparisonOutcome::no_regression);  // the first is compared
  ASSERT_EQ(comparison.matched.size(), 1u);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  const auto* duplicate = std::get_if<DuplicatePoint>(&comparison.warnings[0]);
  ASSERT_NE(duplicate, nullptr);
  EXPECT_EQ(duplicate->side, RunSide::new_run);
  EXPECT_EQ(duplicate->key.variant, "tiled16");
}
