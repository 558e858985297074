#include "analyzer/cli/commands.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <tuple>
#include <unistd.h>

#include "analyzer/batch/batch.hpp"
#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/batch/output_folder.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/cli/option_checks.hpp"
#include "analyzer/cli/run_finish.hpp"
#include "analyzer/cli/shard_option.hpp"
#include "analyzer/tune/tune.hpp"
#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/cupti_choice.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/diagnose/analysis.hpp"
#include "analyzer/diagnose/run_comparison.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "analyzer/support/input_errors.hpp"
#include "analyzer/json/journal_file.hpp"
#include "analyzer/json/results_file.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/run/program_builds.hpp"
#include "analyzer/run/variant_programs.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "reports/text/ab_split.hpp"
#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/ceilings_table.hpp"
#include "reports/text/cost_text.hpp"
#include "reports/text/device_list_text.hpp"
#include "reports/text/diff_report.hpp"
#include "reports/text/diff_text.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/report_writer.hpp"
#include "reports/text/terminal_report.hpp"
#include "reports/text/tuning_text.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// The environment variables (docs/using.md), read here once: nothing below the command line reads them.
EnvironmentSettings readEnvironmentSettings(bool counters_possible) {
  EnvironmentSettings env;
  if (const char* threads = std::getenv("ROOFLAB_BUILD_THREADS")) env.build_threads = parseBuildThreads(threads);
  if (const char* metrics = std::getenv("ROOFLAB_EXTRA_METRICS"))
    env.extra_metrics = counters::parseExtraMetrics(metrics);
  if (const char* library = std::getenv("ROOFLAB_CUPTI_LIBRARY")) env.cupti_library = library;
  if (const char* keep = std::getenv("ROOFLAB_PROFILER_KEEP_ENABLED"))
    env.keep_profiler_enabled = std::string(keep) != "0";
  // NVIDIA's JIT cache outlives the process: a program compiled by an earlier run builds without the
  // ptxas log the PTX bridge reads registers from. With counters possible, this run gets a cache of
  // its own (duplicates within the run still hit it), unless the user chose one.
  if (counters_possible && std::getenv("CUDA_CACHE_PATH") == nullptr)
    env.private_jit_cache_dir =
        (fs::temp_directory_path() / ("rooflab-jit-cache-" + std::to_string(::getpid()))).string();
  return env;
}

// The counters' sources, each from the first that gives it: the flag, the config's [run] key, the
// environment variable (already in `run.environment`). The libcupti chosen is handed to the counters
// here, before anything loads it; the point workers get it with the run's settings.
void settleCountersSources(const RunCommand& cmd, RunSettings& run) {
  EnvironmentSettings& env = run.environment;
  if (cmd.extra_metrics) {
    env.extra_metrics = counters::parseExtraMetrics(*cmd.extra_metrics);
  } else if (run.extra_metrics) {
    std::string names;
    for (const std::string& metric : *run.extra_metrics) names += (names.empty() ? "" : ",") + metric;
    env.extra_metrics = counters::parseExtraMetrics(names);
  }
  if (cmd.cupti_library) env.cupti_library = *cmd.cupti_library;
  else if (run.cupti_library) env.cupti_library = *run.cupti_library;
  counters::chooseCuptiLibrary(env.cupti_library);
}

// What is wrong with the counters' flags as given, into `errors`.
void checkCountersFlags(const RunCommand& cmd, InputErrorList& errors) {
  if (cmd.cupti_library && cmd.cupti_library->empty())
    errors.add("--cupti-library '': names no file: give libcupti's path, or a name the loader finds");
}

// A results file or a journal (a run killed outright leaves its records there; a torn last line warns).
ResultsDocument readResults(const std::string& path) {
  ReadResults read = readResultsOrJournal(path);
  for (const std::string& warning : read.warnings)
    std::fprintf(stderr, "rooflab: warning: %s\n", terminalText(warning, true).c_str());
  return std::move(read.document);
}

}  // namespace

