#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace rooflab {

// Robust summary of repeated measurements. cv is the coefficient of variation (sample standard
// deviation over mean); 0 for a single sample.
struct SampleSummary {
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double cv = 0;
  std::size_t count = 0;
};

SampleSummary summarize(std::vector<double> samples);  // throws std::invalid_argument when empty

// A distribution-free confidence interval of the median: two order statistics of the sorted
// samples, [x_(j), x_(n+1-j)], with the largest j whose coverage reaches the requested confidence.
// The coverage is exact and needs no assumption on the distribution (binomial method: the count of
// samples below the true median is Binomial(n, 1/2)); see Conover, "Practical Nonparametric
// Statistics", 3rd ed., section 3.2. Being made of samples, the interval carries over unchanged
// through any monotone transform (a time interval gives the rate interval as work / time).
struct MedianInterval {
  double median = 0;
  double lower = 0;
  double upper = 0;
  std::size_t lower_rank = 0;  // 1-based ranks of lower and upper in the sorted samples
  std::size_t upper_rank = 0;
  double requested_confidence = 0.95;
  // Probability that [lower, upper] holds the true median. Below the request when the samples are
  // too few for any interval to reach it (at 95%: fewer than 6); the interval is then [min, max].
  double confidence = 0;
  bool reaches_confidence = false;
  // (upper - lower) / (2 |median|): the "noise" of the median as a fraction of it; absent when the
  // median is 0.
  std::optional<double> relative_half_width;
};

// Throws std::invalid_argument when `samples` is empty or `confidence` is not inside (0, 1).
MedianInterval medianInterval(std::vector<double> samples, double confidence = 0.95);

// The noise a stopping rule may trust: the relative half-width when the interval reaches its
// requested confidence, else absent (too few samples to say).
std::optional<double> medianNoise(const MedianInterval& interval);

}  // namespace rooflab
