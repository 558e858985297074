// `rooflab ab`: a baseline and a candidate (two configs, or one config with two kernel folders) run
// interleaved in one batch, then compared as `rooflab diff` compares two runs (docs/cost.md, "A/B runs").
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include "analyzer/cli/commands.hpp"
#include "analyzer/cli/run_finish.hpp"
#include "analyzer/json/results_file.hpp"
#include "analyzer/batch/batch_identity.hpp"
#include "analyzer/diagnose/run_comparison.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "reports/report_writer.hpp"
#include "reports/text/ab_split.hpp"
#include "reports/text/diff_report.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// The side's kernel folder, in place of its config's own (the built-in families are still searched
// after it); "" leaves the config's.
void kernelFolder(BatchConfig& config, const std::string& folder, const char* option) {
  if (folder.empty()) return;
  const fs::path path = fs::absolute(folder);
  if (!fs::is_directory(path)) throw InputError(std::string(option) + ": " + folder + " is not a folder");
  config.run.kernels = {path};
}

std::string sideLabel(const std::string& config, const std::string& kernels) {
  return (config.empty() ? std::string("<embedded default>") : config) +
         (kernels.empty() ? "" : " (kernels: " + kernels + ")");
}

std::string modesText(const std::vector<RunMode>& modes) {
  std::string text;
  for (RunMode mode : modes) text += (text.empty() ? "" : ",") + modeName(mode);
  return text;
}

// Both sides run with the baseline's [run] section (one batch, one device, one way of measuring):
// each setting of the candidate's that differs is said, then replaced; its kernel folders stay its own.
void oneRunSection(AbConfigs& configs, const std::string& candidate_path) {
  const RunSettings& baseline = configs.baseline.run;
  RunSettings& candidate = configs.candidate.run;
  std::vector<std::pair<std::string, std::string>> mine = measurementSettings(baseline),
                                                   theirs = measurementSettings(candidate);
  mine.insert(mine.begin(), {{"device", baseline.device}, {"modes", modesText(baseline.modes)}});
  theirs.insert(theirs.begin(), {{"device", candidate.device}, {"modes", modesText(candidate.modes)}});
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (mine[i].second != theirs[i].second)
      std::fprintf(stderr, "rooflab: warning: ab: %s sets [run] %s = %s; both sides run with the baseline's %s\n",
                   candidate_path.c_str(), mine[i].first.c_str(), theirs[i].second.c_str(), mine[i].second.c_str());
  RunSettings same = baseline;
  same.kernels = candidate.kernels;
  candidate = same;
}

AbConfigs abConfigsOf(const AbCommand& cmd) {
  if (cmd.candidate_path.empty() && cmd.candidate_kernels.empty() && cmd.baseline_kernels.empty())
    throw InputError("ab: the two sides would be the same: give a candidate config, or kernel folders "
                     "(--baseline-kernels, --candidate-kernels)");
  AbConfigs configs;
  configs.baseline = cmd.run.config_path.empty() ? defaultBatchConfig() : loadBatchConfig(cmd.run.config_path);
  configs.candidate = cmd.candidate_path.empty() ? configs.baseline : loadBatchConfig(cmd.candidate_path);
  if (!cmd.candidate_path.empty()) oneRunSection(configs, cmd.candidate_path);
  for (const std::string& text : cmd.run.set_params) {
    configs.baseline.param_overrides.push_back(parseParamOverride(text));
    configs.candidate.param_overrides.push_back(parseParamOverride(text));
  }
  kernelFolder(configs.baseline, cmd.baseline_kernels, "--baseline-kernels");
  kernelFolder(configs.candidate, cmd.candidate_kernels, "--candidate-kernels");
  configs.baseline_label = sideLabel(cmd.run.config_path, cmd.baseline_kernels);
  configs.candidate_label =
      sideLabel(cmd.candidate_path.empty() ? cmd.run.config_path : cmd.candidate_path, cmd.candidate_kernels);
  return configs;
}

// Each side as a run of its own, in <out>/baseline and <out>/candidate: its results file and reports.
void writeSides(const ResultsDocument& baseline, const ResultsDocument& candidate, const fs::path& out,
                const std::vector<std::string>& formats, bool show_mutants) {
  for (const auto& [name, side] : {std::pair{"baseline", &baseline}, std::pair{"candidate", &candidate}}) {
    const fs::path dir = out / name;
    fs::create_directories(dir);
    writeResultsFile(dir / "results.json", *side);
    reports::writeReports(*side, dir, formats, reports::ChartOptions{show_mutants});
  }
}

}  // namespace

int abCommand(const AbCommand& cmd) {
  const auto command_started = std::chrono::steady_clock::now();
  checkFormats(cmd.run.formats);
  AbConfigs configs = abConfigsOf(cmd);
  BatchOptions options = batchOptionsOf(cmd.run, configs.baseline);
  configs.candidate.run.environment = configs.baseline.run.environment;
  options.command_started = command_started;
  installStopSignalHandlers();
  const PrivateJitCache jit_cache(configs.baseline.run.environment.private_jit_cache_dir);
  BatchOutcome outcome = runAbBatch(configs, options);
  if (outcome.exit_code == ExitCode::interrupted && outcome.results.records.empty())
    return static_cast<int>(outcome.exit_code);

  const auto reports_started = std::chrono::steady_clock::now();
  ResultsDocument baseline, candidate;
  try {
    std::tie(baseline, candidate) = reports::splitAbRun(outcome.results);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("ab: ") + e.what());
  }
  const std::vector<std::string> formats = cmd.run.formats.empty() ? configs.baseline.run.formats : cmd.run.formats;
  int exit_code = static_cast<int>(outcome.exit_code);
  try {
    writeSides(baseline, candidate, outcome.out_dir, formats, cmd.run.show_mutants);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooflab: writing the sides' reports failed: %s (results are in %s)\n", e.what(),
                 (outcome.out_dir / "results.json").c_str());
    exit_code = static_cast<int>(ExitCode::io_error);
  }
  const RunComparison comparison = compareRuns(baseline, candidate, cmd.diff);
  std::ostringstream text;
  reports::printDiff(comparison, text);
  std::cout << "baseline:  " << configs.baseline_label << "\ncandidate: " << configs.candidate_label << "\n"
            << text.str();
  writeFileAtomically(outcome.out_dir / "ab-diff.txt", text.str());
  closeRunCost(outcome, std::chrono::duration<double>(std::chrono::steady_clock::now() - reports_started).count(),
               command_started, cmd.run.phases);
  outcome.folder->listWrittenFiles();
  std::printf("results: %s (each side in %s and %s)\n", (outcome.out_dir / "results.json").c_str(),
              (outcome.out_dir / "baseline").c_str(), (outcome.out_dir / "candidate").c_str());
  if (exit_code == static_cast<int>(ExitCode::interrupted) || exit_code == static_cast<int>(ExitCode::io_error))
    return exit_code;
  const int diff_code = diffExitCode(comparison);
  return diff_code != 0 ? diff_code : exit_code;
}

}  // namespace rooflab