void checkFormats(const std::vector<std::string>& formats) {
  const std::vector<std::string> known = reports::knownReportFormats();
  for (const auto& f : formats)
    if (std::find(known.begin(), known.end(), f) == known.end())
      throw InputError("--formats: unknown format '" + f + "' (expected html, png, json, csv)");
}

namespace {

// The measurement flags over the config's keys, checked as the config's are; every mistake at once.
void applyMeasurementFlags(const RunCommand& cmd, RunSettings& run, InputErrorList& errors) {
  if (cmd.repetitions) {
    if (*cmd.repetitions < 1 || *cmd.repetitions > 100000)
      errors.add("--repetitions " + std::to_string(*cmd.repetitions) + ": must be 1 to 100000");
    else run.repetitions = *cmd.repetitions;
  }
  auto bounded = [&](const std::optional<double>& flag, const char* name, double& value, bool zero_allowed) {
    if (!flag) return;
    if (!std::isfinite(*flag) || *flag < 0 || (*flag == 0 && !zero_allowed))
      errors.add(std::string(name) + " " + formatNumber(*flag) + ": " +
                 (zero_allowed ? "must be a finite number, 0 or above" : "must be a finite number above 0"));
    else value = *flag;
  };
  bounded(cmd.max_noise, "--max-noise", run.max_noise, false);
  bounded(cmd.min_time_s, "--min-time", run.min_time_s, true);
  bounded(cmd.max_time_s, "--max-time", run.max_time_s, false);
  if ((cmd.min_time_s || cmd.max_time_s) && run.min_time_s > run.max_time_s)
    errors.add("--min-time (" + formatNumber(run.min_time_s) +
               " s) must not exceed --max-time or the config's max_time (" + formatNumber(run.max_time_s) + " s)");
}

}  // namespace

BatchOptions batchOptionsOf(const RunCommand& cmd, BatchConfig& config) {
  BatchOptions options;
  InputErrorList errors;
  options.device_override = cmd.device;
  if (cmd.device_given)
    if (const std::string problem = deviceOptionProblem(cmd.device, true); !problem.empty()) errors.add(problem);
  if (!cmd.device_mode.empty()) {
    options.device_mode_override = parseDeviceMode(cmd.device_mode);
    if (!options.device_mode_override) errors.add("--device-mode '" + cmd.device_mode + "': expected compare or shard");
  }
  if (cmd.shard_given || !cmd.shard.empty())
    errors.attempt(
        [&] { options.part = parseShardOption(cmd.shard, [](const char* name) { return std::getenv(name); }); });
  applyMeasurementFlags(cmd, config.run, errors);
  checkCountersFlags(cmd, errors);
  errors.throwIfAny();
  options.out_override = cmd.out;
  if (cmd.no_counters) options.counters_override = CountersSetting::off;
  options.formats_override = cmd.formats;
  options.progress = !cmd.quiet;
  options.keep_binaries = cmd.keep_binaries;
  options.only = cmd.only;
  giveBatchTheReportsWords(options);
  const CountersSetting counters = options.counters_override.value_or(config.run.counters);
  config.run.environment = readEnvironmentSettings(counters != CountersSetting::off);
  settleCountersSources(cmd, config.run);
  return options;
}

void closeRunCost(BatchOutcome& outcome, double reports_seconds, std::chrono::steady_clock::time_point command_started,
                  bool print_phases) {
  ResultsDocument& results = outcome.results;
  if (!results.cost) return;
  closeBatchCost(*results.cost, reports_seconds,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - command_started).count());
  try {
    writeResultsFile(outcome.out_dir / "results.json", results);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooflab: warning: the phase table could not be added to %s: %s\n",
                 (outcome.out_dir / "results.json").c_str(), e.what());
  }
  if (print_phases) reports::printPhaseTable(results, std::cout);
}

