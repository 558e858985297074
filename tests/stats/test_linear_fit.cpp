// The line fit behind the host link's latency + bytes / bandwidth (analyzer/stats/linear_fit.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "analyzer/stats/linear_fit.hpp"

using namespace rooflab;

TEST(LinearFit, RecoversAnExactLine) {
  // 10 us of latency and 8 GB/s: 0.125 ns per byte.
  std::vector<LineSample> samples;
  for (double bytes : {4096.0, 65536.0, 1048576.0, 16777216.0}) samples.push_back({bytes, 10'000 + bytes / 8});
  const LineFit fit = fitLineRelative(samples);
  EXPECT_NEAR(fit.intercept, 10'000, 1e-6);
  EXPECT_NEAR(fit.slope, 0.125, 1e-12);
  EXPECT_NEAR(fit.max_relative_residual, 0, 1e-12);
  EXPECT_EQ(fit.samples, 4u);
  EXPECT_FALSE(fit.intercept_clamped);
  EXPECT_FALSE(fit.slope_clamped);
}

TEST(LinearFit, RelativeWeightsKeepTheSmallSizesThatFixTheLatency) {
  // The largest size is 2% slow: unweighted least squares would pull the intercept negative; on
  // relative residuals the small sizes keep it near the 5 us they show.
  const std::vector<LineSample> samples = {
      {4096, 5'000 + 4096}, {65536, 5'000 + 65536}, {1 << 24, 1.02 * (5'000 + (1 << 24))}};
  const LineFit fit = fitLineRelative(samples);
  EXPECT_GT(fit.intercept, 4'000);
  EXPECT_LT(fit.intercept, 6'000);
  EXPECT_NEAR(fit.slope, 1.02, 0.01);
}

TEST(LinearFit, ANegativeInterceptOrSlopeIsHeldAtZero) {
  const LineFit through_origin = fitLineRelative({{1, 0.5}, {2, 2.0}, {4, 4.4}});
  EXPECT_TRUE(through_origin.intercept_clamped);
  EXPECT_EQ(through_origin.intercept, 0);
  EXPECT_GT(through_origin.slope, 0);

  // A time that falls as the size grows: no slope, the level of the samples.
  const LineFit flat = fitLineRelative({{4096, 3'000}, {1 << 20, 2'900}, {1 << 24, 2'800}});
  EXPECT_TRUE(flat.slope_clamped);
  EXPECT_EQ(flat.slope, 0);
  EXPECT_NEAR(flat.intercept, 2'900, 100);
}

TEST(LinearFit, OneSizeGivesAFlatLine) {
  const LineFit fit = fitLineRelative({{1024, 7}, {1024, 9}});
  EXPECT_EQ(fit.slope, 0);
  EXPECT_GT(fit.intercept, 7);
  EXPECT_LT(fit.intercept, 9);
}

TEST(LinearFit, RejectsNoSamplesAndNonsense) {
  EXPECT_THROW(fitLineRelative({}), std::invalid_argument);
  EXPECT_THROW(fitLineRelative({{1, -1}}), std::invalid_argument);
  EXPECT_THROW(fitLineRelative({{std::nan(""), 1}}), std::invalid_argument);
}
