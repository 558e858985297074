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

TEST(Drift, AChangeThatOnlyFollowsTheHostIsWithinDrift) {
  // The whole new run ran 45% slower, the record with it: not a regression.
  const DriftJudgement j = judgeAgainstDrift(1.45, Change::regressed, 1.45, 0.2);
  EXPECT_EQ(j.call, DriftCall::within_drift);
  EXPECT_EQ(j.verdict, Change::unchanged_within_noise);
  EXPECT_NEAR(j.corrected_ratio, 1.0, 1e-9);
}

TEST(Drift, AChangeBeyondTheDriftStaysARegression) {
  // 1.5 times the work on a host that ran 10% slower: 1.65 as measured, 1.5 once the drift is out.
  const DriftJudgement j = judgeAgainstDrift(1.65, Change::regressed, 1.1, 0.2);
  EXPECT_EQ(j.verdict, Change::regressed);
  EXPECT_NEAR(j.corrected_ratio, 1.5, 1e-9);
  // A drift under half the minimum effect is left out of it: the test alone decides.
  EXPECT_EQ(judgeAgainstDrift(1.5, Change::regressed, 1.05, 0.2).call, DriftCall::none);
  EXPECT_EQ(judgeAgainstDrift(1.65, Change::regressed, 1.3, 0.2).call, DriftCall::beyond_drift);
}

TEST(Drift, ADriftThatHidesAChangeMakesTheRecordInconclusive) {
  // The old run's host was 35% slower: the record measures the same, though it now does 1.5 times the work.
  const DriftJudgement hidden = judgeAgainstDrift(1.02, Change::unchanged_within_noise, 0.68, 0.2);
  EXPECT_EQ(hidden.call, DriftCall::hidden_by_drift);
  EXPECT_EQ(hidden.verdict, Change::unchanged_within_noise);
  // An improvement that is only the host: within drift, not an improvement.
  EXPECT_EQ(judgeAgainstDrift(0.7, Change::improved, 0.7, 0.2).call, DriftCall::within_drift);
  // Nothing moved either way.
  EXPECT_EQ(judgeAgainstDrift(1.0, Change::unchanged_within_noise, 1.02, 0.2).call, DriftCall::none);
}
