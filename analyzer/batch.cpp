#include "analyzer/batch.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"
#include "analyzer/roofline_models.hpp"
#include "analyzer/watchdog.hpp"
#include "mutators/mutation_verdict.hpp"
#include "analyzer/stop_flag.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

bool hasGlob(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

// Cartesian product of the study's swept parameters, in the order they were written.
std::vector<ParamValues> expandParams(const FamilyManifest& family, const StudySpec& study) {
  std::vector<ParamValues> points{family.params};
  for (const auto& [name, values] : study.params) {
    std::vector<ParamValues> next;
    for (const auto& base : points)
      for (double value : values) {
        ParamValues p = base;
        p[name] = value;
        next.push_back(std::move(p));
      }
    points = std::move(next);
  }
  return points;
}

nlohmann::json configJson(const BatchConfig& config) {
  const RunSettings& r = config.run;
  nlohmann::json modes = nlohmann::json::array();
  for (RunMode m : r.modes) modes.push_back(modeName(m));
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : r.kernels) kernels.push_back(k.string());
  nlohmann::json studies = nlohmann::json::array();
  for (const auto& s : config.studies) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, values] : s.params) params[name] = values;
    nlohmann::json study_modes = nlohmann::json::array();
    for (RunMode m : s.modes) study_modes.push_back(modeName(m));
    studies.push_back({{"family", s.family}, {"variants", s.variants}, {"params", params}, {"modes", study_modes}});
  }
  return {{"path", config.path},
          {"run",
           {{"device", r.device}, {"repetitions", r.repetitions}, {"warmup", r.warmup}, {"modes", modes},
            {"counters", r.counters}, {"reference_model", r.reference_model}, {"ceilings", r.ceilings}, {"out", r.out},
            {"formats", r.formats}, {"kernels", kernels}, {"variant_time_limit_s", r.variant_time_limit_s},
            {"seed", r.seed}}},
          {"study", studies},
          {"text", config.text}};
}

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled), tty_(enabled && ::isatty(STDERR_FILENO)) {}
  void show(const std::string& text) {
    if (!enabled_) return;
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%s", text.c_str());
    } else if (text != last_) {
      std::fprintf(stderr, "%s\n", text.c_str());
    }
    last_ = text;
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_ && tty_ && !last_.empty()) std::fprintf(stderr, "\n");
  }
  bool tty() const { return tty_; }

 private:
  bool enabled_;
  bool tty_;
  std::string last_;
};

}  // namespace

BatchPlan planBatch(const BatchConfig& config) {
  BatchPlan plan;
  FamilyDiscovery found = discoverFamilies(config.run.kernels);
  plan.input_errors = found.errors;
  plan.families = std::move(found.families);
  for (const auto& study : config.studies) {
    const std::string at = study.where.str() + ": study '" + study.family + "'";
    const FamilyManifest* family = nullptr;
    for (const auto& f : plan.families)
      if (f.name == study.family) family = &f;
    if (!family) {
      plan.input_errors.push_back(at + ": no family of that name in the kernel search path (see `rooflab list`)");
      continue;
    }
    bool bad = false;
    for (const auto& [name, values] : study.params)
      if (!family->params.count(name)) {
        plan.input_errors.push_back(at + ": parameter '" + name + "' is not declared in " + family->path.string());
        bad = true;
      }
    std::vector<const VariantSpec*> variants;
    for (const auto& pattern : study.variants) {
      bool matched = false;
      for (const auto& v : family->variants)
        if (globMatch(pattern, v.name)) {
          matched = true;
          if (std::find(variants.begin(), variants.end(), &v) == variants.end()) variants.push_back(&v);
        }
      if (!matched) {
        plan.input_errors.push_back(at + ": " + (hasGlob(pattern) ? "pattern '" : "no variant '") + pattern +
                                    (hasGlob(pattern) ? "' matches no variant" : "'"));
        bad = true;
      }
    }
    if (bad) continue;
    const std::vector<RunMode>& modes = study.modes.empty() ? config.run.modes : study.modes;
    for (const ParamValues& params : expandParams(*family, study))
      for (const VariantSpec* v : variants)
        for (RunMode mode : modes) plan.points.push_back(RunPoint{family, v, params, mode});
  }
  return plan;
}

