// The checks of two whole runs that `rooflab diff` makes before it compares their records.
#include "reports/text/diff_run_checks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyzer/stats/stats.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"

namespace rooflab::reports {

std::string signedPercent(double change) {
  return (change > 0 ? "+" : "") + formatFixed(change * 100.0, 1) + "%";
}

// 0.05 -> "0.05", 20 -> "20", 95.00000000000001 -> "95": a setting as the user typed it.
std::string settingText(double value) {
  std::string text = formatSignificant(value, 4);
  if (text.find('.') != std::string::npos && text.find('e') == std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

// What a run's own results say about how far its medians can be trusted: a noisy host, and
// records whose repetitions did not meet the noise target.
void warnAboutNoise(const ResultsDocument& run, const std::string& which, std::vector<std::string>& warnings) {
  if (run.noisy_host) warnings.push_back(which + " ran on a noisy host: " + *run.noisy_host);
  std::size_t missed = 0;
  for (const RunRecord& record : run.records)
    if (record.timings && record.timings->kernel_ns_interval && !record.timings->kernel_ns_interval->converged) ++missed;
  if (missed > 0)
    warnings.push_back(std::to_string(missed) + (missed == 1 ? " record" : " records") + " of " + which +
                       " did not meet the noise target: " + (missed == 1 ? "its median is" : "their medians are") +
                       " less certain than the others'");
}

// Every control kernel median of a run, one per record that timed it.
std::vector<double> controlMedians(const ResultsDocument& run) {
  std::vector<double> medians;
  for (const RunRecord& record : run.records)
    if (record.drift_control) medians.push_back(record.drift_control->median_ns);
  return medians;
}

// Both runs timed the same control kernel: nullopt otherwise (older results, other control shapes).
std::optional<RunDrift> driftBetween(const ResultsDocument& old_run, const ResultsDocument& new_run,
                                     std::vector<std::string>& warnings) {
  if (!old_run.drift_control || !new_run.drift_control) return std::nullopt;
  if (old_run.drift_control->kernel != new_run.drift_control->kernel) {
    warnings.push_back("the runs timed other control kernels (OLD: " + old_run.drift_control->kernel + ", NEW: " +
                       new_run.drift_control->kernel + "): their drift is not known");
    return std::nullopt;
  }
  return runDrift(controlMedians(old_run), controlMedians(new_run));
}

// The batch identity's measurement settings (analyzer/batch/batch_identity.hpp) the two runs' configs
// differ in, named: "repetitions 5 in OLD, 40 in NEW"; "" when they agree or a file names none.
std::string settingsDifference(const ResultsDocument& old_run, const ResultsDocument& new_run) {
  if (!old_run.config || !new_run.config) return "";
  const RunSettings& a = old_run.config->run;
  const RunSettings& b = new_run.config->run;
  const std::vector<std::tuple<const char*, std::string, std::string>> settings = {
      {"repetitions", std::to_string(a.repetitions), std::to_string(b.repetitions)},
      {"warmup", std::to_string(a.warmup), std::to_string(b.warmup)},
      {"max_noise", settingText(a.max_noise), settingText(b.max_noise)},
      {"min_time", settingText(a.min_time_s), settingText(b.min_time_s)},
      {"max_time", settingText(a.max_time_s), settingText(b.max_time_s)},
      {"counters", toString(a.counters), toString(b.counters)},
      {"seed", std::to_string(a.seed), std::to_string(b.seed)}};
  std::string text;
  for (const auto& [name, in_old, in_new] : settings)
    if (in_old != in_new) text += (text.empty() ? "" : ", ") + std::string(name) + " " + in_old + " in OLD, " + in_new + " in NEW";
  return text;
}

std::string driftWarning(const RunDrift& drift) {
  return "the runs drifted: NEW's control kernel ran " + signedPercent(drift.ratio - 1) + " against OLD's (medians of " +
         std::to_string(drift.new_count) + " and " + std::to_string(drift.old_count) + " control runs; within OLD they spread " +
         formatFixed(drift.old_spread * 100, 0) + "%, within NEW " + formatFixed(drift.new_spread * 100, 0) +
         "%): a change no larger than the drift beside it is not called a regression; to compare where the host is "
         "noisy, run both in one batch (rooflab ab)";
}

}  // namespace rooflab::reports
