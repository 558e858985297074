#include "reports/text/config_text.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>

#include <toml++/toml.h>

namespace rooflab {
namespace {

toml::array textArray(const std::vector<std::string>& texts) {
  toml::array array;
  for (const std::string& text : texts) array.push_back(text);
  return array;
}

toml::array modeArray(const std::vector<RunMode>& modes) {
  toml::array array;
  for (RunMode mode : modes) array.push_back(modeName(mode));
  return array;
}

// A param's value as a config writes it: N = 256, not 256.0.
toml::array numberArray(const std::vector<double>& values) {
  toml::array array;
  for (double value : values) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9007199254740992.0)  // 2^53
      array.push_back(static_cast<std::int64_t>(value));
    else array.push_back(value);
  }
  return array;
}

toml::table runTable(const RunSettings& run) {
  toml::array kernels;
  for (const auto& folder : run.kernels) kernels.push_back(folder.string());
  toml::table table{{"device", run.device},
                    {"repetitions", run.repetitions},
                    {"warmup", run.warmup},
                    {"modes", modeArray(run.modes)},
                    {"counters", toString(run.counters)},
                    {"reference_model", run.reference_model},
                    {"ceilings", toString(run.ceilings)},
                    {"out", run.out},
                    {"formats", textArray(run.formats)},
                    {"kernels", std::move(kernels)},
                    {"variant_time_limit_s", run.variant_time_limit_s},
                    {"seed", static_cast<std::int64_t>(run.seed)}};
  // As the results' echo: only when not the default, so that earlier reports render unchanged.
  if (run.device_mode != DeviceMode::compare) table.insert("device_mode", toString(run.device_mode));
  if (run.line_sampling != LineSamplingSetting::originals) table.insert("line_sampling", toString(run.line_sampling));
  if (run.noise_target_known) {
    table.insert("max_noise", run.max_noise);
    table.insert("min_time", run.min_time_s);
    table.insert("max_time", run.max_time_s);
  }
  return table;
}

// N = { rule = "fill", waves = 4, ... }: every key, the defaults included, so that the report says
// what the rule asked for.
toml::table sizeRuleTable(const SizeRuleSpec& rule) {
  toml::table table{{"rule", rule.rule},
                    {"waves", rule.waves},
                    {"min_kernel_us", rule.min_kernel_us},
                    {"memory_fraction", rule.memory_fraction}};
  if (rule.min) table.insert("min", *rule.min);
  if (rule.max) table.insert("max", *rule.max);
  if (rule.sweep_from) {
    table.insert("sweep_from", *rule.sweep_from);
    table.insert("sweep_factor", rule.sweep_factor);
  }
  table.is_inline(true);
  return table;
}

toml::table studyTable(const StudySpec& study) {
  toml::table params;
  for (const auto& [name, values] : study.params) params.insert(name, numberArray(values));
  for (const SizeRuleSpec& rule : study.size_rules) params.insert(rule.param, sizeRuleTable(rule));
  params.is_inline(true);  // params = { N = [256, 512] }, as configs write it
  toml::table table{{"family", study.family}, {"variants", textArray(study.variants)}, {"params", std::move(params)}};
  if (!study.modes.empty()) table.insert("modes", modeArray(study.modes));
  if (!study.end_to_end.empty()) {
    toml::array strategies, chunks;
    for (EndToEndStrategy strategy : study.end_to_end) strategies.push_back(toString(strategy));
    for (int count : study.overlap_chunks) chunks.push_back(count);
    table.insert("end_to_end", std::move(strategies));
    if (!chunks.empty()) table.insert("overlap_chunks", std::move(chunks));
  }
  return table;
}

}  // namespace

std::string configTomlText(const BatchConfig& config) {
  toml::array studies;
  for (const StudySpec& study : config.studies) studies.push_back(studyTable(study));
  toml::table root{{"run", runTable(config.run)}};
  if (!studies.empty()) root.insert("study", std::move(studies));
  // Basic (double-quoted) strings as the configs use; floats as people write them (0.03, not
  // 0.029999999999999999): the text is read, not parsed back.
  const auto flags = (toml::toml_formatter::default_flags & ~toml::format_flags::allow_literal_strings) |
                     toml::format_flags::relaxed_float_precision;
  std::ostringstream text;
  text << toml::toml_formatter(root, flags);
  return text.str();
}

}  // namespace rooflab