int runCommand(const RunCommand& cmd) {
  const auto command_started = std::chrono::steady_clock::now();
  // Every mistake of the command line and the config at once, before anything is created.
  InputErrorList errors;
  errors.attempt([&] { checkFormats(cmd.formats); });
  BatchConfig config;
  errors.attempt([&] {
    config = cmd.config_path.empty() ? defaultBatchConfig() : loadBatchConfig(cmd.config_path);
    for (const std::string& text : cmd.set_params) config.param_overrides.push_back(parseParamOverride(text));
  });
  BatchOptions options;
  errors.attempt([&] { options = batchOptionsOf(cmd, config); });
  errors.throwIfAny();
  options.command_started = command_started;
  installStopSignalHandlers();
  const PrivateJitCache jit_cache(config.run.environment.private_jit_cache_dir);
  BatchOutcome outcome = runBatch(config, options);
  const ResultsDocument& results = outcome.results;
  // Nothing measured, nothing written: the folder keeps the earlier run's results and report.
  if (outcome.exit_code == ExitCode::interrupted && results.records.empty()) return static_cast<int>(outcome.exit_code);
  reports::printTerminalSummary(results, std::cout);
  const std::vector<std::string> formats = cmd.formats.empty() ? config.run.formats : cmd.formats;
  int exit_code = static_cast<int>(outcome.exit_code);
  const auto reports_started = std::chrono::steady_clock::now();
  try {
    reports::writeReports(results, outcome.out_dir, formats, reports::ChartOptions{cmd.show_mutants});
  } catch (const IoError& e) {
    std::fprintf(stderr, "rooflab: I/O error: writing reports failed: %s (results are in %s)\n", e.what(),
                 (outcome.out_dir / "results.json").c_str());
    exit_code = static_cast<int>(ExitCode::io_error);
  } catch (const std::exception& e) {
    // The results are safe on disk; a renderer failing must not hide them.
    std::fprintf(stderr, "rooflab: writing reports failed: %s (results are in %s)\n", e.what(),
                 (outcome.out_dir / "results.json").c_str());
  }
  closeRunCost(outcome, std::chrono::duration<double>(std::chrono::steady_clock::now() - reports_started).count(),
               command_started, cmd.phases);
  outcome.folder->listWrittenFiles();
  std::printf("results: %s\n", (outcome.out_dir / "results.json").c_str());
  if (std::find(formats.begin(), formats.end(), "html") != formats.end())
    std::printf("report:  %s\n", (outcome.out_dir / "report.html").c_str());
  return exit_code;
}

