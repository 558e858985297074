#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/stats.hpp"

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
