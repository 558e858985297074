#include "analyzer/config.hpp"

#include "rooflab_source_dir.hpp"

#include <fstream>
#include <sstream>

#include "analyzer/errors.hpp"
#include "analyzer/toml_reader.hpp"
#include "embedded_default_config.hpp"

namespace fs = std::filesystem;

namespace rooflab {

std::string modeName(RunMode mode) {
  switch (mode) {
    case RunMode::normal: return "normal";
    case RunMode::compute_only: return "compute-only";
    case RunMode::memory_only: return "memory-only";
  }
  return "?";
}

std::optional<RunMode> parseMode(const std::string& name) {
  for (RunMode m : {RunMode::normal, RunMode::compute_only, RunMode::memory_only})
    if (modeName(m) == name) return m;
  return std::nullopt;
}

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

std::vector<RunMode> parseModes(const TomlReader& r, const std::string& key) {
  std::vector<RunMode> modes;
  const std::vector<std::string> names = r.optionalTextArray(key).value_or(std::vector<std::string>{});
  for (const auto& name : names) {
    auto mode = parseMode(name);
    if (!mode) r.fail(key, "unknown mode '" + name + "' (expected normal, compute-only or memory-only)");
    modes.push_back(*mode);
  }
  if (modes.empty()) r.fail(key, "must name at least one mode");
  return modes;
}

void parseRun(const TomlReader& r, RunSettings& run, const fs::path& base_dir) {
  r.rejectUnknownKeys({"device", "repetitions", "warmup", "modes", "counters", "reference_model", "out",
                       "formats", "kernels", "variant_time_limit_s", "seed", "ceilings", "max_points"});
  run.device = r.optionalString("device").value_or(run.device);
  if (auto reps = r.optionalInteger("repetitions")) {
    if (*reps < 1 || *reps > 100000) r.fail("repetitions", "must be between 1 and 100000");
    run.repetitions = static_cast<int>(*reps);
  }
  if (auto warmup = r.optionalInteger("warmup")) {
    if (*warmup < 0 || *warmup > 10000) r.fail("warmup", "must be between 0 and 10000");
    run.warmup = static_cast<int>(*warmup);
  }
  if (r.has("modes")) run.modes = parseModes(r, "modes");
  run.counters = r.optionalString("counters").value_or(run.counters);
  if (run.counters != "auto" && run.counters != "on" && run.counters != "off")
    r.fail("counters", "must be auto, on or off");
  run.reference_model = r.optionalString("reference_model").value_or(run.reference_model);
  run.ceilings = r.optionalString("ceilings").value_or(run.ceilings);
  if (run.ceilings != "measure" && run.ceilings != "datasheet") r.fail("ceilings", "must be measure or datasheet");
  run.out = r.optionalString("out").value_or(run.out);
  if (auto formats = r.optionalTextArray("formats")) {
    for (const auto& f : *formats)
      if (f != "html" && f != "png" && f != "json" && f != "csv")
        r.fail("formats", "unknown format '" + f + "' (expected html, png, json, csv)");
    run.formats = *formats;
  }
  if (auto kernels = r.optionalTextArray("kernels")) {
    run.kernels.clear();
    for (const auto& k : *kernels) run.kernels.push_back(fs::absolute(base_dir / k).lexically_normal());
  }
  if (auto limit = r.optionalNumber("variant_time_limit_s")) {
    if (*limit <= 0) r.fail("variant_time_limit_s", "must be positive");
    run.variant_time_limit_s = *limit;
  }
  if (auto max_points = r.optionalInteger("max_points")) {
    if (*max_points < 1) r.fail("max_points", "must be at least 1");
    run.max_points = static_cast<std::size_t>(*max_points);
  }
  if (auto seed = r.optionalInteger("seed")) run.seed = static_cast<std::uint64_t>(*seed);
}

StudySpec parseStudy(const TomlReader& r) {
  r.rejectUnknownKeys({"family", "variants", "params", "modes"});
  StudySpec s;
  s.where = r.where();
  s.family = r.requireString("family");
  if (auto variants = r.optionalTextArray("variants")) {
    if (variants->empty()) r.fail("variants", "must name at least one variant (or \"*\")");
    s.variants = *variants;
  }
  if (const toml::table* params = r.optionalTable("params")) {
    TomlReader pr = r.sub(*params, r.keyPath("params"));
    for (const auto& [key, node] : *params) {
      const std::string name(key.str());
      std::vector<double> values;
      if (node.is_integer() || node.is_floating_point()) {
        values.push_back(*node.value<double>());
      } else if (const toml::array* a = node.as_array()) {
        for (const auto& item : *a) {
          if (!item.is_integer() && !item.is_floating_point()) pr.fail(name, "values must be numbers");
          values.push_back(*item.value<double>());
        }
        if (values.empty()) pr.fail(name, "must list at least one value");
      } else {
        pr.fail(name, "must be a number or an array of numbers");
      }
      s.params.emplace_back(name, std::move(values));
    }
  }
  if (r.has("modes")) s.modes = parseModes(r, "modes");
  return s;
}

}  // namespace

BatchConfig parseBatchConfig(std::string_view text, const std::string& name, const fs::path& base_dir) {
  const toml::table root = parseTomlText(text, name);
  TomlReader r(root, name);
  r.rejectUnknownKeys({"run", "study"});
  BatchConfig config;
  config.path = name;
  config.text = std::string(text);
  config.run.kernels = {fs::absolute(base_dir / "kernels").lexically_normal()};
  if (const toml::table* run = r.optionalTable("run")) parseRun(r.sub(*run, "run"), config.run, base_dir);
  if (const toml::array* studies = r.optionalArray("study")) {
    for (std::size_t i = 0; i < studies->size(); ++i) {
      const toml::table* t = studies->get(i)->as_table();
      if (!t) r.fail("study", "element " + std::to_string(i) + " must be a table ([[study]])");
      config.studies.push_back(parseStudy(r.sub(*t, "study[" + std::to_string(i) + "]")));
    }
  }
  if (config.studies.empty()) r.fail("study", "missing: a config needs at least one [[study]]");
  return config;
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