int tuneCommand(const TuneCommand& cmd) {
  // Every mistake of the command line and the config at once, before anything is created.
  InputErrorList errors;
  errors.attempt([&] { checkFormats(cmd.run.formats); });
  const std::optional<TuneSearcher> searcher = parseTuneSearcher(cmd.searcher);
  if (!searcher)
    errors.add("--searcher: unknown searcher '" + cmd.searcher + "' (expected exhaustive, random or guided)");
  if (cmd.budget && *cmd.budget == 0) errors.add("--budget: must be at least 1 evaluation");
  if (cmd.time_budget_s && !(*cmd.time_budget_s > 0)) errors.add("--time-budget: must be a number of seconds above 0");
  std::optional<std::uint64_t> seed;
  if (cmd.seed) errors.attempt([&] { seed = parseSeedOption(*cmd.seed); });
  if (cmd.run.device_given)
    if (const std::string problem = deviceOptionProblem(cmd.run.device, false); !problem.empty()) errors.add(problem);
  BatchConfig config;
  errors.attempt([&] {
    config = cmd.run.config_path.empty() ? defaultBatchConfig() : loadBatchConfig(cmd.run.config_path);
    for (const std::string& text : cmd.run.set_params) config.param_overrides.push_back(parseParamOverride(text));
  });
  // Without --device, [run] device: tune runs on one device whatever the config lists.
  if (!cmd.run.device_given && !config.run.device.empty())
    if (const std::string problem = deviceOptionProblem(config.run.device, false); !problem.empty())
      errors.add("[run] device = '" + config.run.device + "': " + problem.substr(problem.find("': ") + 3) +
                 " (or give one with --device)");
  applyMeasurementFlags(cmd.run, config.run, errors);
  checkCountersFlags(cmd.run, errors);
  errors.throwIfAny();
  TuneOptions options;
  options.batch.device_override = cmd.run.device;
  options.batch.out_override = cmd.run.out;
  if (cmd.run.no_counters) options.batch.counters_override = CountersSetting::off;
  options.batch.formats_override = cmd.run.formats;
  options.batch.progress = !cmd.run.quiet;
  giveTuneTheReportsWords(options);
  options.searcher = *searcher;
  options.budget = cmd.budget;
  options.time_budget_s = cmd.time_budget_s;
  options.seed = seed;
  options.fresh = cmd.fresh;
  installStopSignalHandlers();
  config.run.environment = readEnvironmentSettings(false);
  settleCountersSources(cmd.run, config.run);
  TuneOutcome outcome = runTune(config, options);
  const ResultsDocument& results = outcome.results;
  reports::printTerminalSummary(results, std::cout);
  for (const TuningResult& tuning : results.tuning) reports::printTuningSummary(tuning, std::cout);
  const std::vector<std::string> formats = cmd.run.formats.empty() ? config.run.formats : cmd.run.formats;
  int exit_code = static_cast<int>(outcome.exit_code);
  try {
    reports::writeReports(results, outcome.out_dir, formats);
  } catch (const IoError& e) {
    std::fprintf(stderr, "rooflab: I/O error: writing reports failed: %s (results are in %s)\n", e.what(),
                 (outcome.out_dir / "results.json").c_str());
    exit_code = static_cast<int>(ExitCode::io_error);
  }
  outcome.folder->listWrittenFiles();
  std::printf("results: %s\n", (outcome.out_dir / "results.json").c_str());
  std::printf("journal: %s (a second run resumes from it; --fresh starts anew)\n",
              (outcome.out_dir / "tune-journal.jsonl").c_str());
  for (const fs::path& snippet : outcome.snippets) std::printf("tuned variant: %s\n", snippet.c_str());
  if (std::find(formats.begin(), formats.end(), "html") != formats.end())
    std::printf("report:  %s\n", (outcome.out_dir / "report.html").c_str());
  // As run prints it: the results' phase table, when the command recorded one.
  if (cmd.run.phases) {
    if (results.cost) reports::printPhaseTable(results, std::cout);
    else std::printf("phases: not recorded: tune does not measure its own phases\n");
  }
  return exit_code;
}

// Which mutants a variant gets, at the family's default params: annotated ones, automatic ones
// (the rewriter is asked, as a run would), or none and why.
std::string mutantsLine(const FamilyManifest& family, const VariantSpec& variant) {
  if (variant.annotated) return "annotated (RL_LOAD / RL_STORE): compute-only and memory-only";
  if (!automaticMutantsAvailable()) return "none: " + automaticMutantsOffReason();
  std::string made, refused;
  std::optional<PreprocessedSource> expanded;  // both modes rewrite one preprocessing
  for (RunMode mode : {RunMode::compute_only, RunMode::memory_only}) {
    RunPoint point{&family, &variant, family.params, mode, nullptr};
    try {
      const ResolvedPoint resolved = resolvePoint(point);
      const AutoMutationRequest request = automaticMutationRequest(variant, mode, programOptions(resolved, mode), {});
      if (!expanded) expanded = expandForMutation(request);
      const AutoMutant mutant = mutateAutomatically(request, *expanded);
      if (mutant.source) made += (made.empty() ? "" : " and ") + modeName(mode);
      else if (mutant.reason.rfind("no " + modeName(mode) + " mutant", 0) == 0) refused += "; " + mutant.reason;
      else refused += "; no " + modeName(mode) + ": " + mutant.reason;
    } catch (const std::exception& e) {
      refused += "; no " + modeName(mode) + ": " + e.what();
    }
  }
  return (made.empty() ? std::string("none (automatic)") : "automatic: " + made) + refused;
}

