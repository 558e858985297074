// The checks of two whole runs that compareRuns makes before it compares their points.
#include <vector>

#include "analyzer/diagnose/run_comparison.hpp"

namespace rooflab {
namespace {

// Every control kernel median of a run, one per record that timed it.
std::vector<double> controlMediansNs(const ResultsDocument& run) {
  std::vector<double> medians_ns;
  for (const RunRecord& record : run.records)
    if (record.drift_control) medians_ns.push_back(record.drift_control->median_ns);
  return medians_ns;
}

}  // namespace

std::optional<RunDrift> driftBetween(const ResultsDocument& old_run, const ResultsDocument& new_run,
                                     std::vector<ComparisonWarning>& warnings) {
  if (!old_run.drift_control || !new_run.drift_control) return std::nullopt;
  if (old_run.drift_control->kernel != new_run.drift_control->kernel) {
    warnings.push_back(OtherControlKernels{old_run.drift_control->kernel, new_run.drift_control->kernel});
    return std::nullopt;
  }
  return runDrift(controlMediansNs(old_run), controlMediansNs(new_run));
}

// The batch identity's measurement settings (analyzer/batch/batch_identity.hpp).
std::optional<OtherSettings> settingsDifference(const ResultsDocument& old_run, const ResultsDocument& new_run) {
  if (!old_run.config || !new_run.config) return std::nullopt;
  const RunSettings& a = old_run.config->run;
  const RunSettings& b = new_run.config->run;
  OtherSettings other{{}, a, b};
  const std::pair<MeasurementSetting, bool> settings[] = {
      {MeasurementSetting::repetitions, a.repetitions != b.repetitions},
      {MeasurementSetting::warmup, a.warmup != b.warmup},
      {MeasurementSetting::max_noise, a.max_noise != b.max_noise},
      {MeasurementSetting::min_time, a.min_time_s != b.min_time_s},
      {MeasurementSetting::max_time, a.max_time_s != b.max_time_s},
      {MeasurementSetting::counters, a.counters != b.counters},
      {MeasurementSetting::seed, a.seed != b.seed}};
  for (const auto& [setting, differs] : settings)
    if (differs) other.differing.push_back(setting);
  if (other.differing.empty()) return std::nullopt;
  return other;
}

void warnAboutNoise(const ResultsDocument& run, RunSide side, std::vector<ComparisonWarning>& warnings) {
  if (run.noisy_host) warnings.push_back(NoisyHost{side, *run.noisy_host});
  std::size_t missed = 0;
  for (const RunRecord& record : run.records)
    if (record.timings && record.timings->kernel_ns_interval && !record.timings->kernel_ns_interval->converged)
      ++missed;
  if (missed > 0) warnings.push_back(MissedNoiseTarget{side, missed});
}

}  // namespace rooflab
