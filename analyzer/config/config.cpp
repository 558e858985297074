#include "analyzer/config/config.hpp"

#include "rooflab_source_dir.hpp"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <fstream>
#include <sstream>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/input_errors.hpp"
#include "analyzer/config/toml_reader.hpp"
#include "embedded_default_config.hpp"

namespace fs = std::filesystem;

namespace rooflab {

bool globMatch(const std::string& pattern, const std::string& text) {
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

// Each unknown mode is an error of its own.
std::vector<RunMode> parseModes(const TomlReader& r, const std::string& key) {
  std::vector<RunMode> modes;
  const std::vector<std::string> names = r.optionalTextArray(key).value_or(std::vector<std::string>{});
  InputErrorList errors;
  for (const auto& name : names) {
    if (const auto mode = parseMode(name)) modes.push_back(*mode);
    else
      errors.add(r.error(key, "unknown mode '" + name + "' (expected normal, compute-only, memory-only or what-if)"));
  }
  if (names.empty()) errors.add(r.error(key, "must name at least one mode"));
  errors.throwIfAny();
  return modes;
}

// A noise or a time budget is a finite number above 0; min_time may be 0 (no minimum, its default).
void parseBoundedNumber(const TomlReader& r, const char* key, double& value, bool zero_allowed = false) {
  if (auto number = r.optionalNumber(key)) {
    if (!std::isfinite(*number) || *number < 0 || (*number == 0 && !zero_allowed))
      r.fail(key, zero_allowed ? "must be a finite number, 0 or above" : "must be a finite number above 0");
    value = *number;
  }
}

void parseNoiseTarget(const TomlReader& r, RunSettings& run, InputErrorList& errors) {
  const bool read = errors.attempt([&] { parseBoundedNumber(r, "max_noise", run.max_noise); }) &
                    errors.attempt([&] { parseBoundedNumber(r, "min_time", run.min_time_s, true); }) &
                    errors.attempt([&] { parseBoundedNumber(r, "max_time", run.max_time_s); });
  if (read && run.min_time_s > run.max_time_s)
    errors.add(r.error(r.has("min_time") ? "min_time" : "max_time", "min_time (" + std::to_string(run.min_time_s) +
                                                                        " s) must not exceed max_time (" +
                                                                        std::to_string(run.max_time_s) + " s)"));
}

// `device`: a selector, several joined by commas, or an array of selectors (kept joined by commas).
void readDevices(const TomlReader& r, RunSettings& run) {
  if (r.table().get_as<toml::array>("device") != nullptr) {
    const std::vector<std::string> selectors = *r.optionalTextArray("device");
    if (selectors.empty()) r.fail("device", "must name at least one device");
    run.device.clear();
    for (const std::string& selector : selectors) {
      if (selector.empty() || selector.find(',') != std::string::npos)
        r.fail("device",
               "each element must be one selector (auto, gpu, cpu, P:D, all or a name), not '" + selector + "'");
      run.device += (run.device.empty() ? "" : ",") + selector;
    }
  } else {
    run.device = r.optionalString("device").value_or(run.device);
  }
}

void readDeviceMode(const TomlReader& r, RunSettings& run) {
  if (const auto mode = r.optionalString("device_mode")) {
    const auto parsed = parseDeviceMode(*mode);
    if (!parsed) r.fail("device_mode", "must be compare or shard");
    run.device_mode = *parsed;
  }
}

// Beside `counters`, as the counters' other settings: their flags and environment variables are the
// fallbacks and overrides of these keys (the command line settles which wins).
void parseCountersSources(const TomlReader& r, RunSettings& run, InputErrorList& errors) {
  errors.attempt([&] {
    if (auto metrics = r.optionalTextArray("extra_metrics")) {
      for (const std::string& metric : *metrics)
        if (metric.empty() || metric.find_first_of(" \t,") != std::string::npos)
          r.fail("extra_metrics", "'" + metric +
                                      "' is not a metric name: one raw CUPTI metric per element (e.g. "
                                      "\"smsp__inst_executed.sum\")");
      run.extra_metrics = *metrics;
    }
  });
  errors.attempt([&] {
    if (auto library = r.optionalString("cupti_library")) {
      if (library->empty()) r.fail("cupti_library", "must name a libcupti file (a path, or a name the loader finds)");
      run.cupti_library = *library;
    }
  });
}

// counters, and line_sampling: which records the counters' PC-sampling pass samples.
void parseCountersChoices(const TomlReader& r, RunSettings& run, InputErrorList& errors) {
  errors.attempt([&] {
    if (const auto counters = r.optionalString("counters")) {
      const auto setting = parseCountersSetting(*counters);
      if (!setting) r.fail("counters", "must be auto, on or off");
      run.counters = *setting;
    }
  });
  errors.attempt([&] {
    if (const auto sampling = r.optionalString("line_sampling")) {
      const auto setting = parseLineSamplingSetting(*sampling);
      if (!setting) r.fail("line_sampling", "must be originals, all or off");
      run.line_sampling = *setting;
    }
  });
}

// Every key is read on its own: a config with three mistakes says all three.
void parseRun(const TomlReader& r, RunSettings& run, const fs::path& base_dir, InputErrorList& errors) {
  errors.attempt([&] {
    // Kept as written: clang-format would put the keys in two columns of eleven lines.
    // clang-format off
    r.rejectUnknownKeys({"device", "repetitions", "warmup", "modes", "counters", "reference_model", "out", "formats",
                         "kernels", "variant_time_limit_s", "seed", "ceilings", "max_noise", "min_time", "max_time",
                         "max_points", "device_mode", "extra_metrics", "cupti_library", "line_sampling"});
    // clang-format on
  });
  errors.attempt([&] { readDevices(r, run); });
  // What a batch on several devices does with them.
  errors.attempt([&] { readDeviceMode(r, run); });
  errors.attempt([&] {
    if (auto reps = r.optionalInteger("repetitions")) {
      if (*reps < 1 || *reps > 100000) r.fail("repetitions", "must be between 1 and 100000");
      run.repetitions = static_cast<int>(*reps);
    }
  });
  parseNoiseTarget(r, run, errors);
  errors.attempt([&] {
    if (auto warmup = r.optionalInteger("warmup")) {
      if (*warmup < 0 || *warmup > 10000) r.fail("warmup", "must be between 0 and 10000");
      run.warmup = static_cast<int>(*warmup);
    }
  });
  errors.attempt([&] {
    if (r.has("modes")) run.modes = parseModes(r, "modes");
  });
  parseCountersChoices(r, run, errors);
  parseCountersSources(r, run, errors);
  errors.attempt([&] { run.reference_model = r.optionalString("reference_model").value_or(run.reference_model); });
  errors.attempt([&] {
    if (const auto ceilings = r.optionalString("ceilings")) {
      const auto source = parseCeilingsSource(*ceilings);
      if (!source) r.fail("ceilings", "must be measure or datasheet");
      run.ceilings = *source;
    }
  });
  errors.attempt([&] { run.out = r.optionalString("out").value_or(run.out); });
  errors.attempt([&] {
    if (auto formats = r.optionalTextArray("formats")) {
      for (const auto& f : *formats)
        if (f != "html" && f != "png" && f != "json" && f != "csv")
          r.fail("formats", "unknown format '" + f + "' (expected html, png, json, csv)");
      run.formats = *formats;
    }
  });
  errors.attempt([&] {
    if (auto kernels = r.optionalTextArray("kernels")) {
      run.kernels.clear();
      for (const auto& k : *kernels) run.kernels.push_back(fs::absolute(base_dir / k).lexically_normal());
    }
  });
  errors.attempt([&] {
    if (auto limit = r.optionalNumber("variant_time_limit_s")) {
      if (*limit <= 0) r.fail("variant_time_limit_s", "must be positive");
      run.variant_time_limit_s = *limit;
    }
  });
  errors.attempt([&] {
    if (auto max_points = r.optionalInteger("max_points")) {
      if (*max_points < 1) r.fail("max_points", "must be at least 1");
      run.max_points = static_cast<std::size_t>(*max_points);
    }
  });
  errors.attempt([&] {
    if (auto seed = r.optionalInteger("seed")) run.seed = static_cast<std::uint64_t>(*seed);
  });
}

// One swept parameter: a number or an array of finite numbers.
std::vector<double> parseSweep(const TomlReader& pr, const std::string& name, const toml::node& node) {
  std::vector<double> values;
  if (node.is_integer() || node.is_floating_point()) {
    values.push_back(*node.value<double>());
  } else if (const toml::array* a = node.as_array()) {
    for (const auto& item : *a) {
      if (!item.is_integer() && !item.is_floating_point()) pr.fail(name, "values must be numbers");
      const double value = *item.value<double>();
      if (std::find(values.begin(), values.end(), value) != values.end())
        pr.fail(name, formatNumber(value) + " is listed twice: each value of a sweep runs once; list it once");
      values.push_back(value);
    }
    if (values.empty()) pr.fail(name, "must list at least one value");
  } else {
    pr.fail(name, "must be a number or an array of numbers, or a size rule (\"fill\", or { rule = \"fill\", ... })");
  }
  for (double value : values)
    if (!std::isfinite(value)) pr.fail(name, "must be a finite number (got " + formatNumber(value) + ")");
  return values;
}

// A sweep of more steps than this is a mistake: the sizes a rule rounds to lie at most 25% apart, so
// a factor that needs more steps only repeats sizes (the plan's sweep stops there too).
constexpr double kMostSweepSteps = 256;
// The largest size a rule chooses when it has no max (plan/size_rules.cpp: exact in a double).
constexpr double kLargestRuleSize = 9007199254740992.0;

// Why the rule's sweep would take too many steps from sweep_from up to the largest size it may
// choose ("" when it would not).
std::string sweepStepsProblem(const SizeRuleSpec& rule) {
  if (!rule.sweep_from || !(rule.sweep_factor > 1)) return "";
  const double top = rule.max.value_or(kLargestRuleSize);
  if (!(*rule.sweep_from < top)) return "";
  const double steps = std::ceil(std::log(top / *rule.sweep_from) / std::log(rule.sweep_factor));
  if (steps <= kMostSweepSteps) return "";
  const double least_factor = std::pow(top / *rule.sweep_from, 1 / kMostSweepSteps);
  return formatRoundTrip(rule.sweep_factor) + " would take " + formatNumber(steps) +
         " steps from sweep_from = " + formatNumber(*rule.sweep_from) + " to " +
         (rule.max ? "max = " : "the largest size, ") + formatNumber(top) + "; a sweep has at most " +
         formatNumber(kMostSweepSteps) + " steps: use a factor of at least " +
         formatNumber(std::ceil(least_factor * 1000) / 1000) + " (or a larger sweep_from, or a max)";
}

// A param given as a rule: `N = "fill"` or `N = { rule = "fill", waves = 4, ... }` (docs/config.md,
// "Size rules"). Every number is checked here; whether the family has the param, in the plan.
SizeRuleSpec parseSizeRule(const TomlReader& pr, const std::string& name, const toml::node& node) {
  SizeRuleSpec rule;
  rule.param = name;
  rule.where = pr.where(name);
  auto checkRuleName = [&](const std::string& text) {
    if (text != "fill")
      pr.fail(name, "must be a number or an array of numbers, or a size rule: unknown rule '" + text +
                        "' (expected \"fill\")");
  };
  if (const auto text = node.value_exact<std::string>()) {
    checkRuleName(*text);
    return rule;
  }
  const TomlReader r = pr.sub(*node.as_table(), pr.keyPath(name));
  InputErrorList errors;
  errors.attempt([&] {
    r.rejectUnknownKeys(
        {"rule", "waves", "min_kernel_us", "min", "max", "memory_fraction", "sweep_from", "sweep_factor"});
  });
  errors.attempt([&] { checkRuleName(r.requireString("rule")); });
  auto positive = [&](const char* key, double& value) {
    errors.attempt([&] {
      if (const auto number = r.optionalNumber(key)) {
        if (!std::isfinite(*number) || *number <= 0) r.fail(key, "must be a finite number above 0");
        value = *number;
      }
    });
  };
  auto optionalPositive = [&](const char* key, std::optional<double>& value) {
    double number = 0;
    if (!r.has(key)) return;
    positive(key, number);
    if (number > 0) value = number;
  };
  positive("waves", rule.waves);
  positive("min_kernel_us", rule.min_kernel_us);
  optionalPositive("min", rule.min);
  optionalPositive("max", rule.max);
  positive("memory_fraction", rule.memory_fraction);
  optionalPositive("sweep_from", rule.sweep_from);
  positive("sweep_factor", rule.sweep_factor);
  if (rule.memory_fraction > 1)
    errors.add(r.error("memory_fraction", "must be at most 1 (all of the device's memory)"));
  if (rule.sweep_factor <= 1 && r.has("sweep_factor")) errors.add(r.error("sweep_factor", "must be above 1"));
  else if (const std::string problem = sweepStepsProblem(rule); !problem.empty())
    errors.add(r.error("sweep_factor", problem));
  if (rule.min && rule.max && *rule.min > *rule.max)
    errors.add(
        r.error("min", "min (" + formatNumber(*rule.min) + ") must not exceed max (" + formatNumber(*rule.max) + ")"));
  errors.throwIfAny();
  return rule;
}

// end_to_end: true (every strategy; overlap where the family can be split) or a list of names;
// overlap_chunks: a count or a list of counts, each at least 1, for the overlap runs.
void parseEndToEnd(const TomlReader& r, StudySpec& s, InputErrorList& errors) {
  errors.attempt([&] {
    if (!r.has("end_to_end")) return;
    if (r.table().get("end_to_end")->is_boolean()) {
      const bool all = *r.optionalBool("end_to_end");
      if (all) s.end_to_end.assign(std::begin(kEndToEndStrategies), std::end(kEndToEndStrategies));
      s.end_to_end_all = all;
      return;
    }
    const std::vector<std::string> names = r.optionalTextArray("end_to_end").value_or(std::vector<std::string>{});
    if (names.empty())
      r.fail("end_to_end",
             "must be true or name at least one strategy (copy, map, use-host-ptr, alloc-host-ptr, overlap)");
    for (const std::string& name : names) {
      const auto strategy = parseEndToEndStrategy(name);
      if (!strategy)
        r.fail("end_to_end",
               "unknown strategy '" + name + "' (expected copy, map, use-host-ptr, alloc-host-ptr or overlap)");
      if (std::find(s.end_to_end.begin(), s.end_to_end.end(), *strategy) == s.end_to_end.end())
        s.end_to_end.push_back(*strategy);
    }
  });
  errors.attempt([&] {
    if (!r.has("overlap_chunks")) return;
    const toml::node& node = *r.table().get("overlap_chunks");
    std::vector<std::int64_t> counts;
    if (const auto one = node.value<std::int64_t>(); one && node.is_integer()) counts.push_back(*one);
    else if (const toml::array* array = node.as_array())
      for (const toml::node& item : *array) {
        if (!item.is_integer()) r.fail("overlap_chunks", "must be a whole number or a list of whole numbers");
        counts.push_back(*item.value<std::int64_t>());
      }
    else r.fail("overlap_chunks", "must be a whole number or a list of whole numbers");
    if (counts.empty()) r.fail("overlap_chunks", "must list at least one chunk count");
    for (std::int64_t count : counts) {
      if (count < 1 || count > 1024) r.fail("overlap_chunks", "each chunk count must be between 1 and 1024");
      if (std::find(s.overlap_chunks.begin(), s.overlap_chunks.end(), int(count)) == s.overlap_chunks.end())
        s.overlap_chunks.push_back(int(count));
    }
    if (std::find(s.end_to_end.begin(), s.end_to_end.end(), EndToEndStrategy::overlap) == s.end_to_end.end())
      r.fail("overlap_chunks", "is for overlap runs: add \"overlap\" to end_to_end");
  });
}

StudySpec parseStudy(const TomlReader& r, InputErrorList& errors) {
  errors.attempt([&] {
    r.rejectUnknownKeys({"family", "variants", "params", "modes", "end_to_end", "overlap_chunks"});
  });
  StudySpec s;
  s.where = r.where();
  errors.attempt([&] { s.family = r.requireString("family"); });
  errors.attempt([&] {
    if (auto variants = r.optionalTextArray("variants")) {
      if (variants->empty()) r.fail("variants", "must name at least one variant (or \"*\")");
      s.variants = *variants;
    }
  });
  const toml::table* params = nullptr;
  errors.attempt([&] { params = r.optionalTable("params"); });
  if (params != nullptr) {
    const TomlReader pr = r.sub(*params, r.keyPath("params"));
    for (const auto& [key, value] : *params) {
      const std::string name(key.str());
      // A reference of its own: a lambda may not capture a structured binding before C++20.
      const toml::node& node = value;
      if (node.is_string() || node.is_table())
        errors.attempt([&] { s.size_rules.push_back(parseSizeRule(pr, name, node)); });
      else errors.attempt([&] { s.params.emplace_back(name, parseSweep(pr, name, node)); });
    }
  }
  errors.attempt([&] {
    if (r.has("modes")) s.modes = parseModes(r, "modes");
  });
  parseEndToEnd(r, s, errors);
  return s;
}

// [capture] folder: the capture's folder, relative to the config; it must exist when the config is read.
CaptureSpec parseCapture(const TomlReader& r, const fs::path& base_dir, InputErrorList& errors) {
  errors.attempt([&] { r.rejectUnknownKeys({"folder"}); });
  CaptureSpec capture;
  capture.where = r.where();
  errors.attempt([&] {
    const std::string folder = r.requireString("folder");
    capture.where = r.where("folder");
    capture.folder = fs::absolute(base_dir / folder).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_directory(capture.folder, ec)) r.fail("folder", "no capture folder at " + capture.folder);
  });
  return capture;
}

}  // namespace