BatchOutcome runBatch(const BatchConfig& config_in, const BatchOptions& options) {
  BatchConfig config = config_in;
  if (!options.device_override.empty()) config.run.device = options.device_override;
  if (!options.out_override.empty()) config.run.out = options.out_override;
  if (!options.counters_override.empty()) config.run.counters = options.counters_override;
  if (!options.formats_override.empty()) config.run.formats = options.formats_override;

  BatchOutcome outcome;
  outcome.out_dir = fs::absolute(config.run.out);
  std::error_code ec;
  fs::create_directories(outcome.out_dir, ec);
  const fs::path results_path = outcome.out_dir / "results.json";
  {
    // Fail before any kernel runs if the results cannot be written.
    const fs::path probe = outcome.out_dir / ".rooflab-write-test";
    std::ofstream test(probe);
    if (ec || !test) throw InputError("output folder '" + outcome.out_dir.string() + "' cannot be created or written");
    test.close();
    fs::remove(probe, ec);
  }

  if (options.keep_binaries) config.run.binaries_dir = (outcome.out_dir / "binaries").string();
  BatchPlan plan = planBatch(config);
  for (const auto& e : plan.input_errors) std::fprintf(stderr, "rooflab: %s\n", e.c_str());

  SelectedDevice device = selectDevice(config.run.device);
  VariantRunner runner(device, config.run);

  nlohmann::json& results = outcome.results;
  results = {{"schema", 1},
             {"tool", {{"name", "rooflab"}, {"version", ROOFLAB_VERSION}}},
             {"status", "running"},
             {"started_at", utcNow()},
             {"finished_at", nullptr},
             {"config", configJson(config)},
             {"device", toJson(device.info)},
             {"models", nlohmann::json::object()},
             {"input_errors", plan.input_errors},
             {"records", nlohmann::json::array()}};
  std::ostringstream ceilings_log;
  const auto ceilings_started = std::chrono::steady_clock::now();
  const RooflineModels models = prepareRooflineModels(config.run, device, ceilings_log);
  results["ceilings_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - ceilings_started).count();
  if (options.progress) std::fputs(ceilings_log.str().c_str(), stderr);
  results["models"] = toJson(models);

  const std::size_t total = plan.points.size();
  std::fprintf(stderr, "rooflab: %zu points (%zu families) on %s [%s]; %d warm-up + %d timed runs each; results in %s\n",
               total, plan.families.size(), device.info.name.c_str(), device.info.platform.c_str(), config.run.warmup,
               config.run.repetitions, results_path.c_str());
  // After the ceilings, so that no compile runs while they are measured.
  runner.queueBuilds(plan.points);
  results["build_threads"] = runner.buildThreads();

  ProgressLine progress(options.progress);
  std::size_t ok = 0, failed = 0, verification_failed = 0, skipped = 0;
  std::map<std::string, std::map<std::string, std::size_t>> mode_records;  // group -> mode -> record index
  // The runner stops a slow variant between repetitions; a single run that hangs past twice the
  // limit (plus build and verification time) ends the batch with what it has.
  Watchdog watchdog(results, results_path, 2 * config.run.variant_time_limit_s + 10,
                    static_cast<int>(ExitCode::variant_failed));
  bool interrupted = false;
  for (std::size_t i = 0; i < total; ++i) {
    if (stopFlag()) {
      interrupted = true;
      break;
    }
    const RunPoint& point = plan.points[i];
    const std::string prefix = "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] " + point.family->name +
                               "/" + point.variant->name + " " + paramsLabel(point.params, point.family->param_order) +
                               " " + modeName(point.mode);
    progress.show(prefix);
    RunRecord stub;
    stub.family = point.family->name;
    stub.variant = point.variant->name;
    stub.mode = point.mode;
    stub.params = point.params;
    stub.param_order = point.family->param_order;
    watchdog.begin(toJson(stub));
    RunRecord record = runner.run(point, [&](const char* phase, int index, int count) {
      if (progress.tty()) progress.show(prefix + ": " + phase + " " + std::to_string(index + 1) + "/" + std::to_string(count));
    });
    watchdog.end();
    auto results_lock = watchdog.lock();
    if (record.status == RecordStatus::ok) placeRecord(record, models);
    if (record.status == RecordStatus::error) {
      ++failed;
      progress.finish();
      std::fprintf(stderr, "rooflab: error: %s\n", record.status_reason.c_str());
    } else if (record.status == RecordStatus::skipped) {
      ++skipped;
    } else if (record.verification.status == "failed") {
      ++verification_failed;
      progress.finish();
      std::fprintf(stderr, "rooflab: verification failed: %s: %s\n", record.label().c_str(), record.verification.detail.c_str());
    } else {
      ++ok;
    }
    results["records"].push_back(toJson(record));
    // Once a variant's last mode at these parameters has run, read the mutants against the original.
    const std::string group = point.family->name + "/" + point.variant->name + " " +
                              paramsLabel(point.params, point.family->param_order);
    mode_records[group][modeName(point.mode)] = results["records"].size() - 1;
    const bool last_of_group = i + 1 == total || plan.points[i + 1].variant != point.variant ||
                               plan.points[i + 1].params != point.params;
    if (last_of_group) {
      const auto& modes = mode_records[group];
      auto recordAt = [&](const char* mode) -> nlohmann::json* {
        auto it = modes.find(mode);
        return it == modes.end() ? nullptr : &results["records"][it->second];
      };
      nlohmann::json* normal = recordAt("normal");
      nlohmann::json* mem = recordAt("memory-only");
      nlohmann::json* comp = recordAt("compute-only");
      if (normal && (mem || comp)) {
        // The verdict reads typed records; the batch keeps JSON ones until it is split.
        auto typed = [](const nlohmann::json* r) { return r ? std::optional(runRecordFromJson(*r)) : std::nullopt; };
        const auto n = typed(normal), m = typed(mem), c = typed(comp);
        (*normal)["mutation"] = toJson(analyseMutation(*n, m ? &*m : nullptr, c ? &*c : nullptr,
                                                       static_cast<double>(device.info.timer_resolution_ns)));
      }
    }
    results["summary"] = {{"points", total}, {"ok", ok}, {"failed", failed},
                          {"verification_failed", verification_failed}, {"skipped", skipped}};
    writeJsonAtomically(results_path, results);
  }
  progress.finish();
  auto final_lock = watchdog.lock();
  if (stopFlag()) interrupted = true;
  results["status"] = interrupted ? "interrupted" : "complete";
  results["finished_at"] = utcNow();
  results["summary"] = {{"points", total}, {"ok", ok}, {"failed", failed},
                        {"verification_failed", verification_failed}, {"skipped", skipped},
                        {"not_run", total - results["records"].size()}};
  writeJsonAtomically(results_path, results);

  // The most urgent thing for the user to act on decides the exit code.
  if (interrupted)
    outcome.exit_code = ExitCode::interrupted;
  else if (!plan.input_errors.empty())
    outcome.exit_code = ExitCode::bad_input;
  else if (failed || verification_failed)
    outcome.exit_code = ExitCode::variant_failed;
  return outcome;
}

}  // namespace rooflab
