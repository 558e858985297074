// The noise-target stopping rule (analyzer/stopping_rule.hpp) on fixed sample sets.
#include <gtest/gtest.h>

#include <vector>

#include "analyzer/stats/stopping_rule.hpp"

using namespace rooflab;

namespace {

NoiseTarget target() {
  NoiseTarget t;
  t.min_repetitions = 5;
  t.max_noise = 0.01;
  t.min_time_s = 0.1;
  t.max_time_s = 1.0;
  return t;
}

// Ten samples whose median's 95% interval (2nd and 9th values) is 100 +- `spread` percent.
std::vector<double> tenSamples(double spread) {
  return {50, 100 - spread, 100, 100, 100, 100, 100, 100, 100 + spread, 200};
}

}  // namespace

TEST(StatsStoppingRule, KeepsGoingBelowTheMinimumRepetitionsEvenPastTheBudget) {
  const StopCheck check = checkStop({100, 100, 100, 100}, 5.0, target());
  EXPECT_EQ(check.decision, StopDecision::keep_going);
}

TEST(StatsStoppingRule, QuietSamplesConvergeOnceTheMinimumTimeHasPassed) {
  const std::vector<double> quiet = tenSamples(0.5);  // noise 0.005
  EXPECT_EQ(checkStop(quiet, 0.05, target()).decision, StopDecision::keep_going);
  const StopCheck check = checkStop(quiet, 0.2, target());
  EXPECT_EQ(check.decision, StopDecision::converged);
  ASSERT_TRUE(check.noise.has_value());
  EXPECT_DOUBLE_EQ(*check.noise, 0.005);
}

TEST(StatsStoppingRule, NoisySamplesKeepGoingUntilTheBudgetIsSpent) {
  const std::vector<double> noisy = tenSamples(5);  // noise 0.05
  EXPECT_EQ(checkStop(noisy, 0.5, target()).decision, StopDecision::keep_going);
  const StopCheck check = checkStop(noisy, 1.0, target());
  EXPECT_EQ(check.decision, StopDecision::budget_exhausted);
  EXPECT_DOUBLE_EQ(*check.noise, 0.05);
}

TEST(StatsStoppingRule, FiveIdenticalSamplesCannotYetClaimA95PercentInterval) {
  // Five samples reach only 93.75% coverage: the rule waits for the sixth.
  const StopCheck five = checkStop({100, 100, 100, 100, 100}, 0.5, target());
  EXPECT_EQ(five.decision, StopDecision::keep_going);
  EXPECT_FALSE(five.noise.has_value());
  EXPECT_EQ(checkStop({100, 100, 100, 100, 100, 100}, 0.5, target()).decision, StopDecision::converged);
}

TEST(StatsStoppingRule, RepetitionCapEndsAMeasurement) {
  NoiseTarget capped = target();
  capped.max_repetitions = 10;
  EXPECT_EQ(checkStop(tenSamples(5), 0.5, capped).decision, StopDecision::budget_exhausted);
  capped.max_repetitions = 3;  // below the floor
  EXPECT_THROW(checkStop(tenSamples(5), 0.5, capped), std::invalid_argument);
}

TEST(StatsStoppingRule, DecisionNames) {
  EXPECT_EQ(toString(StopDecision::keep_going), "keep_going");
  EXPECT_EQ(toString(StopDecision::converged), "converged");
  EXPECT_EQ(toString(StopDecision::budget_exhausted), "budget_exhausted");
}
