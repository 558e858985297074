#include "analyzer/stats/stopping_rule.hpp"

#include "analyzer/support/enum_names.hpp"

#include <algorithm>
#include <stdexcept>

#include "analyzer/stats/stats.hpp"

namespace rooflab {

constexpr EnumName<StopDecision> kStopDecisionNames[] = {
    {StopDecision::keep_going, "keep_going"},
    {StopDecision::converged, "converged"},
    {StopDecision::budget_exhausted, "budget_exhausted"},
};

std::string toString(StopDecision decision) { return nameOf(kStopDecisionNames, decision); }

std::optional<StopDecision> parseStopDecision(std::string_view text) { return valueOf(kStopDecisionNames, text); }

StopCheck checkStop(const std::vector<double>& samples, double elapsed_s, const NoiseTarget& target) {
  if (target.max_noise < 0) throw std::invalid_argument("noise target: max_noise must not be negative");
  if (!(target.confidence > 0 && target.confidence < 1))
    throw std::invalid_argument("noise target: confidence must be in (0, 1)");
  if (target.max_repetitions != 0 && target.max_repetitions < target.min_repetitions)
    throw std::invalid_argument("noise target: max_repetitions below min_repetitions");

  StopCheck check;
  if (!samples.empty()) check.noise = medianNoise(medianInterval(samples, target.confidence));
  const std::size_t floor = std::max<std::size_t>(1, target.min_repetitions);
  if (samples.size() < floor) return check;
  if (check.noise && *check.noise <= target.max_noise && elapsed_s >= target.min_time_s) {
    check.decision = StopDecision::converged;
  } else if (elapsed_s >= target.max_time_s ||
             (target.max_repetitions != 0 && samples.size() >= target.max_repetitions)) {
    check.decision = StopDecision::budget_exhausted;
  }
  return check;
}

}  // namespace rooflab
