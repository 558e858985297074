#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/stats/stats.hpp"

using namespace rooflab;

TEST(Stats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(summarize({5, 1, 3}).median, 3);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(Stats, MinMaxMeanAndCv) {
  const SampleSummary s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  // sample standard deviation sqrt(32/7)
  EXPECT_NEAR(s.cv, std::sqrt(32.0 / 7.0) / 5.0, 1e-12);
  EXPECT_EQ(s.count, 8u);
}

TEST(Stats, SingleSampleHasZeroCv) {
  const SampleSummary s = summarize({42});
  EXPECT_DOUBLE_EQ(s.median, 42);
  EXPECT_DOUBLE_EQ(s.cv, 0);
}

TEST(Stats, EmptyIsAnError) { EXPECT_THROW(summarize({}), std::invalid_argument); }

// Ranks and coverages of the binomial method, as in the published tables (e.g. Conover, table A3:
// n = 20 gives the 6th and 15th order statistics, n = 100 the 40th and 61st at 95%).
TEST(StatsMedianInterval, OrderStatisticsMatchTheBinomialTables) {
  struct Case {
    std::size_t n, lower_rank, upper_rank;
    double coverage;
  };
  for (const Case& c : {Case{6, 1, 6, 0.96875}, Case{10, 2, 9, 0.978515625}, Case{20, 6, 15, 0.9586105346679688},
                        Case{100, 40, 61, 0.9647997997822952}, Case{1000, 469, 532, 0.9537088026395019}}) {
    SCOPED_TRACE(c.n);
    std::vector<double> samples;
    for (std::size_t i = c.n; i >= 1; --i) samples.push_back(double(i));  // unsorted on purpose
    const MedianInterval interval = medianInterval(samples);
    EXPECT_EQ(interval.lower_rank, c.lower_rank);
    EXPECT_EQ(interval.upper_rank, c.upper_rank);
    EXPECT_DOUBLE_EQ(interval.lower, double(c.lower_rank));
    EXPECT_DOUBLE_EQ(interval.upper, double(c.upper_rank));
    EXPECT_NEAR(interval.confidence, c.coverage, 1e-9);
    EXPECT_TRUE(interval.reaches_confidence);
    EXPECT_DOUBLE_EQ(interval.median, (double(c.n) + 1) / 2);
  }
}

TEST(StatsMedianInterval, NoiseIsTheRelativeHalfWidth) {
  // n = 10: the 2nd and 9th values, 98 and 104, around a median of 100.
  const MedianInterval interval = medianInterval({97, 98, 99, 99.5, 100, 100, 101, 102, 104, 130});
  EXPECT_DOUBLE_EQ(interval.median, 100);
  EXPECT_DOUBLE_EQ(interval.lower, 98);
  EXPECT_DOUBLE_EQ(interval.upper, 104);
  ASSERT_TRUE(interval.relative_half_width.has_value());
  EXPECT_DOUBLE_EQ(*interval.relative_half_width, 0.03);
  EXPECT_EQ(medianNoise(interval), interval.relative_half_width);
}

TEST(StatsMedianInterval, TooFewSamplesGiveMinToMaxBelowTheRequestedConfidence) {
  const MedianInterval five = medianInterval({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(five.lower, 1);
  EXPECT_DOUBLE_EQ(five.upper, 5);
  EXPECT_DOUBLE_EQ(five.confidence, 0.9375);  // 1 - 2/32
  EXPECT_FALSE(five.reaches_confidence);
  EXPECT_FALSE(medianNoise(five).has_value());
  // A lower confidence is reachable with the same five samples: 0.9375 >= 0.9.
  EXPECT_TRUE(medianInterval({5, 1, 4, 2, 3}, 0.9).reaches_confidence);

  const MedianInterval one = medianInterval({7});
  EXPECT_DOUBLE_EQ(one.lower, 7);
  EXPECT_DOUBLE_EQ(one.upper, 7);
  EXPECT_DOUBLE_EQ(one.confidence, 0);
  EXPECT_FALSE(one.reaches_confidence);
}

TEST(StatsMedianInterval, ZeroMedianHasNoRelativeWidthAndBadInputThrows) {
  EXPECT_FALSE(medianInterval({-1, 0, 0, 0, 0, 0, 1}).relative_half_width.has_value());
  EXPECT_THROW(medianInterval({}), std::invalid_argument);
  EXPECT_THROW(medianInterval({1, 2}, 1.0), std::invalid_argument);
  EXPECT_THROW(medianInterval({1, 2}, 0.0), std::invalid_argument);
}
