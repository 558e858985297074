// rooflab command line: parses arguments, calls the analyzer, maps failures to the exit codes (docs/using.md).
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <iostream>

#include "analyzer/cli/commands.hpp"
#include "analyzer/cli/work_count_command.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "mutators/auto_mutation.hpp"
#include "analyzer/batch/worker_main.hpp"

namespace {

// The measurement flags, alike in every command that runs points: they override the config's [run]
// keys of the same names.
// Which of the batch's points run, alike in run and ab.
void addSelectionOptions(CLI::App* command, rooflab::RunCommand& run) {
  command->add_option("--only", run.only,
                      "Run only the variants FAMILY/VARIANT names, with * and ? (matmul/tiled*); repeatable or "
                      "joined by commas")
      ->delimiter(',')
      ->allow_extra_args(false);
}

void addMeasurementOptions(CLI::App* command, rooflab::RunCommand& run) {
  command->add_option("--repetitions", run.repetitions, "Timed runs of every point, at least (the config's repetitions)");
  command->add_option("--max-noise", run.max_noise,
                      "Repeat until the median's 95% interval is within this fraction of it (max_noise)");
  command->add_option("--min-time", run.min_time_s, "Seconds of timed runs a point takes at least (min_time)");
  command->add_option("--max-time", run.max_time_s, "Seconds of timed runs a point takes at most (max_time)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rooflab;
  // The batch's worker process (analyzer/batch/point_worker.cpp): not a command for users.
  // A file size limit (ulimit -f) is a full disk to rooflab: the write fails with EFBIG and the error
  // says where the records are, instead of SIGXFSZ ending the process without a word. The worker
  // inherits it.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc == 2 && std::string(argv[1]) == "__worker") return runPointWorker(3, 4);
  // A point's work counted under oclgrind (docs/work-counts.md): not yet commands for users.
  if (argc == 5 && std::string(argv[1]) == "__launch-once")
    return runLaunchOnce(argv[2], std::stoull(argv[3]), std::stoull(argv[4]));
  if ((argc == 4 || argc == 5) && std::string(argv[1]) == "__count-work") try {
      return runCountWork(argv[2], std::stoull(argv[3]), argc == 5 ? std::stoull(argv[4]) : 64);
    } catch (const InputError& e) {
      std::fprintf(stderr, "rooflab: %s\n", e.what());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rooflab: %s\n", e.what());
      return 1;
    }
  CLI::App app{"rooflab: roofline profiler for OpenCL kernels"};
  app.require_subcommand(1);
  // The build's optional features; a function, so that only --version loads libclang to tell.
  app.set_version_flag("--version", std::function<std::string()>([] {
    return std::string("rooflab ") + ROOFLAB_VERSION + "\nautomatic mutants: " +
           (automaticMutantsAvailable() ? "on (libclang)" : automaticMutantsOffReason());
  }));

  RunCommand run;
  auto* run_cmd = app.add_subcommand("run", "Run a batch config (default: the embedded configs/default.toml)");
  run_cmd->add_option("config", run.config_path, "Batch config TOML");
  auto* run_device = run_cmd->add_option("--device", run.device, "auto | gpu | cpu | P:D | pci:BUS | name substring | all, or several joined by commas");
  run_cmd->add_option("--device-mode", run.device_mode,
                      "With several devices: compare (every point on each) or shard (the points split over them)");
  auto* run_shard = run_cmd->add_option("--shard", run.shard,
                      "Run part I of N of the batch (I/N), or the part Slurm's environment names (slurm)");
  run_cmd->add_option("--out", run.out, "Output folder (default: the config's [run].out)");
  run_cmd->add_flag("--no-counters", run.no_counters, "Do not read hardware counters");
  run_cmd->add_option("--formats", run.formats, "Report formats: html,png,json,csv")->delimiter(',');
  // One NAME=VALUE per --set, so that `--set N=1 config.toml` leaves the config to the positional.
  run_cmd->add_option("--set", run.set_params, "Override a study parameter: NAME=VALUE or NAME=V1,V2 (a sweep); repeatable")
      ->allow_extra_args(false);
  run_cmd->add_flag("--quiet", run.quiet, "No progress line");
  run_cmd->add_flag("--show-mutants", run.show_mutants,
                    "Draw each variant's compute-only and memory-only mutants on the roofline charts");
  run_cmd->add_flag("--keep-binaries", run.keep_binaries, "Write each program binary (PTX on NVIDIA) to <out>/binaries");
  run_cmd->add_flag("--phases", run.phases, "Print where the run's time went at the end (docs/cost.md)");
  addMeasurementOptions(run_cmd, run);
  addSelectionOptions(run_cmd, run);

  TuneCommand tune;
  auto* tune_cmd = app.add_subcommand("tune", "Search the tuning spaces of a config's studied variants (docs/tuning.md)");
  tune_cmd->add_option("config", tune.run.config_path, "Batch config TOML (default: the embedded configs/default.toml)");
  tune_cmd->add_option("--searcher", tune.searcher, "exhaustive | random | guided (default guided)");
  tune_cmd->add_option("--budget", tune.budget, "Configurations to run per search (default: all for exhaustive, else a quarter)");
  tune_cmd->add_option("--time-budget", tune.time_budget_s, "Seconds per search");
  tune_cmd->add_option("--seed", tune.seed, "Seed of the random and guided searchers (default: [run] seed)");
  tune_cmd->add_flag("--fresh", tune.fresh, "Start the journal anew instead of resuming from it");
  auto* tune_device = tune_cmd->add_option("--device", tune.run.device, "auto | gpu | cpu | P:D | pci:BUS | name substring");
  tune_cmd->add_option("--out", tune.run.out, "Output folder (default: the config's [run].out)");
  tune_cmd->add_option("--formats", tune.run.formats, "Report formats: html,png,json,csv")->delimiter(',');
  tune_cmd->add_option("--set", tune.run.set_params, "Override a study parameter: NAME=VALUE; repeatable")->allow_extra_args(false);
  tune_cmd->add_flag("--quiet", tune.run.quiet, "No progress lines");
  addMeasurementOptions(tune_cmd, tune.run);

  std::string kernels_dir;
  auto* list_cmd = app.add_subcommand("list", "List kernel families, variants and parameters");
  list_cmd->add_option("--kernels", kernels_dir, "Kernel folder (default: the built-in kernels/)");

  app.add_subcommand("devices", "List OpenCL platforms and devices, with the matching device model");

  CeilingsCommand ceilings;
  auto* ceilings_cmd = app.add_subcommand("ceilings", "Measure empirical ceilings and write a device model TOML");
  ceilings_cmd->add_option("--device", ceilings.device, "Device selector");
  ceilings_cmd->add_option("--out", ceilings.out, "Write the measured model to this TOML file");

  ReportCommand report;
  auto* report_cmd = app.add_subcommand("report", "Re-render reports from a saved results JSON (no device needed)");
  report_cmd->add_option("results", report.results_path, "results.json")->required();
  report_cmd->add_option("--out", report.out, "Output folder (default: the results file's folder)");
  report_cmd->add_option("--formats", report.formats, "Report formats")->delimiter(',');
  report_cmd->add_flag("--show-mutants", report.show_mutants,
                       "Draw each variant's compute-only and memory-only mutants on the roofline charts");
  report_cmd->add_flag("--phases", report.phases, "Print where the saved run's time went (docs/cost.md)");

  MergeCommand merge;
  auto* merge_cmd = app.add_subcommand("merge", "Join the parts of a batch (rooflab run --shard I/N) into one results.json and report");
  merge_cmd->add_option("parts", merge.parts, "Each part's output folder (or its results.json or journal.jsonl)")->required();
  merge_cmd->add_option("--out", merge.out, "Output folder of the merged results and report")->required();
  merge_cmd->add_option("--formats", merge.formats, "Report formats (default: the batch's)")->delimiter(',');

  DiffCommand diff;
  auto* diff_cmd = app.add_subcommand("diff", "Per-record changes between two runs: a test on their repetitions and a minimum effect");
  diff_cmd->add_option("old", diff.old_path, "Old results.json")->required();
  diff_cmd->add_option("new", diff.new_path, "New results.json (absent: OLD is an A/B run's, whose sides are compared)");
  auto* min_effect = diff_cmd->add_option("--min-effect", diff.options.min_effect,
                                          "Smallest change of a median that counts, a fraction of the old median")
                          ->capture_default_str();
  // --threshold was the median-only rule's slow-down fraction; it now sets the minimum effect, which
  // a change must also pass the test to count as.
  auto* threshold = diff_cmd->add_option("--threshold", diff.options.min_effect, "Former name of --min-effect")->excludes(min_effect);
  diff_cmd->add_option("--alpha", diff.options.alpha, "Significance level of the test on the repetitions")
      ->capture_default_str();
  diff_cmd->add_flag("--allow-other-device", diff.options.allow_other_device,
                     "Compare runs made on different devices (refused by default, exit 2)");

  AbCommand ab;
  auto* ab_cmd = app.add_subcommand("ab", "A baseline and a candidate run interleaved in one batch, then compared as diff does");
  ab_cmd->add_option("baseline", ab.run.config_path, "The baseline's batch config (its [run] settings are the run's)")->required();
  ab_cmd->add_option("candidate", ab.candidate_path, "The candidate's batch config (default: the baseline's)");
  ab_cmd->add_option("--baseline-kernels", ab.baseline_kernels, "The baseline's kernel folder, in place of its config's");
  ab_cmd->add_option("--candidate-kernels", ab.candidate_kernels, "The candidate's kernel folder, in place of its config's");
  auto* ab_device = ab_cmd->add_option("--device", ab.run.device, "auto | gpu | cpu | P:D | pci:BUS | name substring");
  ab_cmd->add_option("--out", ab.run.out, "Output folder (default: the baseline's [run].out)");
  ab_cmd->add_flag("--no-counters", ab.run.no_counters, "Do not read hardware counters");
  ab_cmd->add_option("--formats", ab.run.formats, "Report formats of each side: html,png,json,csv")->delimiter(',');
  ab_cmd->add_option("--set", ab.run.set_params, "Override a study parameter of both sides: NAME=VALUE[,VALUE...]")
      ->allow_extra_args(false);
  ab_cmd->add_flag("--quiet", ab.run.quiet, "No progress line");
  ab_cmd->add_flag("--phases", ab.run.phases, "Print where the run's time went at the end");
  addMeasurementOptions(ab_cmd, ab.run);
  addSelectionOptions(ab_cmd, ab.run);
  ab_cmd->add_option("--min-effect", ab.diff.min_effect, "Smallest change of a median that counts, a fraction")
      ->capture_default_str();
  ab_cmd->add_option("--alpha", ab.diff.alpha, "Significance level of the test on the repetitions")->capture_default_str();

  CaptureCommand capture;
  auto* capture_cmd = app.add_subcommand("capture", "Run an OpenCL program unchanged and record its OpenCL calls, for a replay config (docs/capture.md)");
  capture_cmd->add_option("--out", capture.out, "Capture folder (default: rooflab-capture)");
  capture_cmd->add_option("--mechanism", capture.mechanism, "layer (OPENCL_LAYERS, default) | preload (LD_PRELOAD libOpenCL shim)");
  capture_cmd->add_option("command", capture.command, "-- PROGRAM ARGS...: the program to run, as you would run it");

  if (argc > 1 && argv[1][0] != '-') {
    const std::string command = argv[1];
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      known = known || sub->get_name() == command;
    if (!known) {
      std::fprintf(stderr, "rooflab: unknown command '%s' (expected run, ab, tune, capture, devices, list, ceilings, report, diff or merge)\n",
                   command.c_str());
      return static_cast<int>(ExitCode::bad_input);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::bad_input);
  }

  run.device_given = run_device->count() > 0;
  run.shard_given = run_shard->count() > 0;
  tune.run.device_given = tune_device->count() > 0;
  ab.run.device_given = ab_device->count() > 0;
  try {
    if (*run_cmd) return runCommand(run);
    if (*ab_cmd) return abCommand(ab);
    if (*tune_cmd) return tuneCommand(tune);
    if (*list_cmd) return listCommand(kernels_dir);
    if (app.got_subcommand("devices")) return devicesCommand();
    if (*ceilings_cmd) return ceilingsCommand(ceilings);
    if (*report_cmd) return reportCommand(report);
    if (*merge_cmd) return mergeCommand(merge);
    if (*capture_cmd) return captureCommand(capture);
    if (*diff_cmd) {
      if (threshold->count() > 0)
        std::fprintf(stderr, "rooflab: diff: --threshold is now --min-effect: a change counts when it is larger and "
                             "the test on the repetitions is significant (--alpha)\n");
      return diffCommand(diff);
    }
  } catch (const StopRequested& e) {
    std::fprintf(stderr, "rooflab: %s\n", e.what());
    return static_cast<int>(ExitCode::interrupted);
  } catch (const InputError& e) {
    std::fprintf(stderr, "rooflab: %s\n", terminalText(e.what(), true).c_str());
    return static_cast<int>(ExitCode::bad_input);
  } catch (const IoError& e) {
    std::fprintf(stderr, "rooflab: I/O error: %s\n", terminalText(e.what(), true).c_str());
    return static_cast<int>(ExitCode::io_error);
  } catch (const DeviceError& e) {
    std::fprintf(stderr, "rooflab: %s\n", terminalText(e.what(), true).c_str());
    return static_cast<int>(ExitCode::no_device);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooflab: unexpected error: %s\n", terminalText(e.what(), true).c_str());
    return static_cast<int>(ExitCode::variant_failed);
  }
  return 0;
}
