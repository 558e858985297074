// The words of `rooflab diff` beside its table.
#include "reports/text/diff_text.hpp"

#include <variant>

#include "reports/text/host_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"

namespace rooflab::reports {
namespace {

std::string deviceText(const DeviceIdentity& device) { return "\"" + device.name + "\" (" + device.platform + ")"; }

std::string bothDevicesText(const OtherDevices& devices) {
  return "the runs were made on different devices: OLD ran on " + deviceText(devices.old_device) + ", NEW on " +
         deviceText(devices.new_device);
}

std::string joined(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string settingValueText(MeasurementSetting setting, const RunSettings& settings) {
  switch (setting) {
    case MeasurementSetting::repetitions: return std::to_string(settings.repetitions);
    case MeasurementSetting::warmup: return std::to_string(settings.warmup);
    case MeasurementSetting::max_noise: return settingText(settings.max_noise);
    case MeasurementSetting::min_time: return settingText(settings.min_time_s);
    case MeasurementSetting::max_time: return settingText(settings.max_time_s);
    case MeasurementSetting::counters: return toString(settings.counters);
    case MeasurementSetting::seed: return std::to_string(settings.seed);
  }
  return "";
}

// "repetitions 5 in OLD, 40 in NEW"
std::string settingsText(const OtherSettings& settings) {
  std::string text;
  for (const MeasurementSetting setting : settings.differing)
    text += (text.empty() ? "" : ", ") + toString(setting) + " " + settingValueText(setting, settings.old_settings) +
            " in OLD, " + settingValueText(setting, settings.new_settings) + " in NEW";
  return text;
}

std::string driftText(const RunDrift& drift) {
  return "the runs drifted: NEW's control kernel ran " + signedPercent(drift.ratio - 1) +
         " against OLD's (medians of " + std::to_string(drift.new_count) + " and " + std::to_string(drift.old_count) +
         " control runs; within OLD they spread " + formatFixed(drift.old_spread * 100, 0) + "%, within NEW " +
         formatFixed(drift.new_spread * 100, 0) +
         "%): a change no larger than the drift beside it is not called a regression; to compare where the host is "
         "noisy, run both in one batch (rooflab ab)";
}

std::string missedTargetText(const MissedNoiseTarget& missed) {
  const bool one = missed.records == 1;
  return std::to_string(missed.records) + (one ? " record" : " records") + " of " + toString(missed.side) +
         " did not meet the noise target: " + (one ? "its median is" : "their medians are") +
         " less certain than the others'";
}

std::string emptyRunsText(const EmptyRuns& runs) {
  std::string text;
  for (const auto& [side, status] : runs.empty)
    text +=
        std::string(text.empty() ? "" : "; ") + toString(side) + " has 0 records (status: " + toString(status) + ")";
  return text;
}

}  // namespace

std::string signedPercent(double change) { return (change > 0 ? "+" : "") + formatFixed(change * 100.0, 1) + "%"; }

// 0.05 -> "0.05", 20 -> "20", 95.00000000000001 -> "95": a setting as the user typed it.
std::string settingText(double value) {
  std::string text = formatSignificant(value, 4);
  if (text.find('.') != std::string::npos && text.find('e') == std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string pointParamsText(const PointKey& key) { return paramsText(key.params, key.param_order); }

std::string pointKeyText(const PointKey& key) {
  const std::string params = pointParamsText(key);
  return key.family + "/" + key.variant + (params.empty() ? "" : " " + params) + " (" + modeName(key.mode) +
         (key.what_if ? " " + *key.what_if : "") + ")";
}

std::string warningText(const ComparisonWarning& warning) {
  if (const auto* devices = std::get_if<OtherDevices>(&warning)) return bothDevicesText(*devices);
  if (const auto* settings = std::get_if<OtherSettings>(&warning))
    return "the runs were measured with other settings (" + settingsText(*settings) +
           "): a change may be the settings', not the code's";
  if (const auto* kernels = std::get_if<OtherControlKernels>(&warning))
    return "the runs timed other control kernels (OLD: " + kernels->old_kernel + ", NEW: " + kernels->new_kernel +
           "): their drift is not known";
  if (const auto* duplicate = std::get_if<DuplicatePoint>(&warning))
    return std::string(duplicate->side == RunSide::old_run ? "the old run" : "the new run") + " holds " +
           pointKeyText(duplicate->key) + " twice; the first is compared";
  if (const auto* drift = std::get_if<LargeDrift>(&warning)) return driftText(drift->drift);
  if (const auto* noisy = std::get_if<NoisyHost>(&warning))
    return toString(noisy->side) + " ran on a noisy host: " + hostNoiseText(noisy->condition);
  return missedTargetText(std::get<MissedNoiseTarget>(warning));
}

std::string refusalText(const ComparisonRefusal& refusal) {
  if (const auto* devices = std::get_if<OtherDevices>(&refusal))
    return bothDevicesText(*devices) +
           "; their timings say nothing about a change of the code (--allow-other-device compares them anyway)";
  if (const auto* runs = std::get_if<EmptyRuns>(&refusal)) return "nothing to compare: " + emptyRunsText(*runs);
  if (const auto* families = std::get_if<NoFamilyInCommon>(&refusal))
    return "nothing to compare: no family in common: OLD holds " + joined(families->old_families) + ", NEW holds " +
           joined(families->new_families);
  const NoPointInCommon& points = std::get<NoPointInCommon>(refusal);
  return "nothing to compare: no record of OLD has the (family, variant, params, mode) of one in NEW: OLD has " +
         pointKeyText(points.old_example) + ", NEW has " + pointKeyText(points.new_example) + ", ...";
}

}  // namespace rooflab::reports
