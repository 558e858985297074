#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rooflab {

// Comparing two runs' repetitions of one measurement, as google/benchmark's tools/compare.py does
// (tools/gbench/report.py: a two-sided Mann-Whitney U test on the repetitions of both runs, with a
// significance level alpha), plus the ratio of medians with an interval and a minimum effect, so
// that a change is reported only when it is both significant and large enough to matter.

// Two-sided Mann-Whitney U test (Wilcoxon rank-sum test). u counts the pairs (a_i, b_j) with
// a_i > b_j, ties counting one half. Without ties and with both samples of at most 20 values, the
// p-value is exact (the permutation distribution of U, counted by the recurrence of Mann and
// Whitney 1947); otherwise it is the normal approximation with the tie correction of the variance
// and a continuity correction of 1/2 (as scipy.stats.mannwhitneyu's asymptotic method).
struct MannWhitneyResult {
  double u = 0;
  double p_value = 1;
  bool exact = false;
};
MannWhitneyResult mannWhitneyU(const std::vector<double>& a,
                               const std::vector<double>& b);  // throws on an empty sample

// The smallest two-sided p-value the exact test can give m + n values: every value of one sample
// below every value of the other, 2 / C(m + n, m). 0 above 20 a side, where the normal
// approximation has no such floor worth telling. Whether any change of so few repetitions can be
// significant at all.
double smallestExactPValue(std::size_t m, std::size_t n);

// median(new) / median(old) with a percentile bootstrap interval (Efron and Tibshirani, "An
// Introduction to the Bootstrap", chapter 13): each resample draws both samples anew with
// replacement. The generator is seeded, and its draws are mapped to indices without
// std::uniform_int_distribution (whose output differs between standard libraries), so the same
// inputs give the same interval everywhere.
struct RatioInterval {
  double ratio = 1;
  double lower = 1;
  double upper = 1;
  double confidence = 0.95;
};
// Throws std::invalid_argument when a sample is empty or median(old) is not positive.
RatioInterval medianRatioInterval(const std::vector<double>& old_samples, const std::vector<double>& new_samples,
                                  double confidence = 0.95, std::size_t resamples = 2000,
                                  std::uint64_t seed = 0x726f6f666c6162);

enum class Change { regressed, improved, unchanged_within_noise };
std::string toString(Change change);

// Which way is better: times (lower) or rates (higher).
enum class Better { lower, higher };

struct SampleComparison {
  Change verdict = Change::unchanged_within_noise;
  double p_value = 1;
  bool exact_test = false;
  RatioInterval ratio;  // median(new) / median(old)
  std::size_t old_count = 0;
  std::size_t new_count = 0;
};

// A change counts only when the test is significant (p_value < alpha) and the effect is larger than
// min_effect (|ratio - 1| > min_effect); anything else is unchanged_within_noise.
SampleComparison compareSamples(const std::vector<double>& old_samples, const std::vector<double>& new_samples,
                                double alpha = 0.05, double min_effect = 0.05, Better better = Better::lower);

}  // namespace rooflab