BatchConfig parseBatchConfig(std::string_view text, const std::string& name, const fs::path& base_dir) {
  const toml::table root = parseTomlText(text, name);
  TomlReader r(root, name);
  InputErrorList errors;
  errors.attempt([&] { r.rejectUnknownKeys({"run", "study", "capture"}); });
  BatchConfig config;
  config.path = name;
  config.text = std::string(text);
  // Without a `kernels` key, a `kernels/` folder beside the config is still searched, as before the
  // built-in families were always on the search path, but only when it exists: a config elsewhere
  // that studies only built-in families needs no folder of its own.
  const fs::path beside = fs::absolute(base_dir / "kernels").lexically_normal();
  std::error_code ec;
  if (fs::is_directory(beside, ec)) config.run.kernels = {beside};
  const toml::table* run = nullptr;
  errors.attempt([&] { run = r.optionalTable("run"); });
  if (run != nullptr) parseRun(r.sub(*run, "run"), config.run, base_dir, errors);
  const toml::table* capture = nullptr;
  errors.attempt([&] { capture = r.optionalTable("capture"); });
  if (capture != nullptr) config.capture = parseCapture(r.sub(*capture, "capture"), base_dir, errors);
  const toml::array* studies = nullptr;
  const bool studies_read = errors.attempt([&] { studies = r.optionalArray("study"); });
  if (studies != nullptr) {
    for (std::size_t i = 0; i < studies->size(); ++i) {
      if (const toml::table* t = studies->get(i)->as_table())
        config.studies.push_back(parseStudy(r.sub(*t, "study[" + std::to_string(i) + "]"), errors));
      else errors.add(r.error("study", "element " + std::to_string(i) + " must be a table ([[study]])"));
    }
  }
  if (studies_read && (studies == nullptr || studies->empty()))
    errors.add(r.error("study", "missing: a config needs at least one [[study]]"));
  errors.throwIfAny();
  return config;
}

