// `rooflab diff` against the drift of whole runs (analyzer/diagnose/run_comparison.hpp, analyzer/stats/drift.hpp):
// each run timed a control kernel beside every record; a change counts only beyond the repetitions'
// noise and beyond that drift. And the two sides of an A/B run (reports/text/ab_split.hpp).
#include <gtest/gtest.h>

#include <sstream>

#include "reports/text/ab_split.hpp"
#include "analyzer/diagnose/run_comparison.hpp"
#include "reports/text/diff_report.hpp"
#include "reports/text/diff_text.hpp"

using namespace rooflab;

namespace {

// A record of `repetitions` kernel times around `median_ns` (spread by +-1%), each beside a control
// run of `control_ns`.
RunRecord record(const std::string& variant, double median_ns, double control_ns, int repetitions = 12) {
  RunRecord r;
  r.family = "slowdown";
  r.variant = variant;
  r.params = {{"N", 256}};
  r.param_order = {"N"};
  EventTimings& t = r.timings.emplace();
  std::vector<double> samples;
  for (int i = 0; i < repetitions; ++i) {
    RepetitionTiming rep;
    rep.kernel_ns = static_cast<std::int64_t>(median_ns * (0.99 + 0.02 * i / (repetitions - 1)));
    t.repetitions.push_back(rep);
    samples.push_back(static_cast<double>(rep.kernel_ns));
  }
  t.kernel_ns = summarize(samples);
  r.drift_control =
      DriftControlSample{control_ns, std::vector<double>(static_cast<std::size_t>(repetitions), control_ns)};
  return r;
}

ResultsDocument driftRun(std::vector<RunRecord> records) {
  ResultsDocument d;
  d.device = DeviceInfo{};
  d.device->name = "cpu";
  d.drift_control = DriftControlSpec{"rooflab_drift_control 16384 x 384 x 2 FMA", 16384, 384, 0};
  d.records = std::move(records);
  return d;
}

std::string text(const rooflab::RunComparison& diff) {
  std::ostringstream out;
  reports::printDiff(diff, out);
  return out.str();
}

}  // namespace

TEST(DiffDrift, ARunWhoseHostRanSlowerThroughoutRegressesNothing) {
  const ResultsDocument old_run = driftRun({record("work", 2.4e6, 1e6), record("other", 1e6, 1e6)});
  // The new run's host was loaded: every record and the control 45% slower.
  const ResultsDocument new_run = driftRun({record("work", 2.4e6 * 1.45, 1.45e6), record("other", 1.45e6, 1.45e6)});
  const rooflab::RunComparison diff = rooflab::compareRuns(old_run, new_run);
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::inconclusive);
  ASSERT_TRUE(diff.drift.has_value());
  EXPECT_NEAR(diff.drift->ratio, 1.45, 1e-9);
  EXPECT_EQ(diff.count(rooflab::PointVerdict::unchanged_within_drift), 2u);
  const std::string out = text(diff);
  EXPECT_EQ(out.find("REGRESSED"), std::string::npos) << out;
  EXPECT_NE(out.find("unchanged within drift: the control kernel beside it moved +45"), std::string::npos) << out;
  EXPECT_NE(out.find("warning: the runs drifted: NEW's control kernel ran +45.0%"), std::string::npos) << out;
  EXPECT_NE(out.find("no regression among 2 matched records"), std::string::npos) << out;
}

TEST(DiffDrift, ARecordSlowedBeyondTheDriftRegresses) {
  const ResultsDocument old_run = driftRun({record("work", 2.4e6, 1e6), record("other", 1e6, 1e6)});
  // 1.5 times the work, on a host 30% slower throughout.
  const ResultsDocument new_run = driftRun({record("work", 2.4e6 * 1.5 * 1.3, 1.3e6), record("other", 1.3e6, 1.3e6)});
  const rooflab::RunComparison diff = rooflab::compareRuns(old_run, new_run);
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  ASSERT_EQ(diff.count(rooflab::PointVerdict::regressed), 1u);
  EXPECT_EQ(diff.matched[0].verdict, rooflab::PointVerdict::regressed);
  EXPECT_NEAR(diff.matched[0].drift->corrected_ratio, 1.5, 0.02);
  EXPECT_EQ(diff.matched[1].verdict, rooflab::PointVerdict::unchanged_within_drift);
  const std::string out = text(diff);
  EXPECT_NE(out.find("drift"), std::string::npos) << out;  // the column
  EXPECT_NE(out.find("REGRESSED: 1 of 2 matched records"), std::string::npos) << out;
}

TEST(DiffDrift, ARegressionTheDriftHidesIsInconclusiveNotClean) {
  // The old run's host was 35% slower; the record now does 1.5 times the work and measures the same.
  const ResultsDocument old_run = driftRun({record("work", 2.4e6, 1.35e6)});
  const ResultsDocument new_run = driftRun({record("work", 2.4e6 * 1.01, 1e6)});
  const rooflab::RunComparison diff = rooflab::compareRuns(old_run, new_run);
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::inconclusive);
  EXPECT_EQ(diff.matched[0].verdict, rooflab::PointVerdict::inconclusive_drift);
  const std::string out = text(diff);
  EXPECT_NE(out.find("INCONCLUSIVE: no regression shown among 1 matched records"), std::string::npos) << out;
  EXPECT_NE(out.find("rooflab ab"), std::string::npos) << out;
}

TEST(DiffDrift, RunsWithoutControlsAreComparedAsBefore) {
  ResultsDocument old_run = driftRun({record("work", 2.4e6, 1e6)}),
                  new_run = driftRun({record("work", 2.4e6 * 1.5, 1.5e6)});
  old_run.drift_control.reset();
  const rooflab::RunComparison diff = rooflab::compareRuns(old_run, new_run);
  EXPECT_FALSE(diff.drift.has_value());
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_EQ(text(diff).find("drift"), std::string::npos) << text(diff);
}

TEST(DiffDrift, AnABRunsSidesAreTwoRuns) {
  RunRecord baseline = record("work", 2.4e6, 1e6), candidate = record("work", 3.6e6, 1e6);
  baseline.ab_side = AbSide::baseline;
  candidate.ab_side = AbSide::candidate;
  ResultsDocument ab = driftRun({baseline, candidate});
  EXPECT_THROW(reports::splitAbRun(ab), std::invalid_argument);  // no "ab": not an A/B run's results
  ab.ab = AbRun{"a.toml", "b.toml", std::nullopt};
  const auto [old_run, new_run] = reports::splitAbRun(ab);
  ASSERT_EQ(old_run.records.size(), 1u);
  ASSERT_EQ(new_run.records.size(), 1u);
  EXPECT_FALSE(old_run.ab.has_value());
  EXPECT_FALSE(new_run.records[0].ab_side.has_value());
  const rooflab::RunComparison diff = rooflab::compareRuns(old_run, new_run);
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_NEAR(*diff.matched[0].time_change, 0.5, 0.01);
}
