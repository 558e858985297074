// The JSON edge of the config echo in a results file (docs/results-schema.md, "config"): the run
// settings and the studies as the batch read them.
#include <string_view>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/input_errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json modeNames(const std::vector<RunMode>& modes) {
  json out = json::array();
  for (RunMode mode : modes) out.push_back(modeName(mode));
  return out;
}

std::vector<RunMode> modesFromJson(const json& object, std::string_view key) {
  std::vector<RunMode> modes;
  for (const std::string& name : textList(object, key))
    if (const auto mode = parseMode(name)) modes.push_back(*mode);
  return modes;
}

}  // namespace

json toJson(const BatchConfig& config) {
  const RunSettings& r = config.run;
  json kernels = json::array();
  for (const auto& k : r.kernels) kernels.push_back(k.string());
  json studies = json::array();
  for (const auto& s : config.studies) {
    json params = json::object();
    for (const auto& [name, values] : s.params) params[name] = values;
    for (const SizeRuleSpec& rule : s.size_rules) params[rule.param] = toJson(rule);
    json study = {{"family", s.family}, {"variants", s.variants}, {"params", params}, {"modes", modeNames(s.modes)}};
    // Only for studies that ask for end-to-end runs, so that older results re-write unchanged.
    if (!s.end_to_end.empty()) {
      json strategies = json::array();
      for (EndToEndStrategy strategy : s.end_to_end) strategies.push_back(toString(strategy));
      study["end_to_end"] = strategies;
      study["overlap_chunks"] = s.overlap_chunks;
    }
    studies.push_back(study);
  }
  json run = {{"device", r.device},
              {"repetitions", r.repetitions},
              {"warmup", r.warmup},
              {"modes", modeNames(r.modes)},
              {"counters", toString(r.counters)},
              {"reference_model", r.reference_model},
              {"ceilings", toString(r.ceilings)},
              {"out", r.out},
              {"formats", r.formats},
              {"kernels", kernels},
              {"variant_time_limit_s", r.variant_time_limit_s},
              {"seed", r.seed}};
  // Only when not the default, so that older results re-write unchanged.
  if (r.device_mode != DeviceMode::compare) run["device_mode"] = toString(r.device_mode);
  if (r.line_sampling != LineSamplingSetting::originals) run["line_sampling"] = toString(r.line_sampling);
  if (r.noise_target_known) {
    run["max_noise"] = r.max_noise;
    run["min_time"] = r.min_time_s;
    run["max_time"] = r.max_time_s;
  }
  json out = {{"path", config.path}, {"run", run}, {"study", studies}, {"text", config.text}};
  // Only for a config with a capture, so that older results re-write unchanged.
  if (config.capture) out["capture"] = {{"folder", config.capture->folder}};
  return out;
}

BatchConfig batchConfigFromJson(const json& j) {
  BatchConfig config;
  config.path = textOr(j, "path");
  config.text = textOr(j, "text");
  const json& run = objectOrEmpty(j, "run");
  RunSettings& r = config.run;
  r.device = textOr(run, "device", r.device);
  r.device_mode = parseDeviceMode(textOr(run, "device_mode", toString(r.device_mode))).value_or(r.device_mode);
  r.repetitions = integerOr<int>(run, "repetitions", r.repetitions);
  r.warmup = integerOr<int>(run, "warmup", r.warmup);
  if (member(run, "modes") != nullptr) r.modes = modesFromJson(run, "modes");
  r.counters = parseCountersSetting(textOr(run, "counters", toString(r.counters))).value_or(r.counters);
  r.line_sampling =
      parseLineSamplingSetting(textOr(run, "line_sampling", toString(r.line_sampling))).value_or(r.line_sampling);
  r.reference_model = textOr(run, "reference_model", r.reference_model);
  r.ceilings = parseCeilingsSource(textOr(run, "ceilings", toString(r.ceilings))).value_or(r.ceilings);
  r.out = textOr(run, "out", r.out);
  if (member(run, "formats") != nullptr) r.formats = textList(run, "formats");
  for (const std::string& folder : textList(run, "kernels")) r.kernels.emplace_back(folder);
  r.variant_time_limit_s = numberOr(run, "variant_time_limit_s", r.variant_time_limit_s);
  r.seed = integerOr<std::uint64_t>(run, "seed", r.seed);
  r.noise_target_known = member(run, "max_noise") != nullptr;
  r.max_noise = numberOr(run, "max_noise", r.max_noise);
  r.min_time_s = numberOr(run, "min_time", r.min_time_s);
  r.max_time_s = numberOr(run, "max_time", r.max_time_s);
  if (const json* studies = member(j, "study"); studies != nullptr && studies->is_array())
    for (const json& s : *studies) {
      StudySpec study;
      study.family = textOr(s, "family");
      if (member(s, "variants") != nullptr) study.variants = textList(s, "variants");
      for (const auto& [name, values] : objectOrEmpty(s, "params").items()) {
        if (values.is_object()) {
          study.size_rules.push_back(sizeRuleFromJson(name, values));
          continue;
        }
        std::vector<double> numbers;
        if (values.is_array())
          for (const json& value : values)
            if (value.is_number()) numbers.push_back(value.get<double>());
        study.params.emplace_back(name, std::move(numbers));
      }
      study.modes = modesFromJson(s, "modes");
      for (const std::string& name : textList(s, "end_to_end"))
        if (const auto strategy = parseEndToEndStrategy(name)) study.end_to_end.push_back(*strategy);
      if (const json* chunks = member(s, "overlap_chunks"); chunks != nullptr && chunks->is_array())
        for (const json& count : *chunks)
          if (count.is_number_integer()) study.overlap_chunks.push_back(count.get<int>());
      config.studies.push_back(std::move(study));
    }
  if (const std::optional<std::string> folder = optionalText(objectOrEmpty(j, "capture"), "folder"))
    config.capture = CaptureSpec{*folder, {}};
  return config;
}

}  // namespace rooflab
