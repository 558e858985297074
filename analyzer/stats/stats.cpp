#include "analyzer/stats/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rooflab {

SampleSummary summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples.begin(), samples.end());
  SampleSummary s;
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  const std::size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n > 1 && s.mean != 0) {
    double sq = 0;
    for (double x : samples) sq += (x - s.mean) * (x - s.mean);
    s.cv = std::sqrt(sq / static_cast<double>(n - 1)) / std::fabs(s.mean);
  }
  return s;
}

namespace {

// P(B = k) for B ~ Binomial(n, 1/2), through logarithms so that n in the thousands neither
// overflows the binomial coefficient nor underflows 2^-n.
double binomialHalfPmf(std::size_t n, std::size_t k) {
  const double log_choose = std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1);
  return std::exp(log_choose - double(n) * std::log(2.0));
}

}  // namespace

MedianInterval medianInterval(std::vector<double> samples, double confidence) {
  if (samples.empty()) throw std::invalid_argument("medianInterval: no samples");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("medianInterval: confidence must be in (0, 1)");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();

  MedianInterval out;
  out.requested_confidence = confidence;
  out.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  // [x_(j), x_(n+1-j)] misses the median when at most j-1 samples fall below it or at most j-1 above:
  // coverage(j) = 1 - 2 P(B <= j-1). Grow j while the narrower interval still reaches `confidence`.
  std::size_t j = 1;
  double tail = binomialHalfPmf(n, 0);  // P(B <= j-1)
  double coverage = 1 - 2 * tail;
  while (2 * (j + 1) <= n + 1) {
    const double next_tail = tail + binomialHalfPmf(n, j);
    const double next_coverage = 1 - 2 * next_tail;
    if (next_coverage < confidence) break;
    ++j;
    tail = next_tail;
    coverage = next_coverage;
  }
  out.lower_rank = j;
  out.upper_rank = n + 1 - j;
  out.lower = samples[out.lower_rank - 1];
  out.upper = samples[out.upper_rank - 1];
  out.confidence = std::max(0.0, coverage);
  // Rounding in the sum must not turn an exact 95% into a miss.
  out.reaches_confidence = out.confidence >= confidence - 1e-12;
  if (out.median != 0) out.relative_half_width = (out.upper - out.lower) / (2 * std::fabs(out.median));
  return out;
}

std::optional<double> medianNoise(const MedianInterval& interval) {
  if (!interval.reaches_confidence) return std::nullopt;
  return interval.relative_half_width;
}

}  // namespace rooflab
