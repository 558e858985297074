// A run's drift against another, from the control kernel timed beside every record of both
// (analyzer/stats/drift.hpp), and one record's change judged against it.
#include <gtest/gtest.h>

#include "analyzer/stats/drift.hpp"

using namespace rooflab;

TEST(Drift, TheControlsMediansGiveTheRunsDriftAndTheirOwnSpread) {
  const auto drift = runDrift({100, 101, 99, 100, 102}, {140, 141, 139, 140, 200});
  ASSERT_TRUE(drift.has_value());
  EXPECT_NEAR(drift->ratio, 1.4, 1e-9);
  EXPECT_LT(drift->old_spread, 0.03);
  EXPECT_GT(drift->new_spread, 0.1);  // the one control a stray load hit shows as spread, not as the ratio
  EXPECT_EQ(drift->old_count, 5u);
  EXPECT_TRUE(driftIsLarge(*drift, 0.2));
  EXPECT_FALSE(driftIsLarge(*runDrift({100, 100, 100}, {105, 104, 106}), 0.2));
}

TEST(Drift, NoControlMeansNoDrift) {
  EXPECT_FALSE(runDrift({}, {100}).has_value());
  EXPECT_FALSE(runDrift({100}, {0, -1}).has_value());
}

namespace {

// Eight runs around `median`, spread by +-2%.
std::vector<double> around(double median) {
  std::vector<double> runs;
  for (int i = 0; i < 8; ++i) runs.push_back(median * (0.98 + 0.04 * i / 7));
  return runs;
}

// The comparison as measured and once corrected, for runs whose medians moved by `raw` and whose
// controls moved by `drift`.
DriftJudgement judged(double raw, double drift) {
  const SampleComparison measured = compareSamples(around(1), around(raw), 0.05, 0.2);
  const SampleComparison corrected = compareSamples(around(1), around(raw / drift), 0.05, 0.2);
  return judgeAgainstDrift(measured, corrected, 0.2);
}

}  // namespace

TEST(Drift, EachTimedRunIsDividedByTheControlBesideIt) {
  EXPECT_EQ(correctedSamples({10, 20}, {2, 4}), (std::vector<double>{5, 5}));
  EXPECT_EQ(correctedSamples({10, 20, 30}, {2}), (std::vector<double>{5}));  // controls beside the first runs only
  EXPECT_TRUE(correctedSamples({10}, {2, 4}).empty());                       // more controls than runs
  EXPECT_TRUE(correctedSamples({10, 20}, {2, 0}).empty());                   // a control that did not run
}

TEST(Drift, AChangeThatOnlyFollowsTheHostIsWithinDrift) {
  // The whole new run ran 45% slower, the record with it: not a regression.
  const DriftJudgement j = judged(1.45, 1.45);
  EXPECT_EQ(j.call, DriftCall::within_drift);
  EXPECT_EQ(j.verdict, Change::unchanged_within_noise);
  EXPECT_NEAR(j.corrected_ratio, 1.0, 0.03);
  EXPECT_NEAR(j.drift, 1.45, 0.05);
}

TEST(Drift, AChangeBeyondTheDriftStaysARegression) {
  // 1.5 times the work on a host that ran 30% slower: 1.95 as measured, 1.5 once the drift is out.
  const DriftJudgement j = judged(1.95, 1.3);
  EXPECT_EQ(j.call, DriftCall::beyond_drift);
  EXPECT_EQ(j.verdict, Change::regressed);
  EXPECT_NEAR(j.corrected_ratio, 1.5, 0.05);
  // A drift under half the minimum effect is not worth naming.
  EXPECT_EQ(judged(1.5, 1.05).call, DriftCall::none);
  EXPECT_EQ(judged(1.5, 1.05).verdict, Change::regressed);
}

TEST(Drift, TheCorrectedRunsCanShowWhatAHostLendingOneCoreOrTwoHid) {
  // A third of the new run's timed runs on two cores, the rest on one (0.8 or 1.5 times the old): the
  // median moved by half, but as measured the runs overlap the old ones too much for the test; each
  // divided by its control (which saw the same cores) they do not.
  std::vector<double> old_runs, new_runs, old_controls, new_controls;
  for (int i = 0; i < 12; ++i) {
    const bool two_cores = i % 3 == 0;
    old_runs.push_back(1.0 + 0.001 * i);
    old_controls.push_back(2.0);
    new_runs.push_back((two_cores ? 0.55 : 1.0) * 1.5 * (1 + 0.001 * i));
    new_controls.push_back(two_cores ? 1.1 : 2.0);
  }
  const SampleComparison measured = compareSamples(old_runs, new_runs, 0.05, 0.2);
  const SampleComparison corrected =
      compareSamples(correctedSamples(old_runs, old_controls), correctedSamples(new_runs, new_controls), 0.05, 0.2);
  EXPECT_EQ(measured.verdict, Change::unchanged_within_noise);
  EXPECT_GT(measured.ratio.ratio, 1.4);
  const DriftJudgement j = judgeAgainstDrift(measured, corrected, 0.2);
  EXPECT_EQ(j.verdict, Change::regressed);
}

TEST(Drift, ADriftThatHidesAChangeMakesTheRecordInconclusive) {
  // The old run's host was 35% slower: the record measures the same, though it now does 1.5 times the work.
  const DriftJudgement hidden = judged(1.0, 0.68);
  EXPECT_EQ(hidden.call, DriftCall::hidden_by_drift);
  EXPECT_EQ(hidden.verdict, Change::unchanged_within_noise);
  // An improvement that is only the host: within drift, not an improvement.
  EXPECT_EQ(judged(0.7, 0.7).call, DriftCall::within_drift);
  EXPECT_EQ(judged(0.7, 0.7).verdict, Change::unchanged_within_noise);
  // Nothing moved either way.
  EXPECT_EQ(judged(1.0, 1.02).call, DriftCall::none);
  // 23% faster as measured, 51% slower once corrected: whether the record follows the host decides,
  // and nothing within one run says it.
  EXPECT_EQ(judged(0.77, 0.51).call, DriftCall::hidden_by_drift);
  EXPECT_EQ(judged(0.77, 0.51).verdict, Change::unchanged_within_noise);
}

TEST(Drift, AControlSeenToFollowTheRecordDecides) {
  // Runs of two speeds (one core or two) as measured, of one once corrected: the control follows.
  const std::vector<double> bimodal = {1.0, 0.55, 1.0, 0.55, 1.0, 0.55, 1.0, 0.56};
  const std::vector<double> gathered = {0.6, 0.6, 0.61, 0.6, 0.6, 0.59, 0.6, 0.6};
  EXPECT_TRUE(controlTracks(bimodal, around(1), gathered, around(0.6), 0.2));
  // Runs of one speed: nothing to follow, so nothing seen.
  EXPECT_FALSE(controlTracks(around(1), around(1), around(0.6), around(0.6), 0.2));
  // A record the cores do not move, beside a control they do: the correction only adds the spread.
  EXPECT_FALSE(controlTracks(around(1), around(1), bimodal, bimodal, 0.2));
  // Seen to follow, the corrected comparison decides, whatever the measured one says.
  const SampleComparison measured = compareSamples(around(1), around(0.8), 0.05, 0.2);
  const SampleComparison corrected = compareSamples(around(1), around(1.5), 0.05, 0.2);
  EXPECT_EQ(judgeAgainstDrift(measured, corrected, 0.2, true).verdict, Change::regressed);
  EXPECT_EQ(judgeAgainstDrift(measured, corrected, 0.2, false).verdict, Change::unchanged_within_noise);
}