int listCommand(const std::string& kernels_dir) {
  std::vector<fs::path> search_path;
  if (kernels_dir.empty()) search_path = defaultBatchConfig().run.kernels;
  else search_path.push_back(fs::absolute(kernels_dir));
  FamilyDiscovery found = discoverFamilies(search_path);
  for (const auto& family : found.families) {
    std::printf("%s  %s\n  %s\n  params:", terminalText(family.name).c_str(), terminalText(family.description).c_str(),
                terminalText(family.path.string()).c_str());
    for (const auto& name : family.param_order)
      std::printf(" %s=%s", name.c_str(), formatNumber(family.params.at(name)).c_str());
    std::printf("\n  work: flops = %s, bytes = %s; reference: %s\n", family.flops.text.c_str(),
                family.bytes.text.c_str(),
                family.reference.kind == ReferenceSpec::Kind::none ? "(none)" : family.reference.text().c_str());
    for (const auto& v : family.variants) {
      std::string kernels;
      for (const auto& l : v.launches) kernels += (kernels.empty() ? "" : " + ") + l.kernel;
      std::string sources;
      for (const auto& file : v.sources)
        sources += (sources.empty() ? "" : " + ") + file.lexically_relative(v.include_dir).string();
      std::printf("    %-24s %-34s %s\n", terminalText(v.name).c_str(), kernels.c_str(), terminalText(sources).c_str());
      if (!v.description.empty()) std::printf("    %-24s %s\n", "", terminalText(v.description).c_str());
      std::printf("    %-24s mutants: %s\n", "", mutantsLine(family, v).c_str());
    }
  }
  for (const auto& w : found.warnings) std::fprintf(stderr, "rooflab: warning: %s\n", terminalText(w, true).c_str());
  for (const auto& e : found.errors) std::fprintf(stderr, "rooflab: %s\n", terminalText(e, true).c_str());
  return found.errors.empty() ? 0 : static_cast<int>(ExitCode::bad_input);
}

int devicesCommand() {
  const auto devices = discoverDevices();
  if (devices.empty()) {
    std::fprintf(stderr, "rooflab: no OpenCL platform or device found (install an ICD, e.g. pocl-opencl-icd)\n");
    return static_cast<int>(ExitCode::no_device);
  }
  const std::vector<DeviceModel> models = loadDeviceModels();
  std::vector<reports::ListedDevice> listed;
  for (const auto& device : devices) listed.push_back({device.info, matchDeviceModel(device.info, models)});
  std::fputs(reports::deviceListText(listed).c_str(), stdout);
  return 0;
}

// The folder `ceilings --out DIR` writes the model to (DIR/kCeilingsModelFile), taken as a report
// takes its folder: made when missing, locked, its list of rooflab's files kept, and a model file
// rooflab did not write refused. Checked before the measurement, so that a mistaken --out costs no
// minutes of benchmarks.
void takeCeilingsFolder(const std::string& out, std::optional<OutputFolder>& folder) {
  if (out.empty()) return;
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw InputError("ceilings --out " + out +
                     ": not a folder (--out names a folder, as in every command; the model is written to DIR/" +
                     kCeilingsModelFile + ")");
  folder.emplace(out, OutputFolder::Use::report);
  folder->refuseForeignFilesUnder({kCeilingsModelFile});
}

