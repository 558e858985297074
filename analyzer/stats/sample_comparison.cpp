#include "analyzer/stats/sample_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace rooflab {
namespace {

constexpr std::size_t kExactMaxSampleSize = 20;

// Number of orderings of m values of one sample and n of the other for each value of U, the count
// of (first, second) pairs in which the first is larger. The largest value of all is either from
// the first sample (it beats all n of the second: U gains n) or from the second (U gains nothing):
// count(m, n, u) = count(m-1, n, u-n) + count(m, n-1, u).
std::vector<double> exactUCounts(std::size_t m, std::size_t n) {
  std::vector<std::vector<std::vector<double>>> count(m + 1, std::vector<std::vector<double>>(n + 1));
  for (std::size_t i = 0; i <= m; ++i) {
    for (std::size_t j = 0; j <= n; ++j) {
      std::vector<double>& here = count[i][j];
      here.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        here[0] = 1;
        continue;
      }
      const std::vector<double>& first_largest = count[i - 1][j];
      const std::vector<double>& second_largest = count[i][j - 1];
      for (std::size_t u = 0; u < first_largest.size(); ++u) here[u + j] += first_largest[u];
      for (std::size_t u = 0; u < second_largest.size(); ++u) here[u] += second_largest[u];
    }
  }
  return count[m][n];
}

double median(std::vector<double> values) {
  const std::size_t n = values.size();
  std::nth_element(values.begin(), values.begin() + n / 2, values.end());
  const double upper = values[n / 2];
  if (n % 2) return upper;
  return 0.5 * (*std::max_element(values.begin(), values.begin() + n / 2) + upper);
}

double quantileOfSorted(const std::vector<double>& sorted, double q) {
  const double position = q * double(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(sorted.size() - 1, below + 1);
  const double weight = position - double(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

}  // namespace

MannWhitneyResult mannWhitneyU(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("Mann-Whitney U: a sample is empty");
  const std::size_t m = a.size(), n = b.size(), total = m + n;
  struct Value {
    double x;
    bool first;
  };
  std::vector<Value> all;
  all.reserve(total);
  for (double x : a) all.push_back({x, true});
  for (double x : b) all.push_back({x, false});
  std::sort(all.begin(), all.end(), [](const Value& l, const Value& r) { return l.x < r.x; });

  // Mid-ranks for ties; sum of t^3 - t over tie groups for the variance correction.
  double rank_sum_first = 0, tie_term = 0;
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j < total && all[j].x == all[i].x) ++j;
    const double tied = double(j - i);
    const double mid_rank = 0.5 * double(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k)
      if (all[k].first) rank_sum_first += mid_rank;
    tie_term += tied * tied * tied - tied;
    i = j;
  }
  MannWhitneyResult result;
  result.u = rank_sum_first - double(m) * double(m + 1) / 2;
  const double pairs = double(m) * double(n);

  if (tie_term == 0 && m <= kExactMaxSampleSize && n <= kExactMaxSampleSize) {
    const std::vector<double> counts = exactUCounts(m, n);
    const double orderings = std::accumulate(counts.begin(), counts.end(), 0.0);
    const auto tail_u = static_cast<std::size_t>(std::llround(std::min(result.u, pairs - result.u)));
    double tail = 0;
    for (std::size_t u = 0; u <= tail_u; ++u) tail += counts[u];
    result.p_value = std::min(1.0, 2 * tail / orderings);
    result.exact = true;
    return result;
  }
  const double variance =
      pairs / 12 * ((double(total) + 1) - tie_term / (double(total) * (double(total) - 1)));
  if (variance <= 0) return result;  // every value equal: no evidence of a difference
  const double z = std::max(0.0, std::fabs(result.u - pairs / 2) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

RatioInterval medianRatioInterval(const std::vector<double>& old_samples, const std::vector<double>& new_samples,
                                  double confidence, std::size_t resamples, std::uint64_t seed) {
  if (old_samples.empty() || new_samples.empty()) throw std::invalid_argument("median ratio: a sample is empty");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("median ratio: confidence must be in (0, 1)");
  const double old_median = median(old_samples);
  if (!(old_median > 0)) throw std::invalid_argument("median ratio: the old median is not positive");
  RatioInterval out;
  out.confidence = confidence;
  out.ratio = out.lower = out.upper = median(new_samples) / old_median;

  std::mt19937_64 generator(seed);  // its sequence is fixed by the C++ standard
  auto draw = [&generator](const std::vector<double>& from, std::vector<double>& into) {
    for (double& x : into) x = from[generator() % from.size()];
  };
  std::vector<double> old_draw(old_samples.size()), new_draw(new_samples.size()), ratios;
  ratios.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    draw(old_samples, old_draw);
    draw(new_samples, new_draw);
    const double denominator = median(old_draw);
    if (denominator > 0) ratios.push_back(median(new_draw) / denominator);
  }
  if (ratios.empty()) return out;
  std::sort(ratios.begin(), ratios.end());
  out.lower = std::min(out.ratio, quantileOfSorted(ratios, (1 - confidence) / 2));
  out.upper = std::max(out.ratio, quantileOfSorted(ratios, (1 + confidence) / 2));
  return out;
}

std::string toString(Change change) {
  switch (change) {
    case Change::regressed: return "regressed";
    case Change::improved: return "improved";
    case Change::unchanged_within_noise: return "unchanged_within_noise";
  }
  return "unknown";
}

SampleComparison compareSamples(const std::vector<double>& old_samples, const std::vector<double>& new_samples,
                                double alpha, double min_effect, Better better) {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("compareSamples: alpha must be in (0, 1)");
  if (min_effect < 0) throw std::invalid_argument("compareSamples: min_effect must not be negative");
  SampleComparison out;
  const MannWhitneyResult test = mannWhitneyU(old_samples, new_samples);
  out.p_value = test.p_value;
  out.exact_test = test.exact;
  out.ratio = medianRatioInterval(old_samples, new_samples, 1 - alpha);
  out.old_count = old_samples.size();
  out.new_count = new_samples.size();
  const double r = out.ratio.ratio;
  if (test.p_value < alpha && std::fabs(r - 1) > min_effect && r != 1) {
    const bool got_larger = r > 1;
    out.verdict = got_larger == (better == Better::lower) ? Change::regressed : Change::improved;
  }
  return out;
}

}  // namespace rooflab
