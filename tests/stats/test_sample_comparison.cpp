// Two-sample comparison of repetitions (analyzer/sample_comparison.hpp) on fixed samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "analyzer/stats/sample_comparison.hpp"

using namespace rooflab;

namespace {

// p-value by enumerating every split of the pooled values into the two sample sizes: the
// definition of the exact two-sided test, for samples without ties.
double bruteForceTwoSidedP(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const std::size_t m = a.size(), total = pooled.size();
  auto u_of = [&](unsigned mask) {
    double u = 0;
    for (std::size_t i = 0; i < total; ++i)
      for (std::size_t j = 0; j < total; ++j)
        if ((mask >> i & 1) && !(mask >> j & 1) && pooled[i] > pooled[j]) u += 1;
    return u;
  };
  const unsigned observed = (1u << m) - 1;
  const double u = u_of(observed), mn = double(m) * double(total - m);
  const double tail_u = std::min(u, mn - u);
  double splits = 0, extreme = 0;
  for (unsigned mask = 0; mask < (1u << total); ++mask) {
    if (std::size_t(__builtin_popcount(mask)) != m) continue;
    splits += 1;
    if (u_of(mask) <= tail_u) extreme += 1;
  }
  return std::min(1.0, 2 * extreme / splits);
}

}  // namespace

