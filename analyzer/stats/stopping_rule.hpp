#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// When to stop repeating a measurement: nvbench's noise target (nvbench/detail/stdrel_criterion.cxx
// and measure_cold.cu: at least min-samples and min-time, then stop once the noise is under
// --max-noise, or at --timeout). nvbench's noise is the relative standard deviation of the samples;
// rooflab reports medians, so its noise is the relative half-width of the median's distribution-free
// confidence interval (medianInterval), which shrinks as repetitions accumulate and ignores a few
// outliers. nvbench's second rule (stop once the noise itself has stopped changing) is left to the
// time budget.
struct NoiseTarget {
  std::size_t min_repetitions = 5;  // a floor: the budget never cuts a measurement below it
  std::size_t max_repetitions = 0;  // 0: no cap besides the time budget
  double max_noise = 0.01;          // relative half-width of the median's interval
  double confidence = 0.95;         // of that interval
  double min_time_s = 0;            // keep measuring at least this long, even when quiet
  double max_time_s = 1;            // the budget: stop measuring after this long
};

enum class StopDecision {
  keep_going,        // fewer than min_repetitions, or noisy within budget
  converged,         // the noise is at or under max_noise (after min_repetitions and min_time_s)
  budget_exhausted,  // max_time_s or max_repetitions reached with the noise still above target
};
std::string toString(StopDecision decision);
std::optional<StopDecision> parseStopDecision(std::string_view text);

struct StopCheck {
  StopDecision decision = StopDecision::keep_going;
  // The noise of the samples so far; absent while they are too few for the interval to reach its
  // confidence (at 95%: under 6), or when the median is 0.
  std::optional<double> noise;
};

// `samples` are the measurements so far (times or rates: the median's interval is the same either
// way); `elapsed_s` is the time spent measuring them. Throws std::invalid_argument on a target that
// cannot be met (max_noise < 0, confidence outside (0, 1), max_repetitions below min_repetitions).
StopCheck checkStop(const std::vector<double>& samples, double elapsed_s, const NoiseTarget& target);

}  // namespace rooflab