int ceilingsCommand(const CeilingsCommand& cmd) {
  std::optional<OutputFolder> folder;
  takeCeilingsFolder(cmd.out, folder);
  const SelectedDevice device = selectDevice(cmd.device);
  const std::vector<DeviceModel> models = loadDeviceModels();
  CeilingsOptions options;
  options.datasheet = matchDeviceModel(device.info, models);
  // The command measures every roof the device has, the FP64 and int32 ones included.
  options.typed_peaks = {Arithmetic::fp64, Arithmetic::int32};
  options.warp_issue_rate = true;
  options.link_and_launch = true;  // and the host link and the launch
  options.roof_source = reports::measuredRoofSource;
  std::fprintf(stderr, "rooflab: measuring ceilings on %s [%s]%s\n", device.info.name.c_str(),
               device.info.platform.c_str(),
               options.datasheet ? (" (datasheet model: " + options.datasheet->key + ")").c_str() : "");
  const CeilingsReport report = measureCeilings(device, options);
  std::cout << reports::ceilingsTable(report, options.datasheet);
  if (!report.model) {
    std::fprintf(stderr, "rooflab: no model: the FP32 or both DRAM benchmarks failed\n");
    return static_cast<int>(ExitCode::variant_failed);
  }
  const std::string toml = toToml(*report.model);
  if (!folder) {
    std::cout << "\n" << toml;
  } else {
    const fs::path model_path = folder->dir() / kCeilingsModelFile;
    writeFileAtomically(model_path, toml);
    folder->listWrittenFiles();
    std::printf("device model: %s\n", model_path.c_str());
  }
  return report.complete() ? 0 : static_cast<int>(ExitCode::variant_failed);
}

int reportCommand(const ReportCommand& cmd) {
  ResultsDocument results = readResults(cmd.results_path);
  // Files saved before diagnoses existed still get one in the reports (not in the JSON written back).
  results.analysis = analyse(results.records, results, std::move(results.analysis));
  const fs::path out = cmd.out.empty() ? fs::absolute(cmd.results_path).parent_path() : fs::path(cmd.out);
  std::vector<std::string> formats = cmd.formats;
  if (formats.empty()) formats = {"html", "png", "csv"};
  // The folder's lock, as a run takes it: a batch writing there refuses the report; the report's
  // files join the folder's list of what rooflab wrote.
  const OutputFolder folder(out.string(), OutputFolder::Use::report);
  try {
    reports::writeReports(results, folder.dir(), formats, reports::ChartOptions{cmd.show_mutants});
  } catch (const std::invalid_argument& e) {
    throw InputError(cmd.results_path + ": " + e.what());
  }
  folder.listWrittenFiles();
  // --phases is asked for by name: --quiet leaves it.
  if (!cmd.quiet) reports::printTerminalSummary(results, std::cout);
  if (cmd.phases) reports::printPhaseTable(results, std::cout);
  if (cmd.quiet) return 0;
  for (const TuningResult& tuning : results.tuning) reports::printTuningSummary(tuning, std::cout);
  std::printf("reports written to %s\n", out.c_str());
  return 0;
}

int diffCommand(const DiffCommand& cmd) {
  ResultsDocument old_run, new_run;
  std::string what = cmd.old_path + " " + cmd.new_path;
  if (cmd.new_path.empty()) {
    // One file: an A/B run's, whose baseline and candidate are the two runs.
    what = cmd.old_path;
    try {
      std::tie(old_run, new_run) = reports::splitAbRun(readResults(cmd.old_path));
    } catch (const std::invalid_argument& e) {
      throw InputError("diff " + cmd.old_path + ": " + e.what() + "; give two results files, or one of rooflab ab");
    }
  } else {
    old_run = readResults(cmd.old_path);
    new_run = readResults(cmd.new_path);
  }
  RunComparison comparison;
  try {
    comparison = compareRuns(old_run, new_run, cmd.options);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  // Other devices, or no record in common: there is nothing a CI gate could read as "no regression".
  if (comparison.refusal) throw InputError("diff " + what + ": " + reports::refusalText(*comparison.refusal));
  reports::printDiff(comparison, std::cout);
  return diffExitCode(comparison);
}

int diffExitCode(const RunComparison& comparison) {
  // Non-zero only for regressions (significant, larger than the minimum effect and than the drift,
  // or new errors and verification failures), so CI can gate on it; 3 when the drift hides what the
  // runs would show.
  switch (comparison.outcome) {
    case ComparisonOutcome::no_regression: return 0;
    case ComparisonOutcome::regressed: return static_cast<int>(ExitCode::variant_failed);
    case ComparisonOutcome::inconclusive: return kDiffInconclusive;
    case ComparisonOutcome::refused: break;
  }
  return static_cast<int>(ExitCode::bad_input);
}

}  // namespace rooflab
