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

// A sample ready for resampling: a resample draws indices into the sample as given (the draws, and
// so the interval, are those of the plain loop that copies the drawn values and takes their median),
// but the drawn values' median is found by counting draws per rank of the sorted sample: no copy, no
// allocation and no partial sort per resample. Equal values share a value, so which of them a rank
// stands for does not change the median.
class Resampler {
 public:
  explicit Resampler(const std::vector<double>& sample)
      : sorted_(sample), rank_(sample.size()), counts_(sample.size()) {
    std::vector<std::size_t> order(sample.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sample[a] < sample[b]; });
    for (std::size_t r = 0; r < order.size(); ++r) {
      rank_[order[r]] = r;
      sorted_[r] = sample[order[r]];
    }
    // generator() % size, computed without a 64-bit division (Lemire, Kaser and Kurz, "Faster
    // remainder by direct computation", 2019): exact for every 64-bit draw.
    const unsigned __int128 all_ones = ~static_cast<unsigned __int128>(0);
    size_ = sample.size();
    inverse_ = all_ones / size_ + 1;
  }

  // The median of one resample of the sample's size: the same value median() gives for the drawn values.
  template <class Generator>
  double medianOfResample(Generator& generator) {
    std::fill(counts_.begin(), counts_.end(), 0);
    for (std::size_t i = 0; i < size_; ++i) ++counts_[rank_[remainder(generator())]];
    const std::size_t upper = size_ / 2;  // the drawn values' rank of median() (n odd), or the upper of two
    std::size_t seen = 0, r = 0;
    double below = 0;
    for (;; ++r) {
      if (size_ % 2 == 0 && seen < upper && seen + counts_[r] >= upper) below = sorted_[r];
      seen += counts_[r];
      if (seen > upper) break;
    }
    return size_ % 2 ? sorted_[r] : 0.5 * (below + sorted_[r]);
  }

 private:
  std::size_t remainder(std::uint64_t draw) const {
    const unsigned __int128 low = inverse_ * draw;  // modulo 2^128
    const unsigned __int128 d = size_;
    const unsigned __int128 bottom = ((low & ~std::uint64_t{0}) * d) >> 64;
    return static_cast<std::size_t>(((low >> 64) * d + bottom) >> 64);
  }
  std::vector<double> sorted_;
  std::vector<std::size_t> rank_;
  std::vector<std::uint32_t> counts_;
  std::uint64_t size_ = 0;
  unsigned __int128 inverse_ = 0;
};

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
  const double variance = pairs / 12 * ((double(total) + 1) - tie_term / (double(total) * (double(total) - 1)));
  if (variance <= 0) return result;  // every value equal: no evidence of a difference
  const double z = std::max(0.0, std::fabs(result.u - pairs / 2) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

double smallestExactPValue(std::size_t m, std::size_t n) {
  if (m > 20 || n > 20) return 0;
  double orderings = 1;
  for (std::size_t i = 1; i <= std::min(m, n); ++i)
    orderings = orderings * double(m + n - std::min(m, n) + i) / double(i);
  return std::min(1.0, 2 / orderings);
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
  // Each resample draws generator() % size for every value of the old sample, then of the new one,
  // and takes the medians of the drawn values. `rooflab diff` does this for every record of two
  // files, so it is done without copies (Resampler).
  Resampler old_resampler(old_samples), new_resampler(new_samples);
  std::vector<double> ratios;
  ratios.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    const double denominator = old_resampler.medianOfResample(generator);
    const double numerator = new_resampler.medianOfResample(generator);
    if (denominator > 0) ratios.push_back(numerator / denominator);
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