TEST(StatsComparison, ExactPValuesOfSeparatedSamples) {
  // All of one sample below the other: P(U = 0) = 1 / C(m+n, m), doubled for two sides.
  MannWhitneyResult r = mannWhitneyU({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_DOUBLE_EQ(r.p_value, 2.0 / 20);
  r = mannWhitneyU({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(r.u, 25);
  EXPECT_DOUBLE_EQ(r.p_value, 2.0 / 252);
}

// The floor of the exact test: what separated samples give, and nothing below 0.05 for 3 + 3.
TEST(StatsComparison, SmallestExactPValueIsThatOfSeparatedSamples) {
  EXPECT_DOUBLE_EQ(smallestExactPValue(3, 3), mannWhitneyU({1, 2, 3}, {4, 5, 6}).p_value);
  EXPECT_DOUBLE_EQ(smallestExactPValue(5, 5), 2.0 / 252);
  EXPECT_DOUBLE_EQ(smallestExactPValue(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(smallestExactPValue(1, 1), 1.0);
  EXPECT_EQ(smallestExactPValue(21, 5), 0.0);  // the normal approximation: no floor
}

TEST(StatsComparison, ExactPValueMatchesEnumeration) {
  const std::vector<double> a = {1.1, 3.5, 2.2, 7.0, 4.4};
  const std::vector<double> b = {2.5, 5.1, 6.3, 8.8, 9.9, 0.4};
  const MannWhitneyResult r = mannWhitneyU(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 10);  // pairs a > b: 1.1>0.4, 3.5>{2.5,0.4}, 2.2>0.4, 7.0>{2.5,5.1,6.3,0.4}, 4.4>{2.5,0.4}
  EXPECT_NEAR(r.p_value, bruteForceTwoSidedP(a, b), 1e-12);
  EXPECT_DOUBLE_EQ(mannWhitneyU({1, 2, 3}, {1.5, 2.5, 3.5}).p_value, 0.7);  // U = 3 of 9: 14 of 20 splits as extreme
}

// Reference values from the textbook normal approximation (mean mn/2, variance
// mn/12 ((N+1) - sum(t^3 - t) / (N(N-1))), continuity correction 1/2), computed separately.
TEST(StatsComparison, NormalApproximationWithTies) {
  MannWhitneyResult r = mannWhitneyU({1, 2, 2, 3, 3, 4, 5, 5}, {3, 4, 4, 5, 6, 6, 7, 8, 8});
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 10);
  EXPECT_NEAR(r.p_value, 0.01326378017864828, 1e-12);
  r = mannWhitneyU({10.1, 10.3, 10.2, 10.2, 10.4, 10.3, 10.1, 10.2, 10.3, 10.2, 10.2, 10.4},
                   {10.5, 10.4, 10.6, 10.5, 10.5, 10.7, 10.4, 10.6, 10.5, 10.6});
  EXPECT_DOUBLE_EQ(r.u, 2);
  EXPECT_NEAR(r.p_value, 0.00012055117812224524, 1e-12);
  // Every value equal: nothing to tell them apart.
  EXPECT_DOUBLE_EQ(mannWhitneyU({3, 3, 3}, {3, 3}).p_value, 1.0);
  EXPECT_THROW(mannWhitneyU({}, {1}), std::invalid_argument);
}

TEST(StatsComparison, MedianRatioIntervalIsDeterministicAndHoldsTheRatio) {
  const std::vector<double> old_run = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
  const std::vector<double> new_run = {120, 121, 119, 122, 118, 120, 121, 119, 120, 123};
  const RatioInterval first = medianRatioInterval(old_run, new_run);
  const RatioInterval again = medianRatioInterval(old_run, new_run);
  EXPECT_DOUBLE_EQ(first.ratio, 1.2);
  EXPECT_DOUBLE_EQ(first.lower, again.lower);
  EXPECT_DOUBLE_EQ(first.upper, again.upper);
  EXPECT_LE(first.lower, first.ratio);
  EXPECT_GE(first.upper, first.ratio);
  // Resampled medians stay within the samples' ranges: 118/102 .. 123/98.
  EXPECT_GE(first.lower, 118.0 / 102);
  EXPECT_LE(first.upper, 123.0 / 98);
  EXPECT_GT(first.lower, 1.1);
  EXPECT_THROW(medianRatioInterval({0, 0, 0}, {1}), std::invalid_argument);
}

namespace {

// The percentile bootstrap as written plainly: draw generator() % size values of each sample, copy,
// take their medians. medianRatioInterval must give exactly its numbers, however it computes them.
std::pair<double, double> plainBootstrap(const std::vector<double>& old_run, const std::vector<double>& new_run) {
  auto median = [](std::vector<double> v) {
    const std::size_t n = v.size();
    std::nth_element(v.begin(), v.begin() + n / 2, v.end());
    const double upper = v[n / 2];
    return n % 2 ? upper : 0.5 * (*std::max_element(v.begin(), v.begin() + n / 2) + upper);
  };
  std::mt19937_64 generator(0x726f6f666c6162);
  std::vector<double> old_draw(old_run.size()), new_draw(new_run.size()), ratios;
  for (int r = 0; r < 2000; ++r) {
    for (double& x : old_draw) x = old_run[generator() % old_run.size()];
    for (double& x : new_draw) x = new_run[generator() % new_run.size()];
    if (median(old_draw) > 0) ratios.push_back(median(new_draw) / median(old_draw));
  }
  std::sort(ratios.begin(), ratios.end());
  auto quantile = [&](double q) {
    const double at = q * double(ratios.size() - 1);
    const std::size_t below = static_cast<std::size_t>(at), above = std::min(ratios.size() - 1, below + 1);
    return ratios[below] + (at - double(below)) * (ratios[above] - ratios[below]);
  };
  const double ratio = median(new_run) / median(old_run);
  return {std::min(ratio, quantile(0.025)), std::max(ratio, quantile(0.975))};
}

}  // namespace

// Odd and even sizes, one value, ties, sizes that are not powers of two, a thousand repetitions.
TEST(StatsComparison, MedianRatioIntervalGivesThePlainBootstrapsNumbers) {
  std::mt19937_64 values(7);
  auto sample = [&](std::size_t n, double centre, int spread) {
    std::vector<double> v(n);
    for (double& x : v) x = centre + static_cast<double>(values() % static_cast<std::uint64_t>(spread));
    return v;
  };
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
      {sample(10, 1000, 50), sample(10, 1030, 50)},
      {sample(7, 1000, 3), sample(12, 990, 3)},
      {{5}, {6}},
      {sample(3, 10, 1), sample(4, 11, 1)},
      {sample(1000, 1e6, 1000), sample(999, 1.01e6, 1000)},
      {sample(21, 1000, 40), sample(2, 900, 40)}};
  for (const auto& [old_run, new_run] : cases) {
    const RatioInterval interval = medianRatioInterval(old_run, new_run);
    const auto [lower, upper] = plainBootstrap(old_run, new_run);
    EXPECT_EQ(interval.lower, lower) << old_run.size() << " + " << new_run.size();
    EXPECT_EQ(interval.upper, upper) << old_run.size() << " + " << new_run.size();
  }
}

TEST(StatsComparison, VerdictNeedsSignificanceAndEffect) {
  const std::vector<double> base = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
  // 20% slower, every repetition: regressed.
  SampleComparison c = compareSamples(base, {120, 121, 119, 122, 118, 120, 121, 119, 120, 123});
  EXPECT_EQ(c.verdict, Change::regressed);
  EXPECT_LT(c.p_value, 0.001);
  EXPECT_EQ(c.old_count, 10u);
  EXPECT_EQ(c.new_count, 10u);
  // The same samples as rates: higher is better, so it is an improvement.
  c = compareSamples(base, {120, 121, 119, 122, 118, 120, 121, 119, 120, 123}, 0.05, 0.05, Better::higher);
  EXPECT_EQ(c.verdict, Change::improved);
  // Significant but tiny (2%): within noise for a 5% minimum effect.
  c = compareSamples(base, {102, 103, 101, 102, 104, 100.5, 102, 103, 101, 102});
  EXPECT_LT(c.p_value, 0.05);
  EXPECT_EQ(c.verdict, Change::unchanged_within_noise);
  // Large but not significant: two runs 2x apart in their medians, spread over the same range.
  c = compareSamples({100, 300, 100, 300, 100}, {300, 100, 300, 100, 300});
  EXPECT_GE(c.p_value, 0.05);
  EXPECT_DOUBLE_EQ(c.ratio.ratio, 3.0);
  EXPECT_EQ(c.verdict, Change::unchanged_within_noise);
  // Two repetitions each can never reach p < 0.05 (the smallest exact p is 1/3).
  c = compareSamples({100, 101}, {200, 201});
  EXPECT_DOUBLE_EQ(c.p_value, 1.0 / 3);
  EXPECT_EQ(c.verdict, Change::unchanged_within_noise);
}

TEST(StatsComparison, ChangeNames) {
  EXPECT_EQ(toString(Change::regressed), "regressed");
  EXPECT_EQ(toString(Change::improved), "improved");
  EXPECT_EQ(toString(Change::unchanged_within_noise), "unchanged_within_noise");
}
