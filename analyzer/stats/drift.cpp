#include "analyzer/stats/drift.hpp"

#include <algorithm>
#include <cmath>

#include "analyzer/stats/stats.hpp"

namespace rooflab {
namespace {

std::vector<double> positive(const std::vector<double>& values) {
  std::vector<double> kept;
  for (double v : values)
    if (std::isfinite(v) && v > 0) kept.push_back(v);
  return kept;
}

double quantile(std::vector<double> sorted_values, double q) {
  std::sort(sorted_values.begin(), sorted_values.end());
  const double position = q * double(sorted_values.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(sorted_values.size() - 1, below + 1);
  return sorted_values[below] + (position - double(below)) * (sorted_values[above] - sorted_values[below]);
}

// 90th over 10th percentile, minus 1: robust to the one control a stray process hit.
double spread(const std::vector<double>& values) {
  if (values.size() < 3) return 0;
  return quantile(values, 0.9) / quantile(values, 0.1) - 1;
}

Change changeOf(double ratio, double min_effect) {
  if (ratio > 1 + min_effect) return Change::regressed;
  if (ratio < 1 - min_effect) return Change::improved;
  return Change::unchanged_within_noise;
}

}  // namespace

std::optional<RunDrift> runDrift(const std::vector<double>& old_controls_ns,
                                 const std::vector<double>& new_controls_ns) {
  const std::vector<double> old_kept = positive(old_controls_ns), new_kept = positive(new_controls_ns);
  if (old_kept.empty() || new_kept.empty()) return std::nullopt;
  RunDrift drift;
  drift.ratio = summarize(new_kept).median / summarize(old_kept).median;
  drift.old_spread = spread(old_kept);
  drift.new_spread = spread(new_kept);
  drift.old_count = old_kept.size();
  drift.new_count = new_kept.size();
  return drift;
}

bool driftIsLarge(const RunDrift& drift, double min_effect) {
  return std::fabs(drift.ratio - 1) > min_effect || drift.old_spread > min_effect || drift.new_spread > min_effect;
}

std::string toString(DriftCall call) {
  switch (call) {
    case DriftCall::none: return "none";
    case DriftCall::beyond_drift: return "beyond drift";
    case DriftCall::within_drift: return "within drift";
    case DriftCall::hidden_by_drift: return "hidden by drift";
  }
  return "none";
}

std::vector<double> correctedSamples(const std::vector<double>& kernel_ns, const std::vector<double>& control_ns) {
  std::vector<double> corrected;
  if (control_ns.empty() || control_ns.size() > kernel_ns.size()) return corrected;
  for (std::size_t i = 0; i < control_ns.size(); ++i) {
    if (!(control_ns[i] > 0) || !std::isfinite(control_ns[i])) return {};
    corrected.push_back(kernel_ns[i] / control_ns[i]);
  }
  return corrected;
}

namespace {

double relativeSpread(const std::vector<double>& values) {
  if (values.size() < 4) return 0;
  const double median = quantile(values, 0.5);
  return median > 0 ? (quantile(values, 0.75) - quantile(values, 0.25)) / median : 0;
}

}  // namespace

bool controlTracks(const std::vector<double>& old_raw, const std::vector<double>& new_raw,
                   const std::vector<double>& old_corrected, const std::vector<double>& new_corrected,
                   double min_effect) {
  const double raw = std::max(relativeSpread(old_raw), relativeSpread(new_raw));
  const double corrected = std::max(relativeSpread(old_corrected), relativeSpread(new_corrected));
  return raw > min_effect / 2 && corrected < raw / 2;
}

DriftJudgement judgeAgainstDrift(const SampleComparison& raw, const SampleComparison& corrected, double min_effect,
                                 bool tracks) {
  DriftJudgement j;
  j.verdict = raw.verdict;
  j.corrected_ratio = corrected.ratio.ratio;
  if (!(j.corrected_ratio > 0) || !std::isfinite(j.corrected_ratio)) return j;
  j.drift = raw.ratio.ratio / j.corrected_ratio;
  const bool drifted = std::fabs(j.drift - 1) > min_effect / 2;
  if (tracks) {
    j.verdict = corrected.verdict;
    if (j.verdict != Change::unchanged_within_noise) j.call = drifted ? DriftCall::beyond_drift : DriftCall::none;
    else if (raw.verdict != Change::unchanged_within_noise) j.call = DriftCall::within_drift;
    return j;
  }
  const Change raw_effect = changeOf(raw.ratio.ratio, min_effect);
  const Change corrected_effect = changeOf(j.corrected_ratio, min_effect);
  // The ratio's interval is at 1 - alpha (compareSamples): the alpha both comparisons were made with.
  const bool significant = raw.p_value < 1 - raw.ratio.confidence || corrected.p_value < 1 - corrected.ratio.confidence;
  if (significant && raw_effect != Change::unchanged_within_noise && raw_effect == corrected_effect) {
    j.verdict = raw_effect;
    j.call = drifted ? DriftCall::beyond_drift : DriftCall::none;
    return j;
  }
  j.verdict = Change::unchanged_within_noise;
  if (raw.verdict != Change::unchanged_within_noise && corrected_effect == Change::unchanged_within_noise)
    j.call = DriftCall::within_drift;
  else if (raw.verdict != Change::unchanged_within_noise || corrected.verdict != Change::unchanged_within_noise)
    j.call = DriftCall::hidden_by_drift;
  return j;
}

}  // namespace rooflab