fs::path builtinKernelsDir() { return (fs::path(ROOFLAB_SOURCE_DIR) / "kernels").lexically_normal(); }

std::vector<fs::path> kernelSearchPath(const RunSettings& run) {
  std::vector<fs::path> search_path = run.kernels;
  const fs::path builtin = builtinKernelsDir();
  std::error_code ec;
  // A binary moved away from its source tree has no built-in families; a study of one then says
  // that no family has its name.
  if (fs::is_directory(builtin, ec) && std::find(search_path.begin(), search_path.end(), builtin) == search_path.end())
    search_path.push_back(builtin);
  return search_path;
}

ParamOverride parseParamOverride(const std::string& text) {
  const std::size_t equals = text.find('=');
  ParamOverride o;
  o.name = text.substr(0, equals);
  auto fail = [&](const std::string& why) -> void { throw InputError("--set " + text + ": " + why); };
  if (equals == std::string::npos || o.name.empty()) fail("expected NAME=VALUE (e.g. --set N=4096)");
  std::string values = text.substr(equals + 1) + ",";
  for (std::size_t at = 0, comma; (comma = values.find(',', at)) != std::string::npos; at = comma + 1) {
    const std::string item = values.substr(at, comma - at);
    double value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() || !std::isfinite(value))
      fail("'" + item + "' is not a number");
    // A value listed twice would run its point twice and give two records of one name.
    if (std::find(o.values.begin(), o.values.end(), value) != o.values.end())
      fail("'" + item + "' is listed twice: each value of a sweep runs once; list it once");
    o.values.push_back(value);
  }
  return o;
}

BatchConfig loadBatchConfig(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path.string() + ": config file cannot be read (it is a folder)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": config file cannot be read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseBatchConfig(buffer.str(), path.string(), fs::absolute(path).parent_path());
}

BatchConfig defaultBatchConfig() {
  // The embedded default names folders relative to the source tree (kernels/), which is where the
  // built-in families live.
  return parseBatchConfig(embedded::default_config, "<embedded configs/default.toml>", fs::path(ROOFLAB_SOURCE_DIR));
}

}  // namespace rooflab
