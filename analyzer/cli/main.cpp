// rooflab command line: parses arguments, calls the analyzer, maps failures to the exit codes (docs/using.md).
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>

#include "analyzer/cli/commands.hpp"
#include "analyzer/cli/work_count_command.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "mutators/auto_mutation.hpp"
#include "analyzer/batch/worker_main.hpp"

namespace {

using namespace rooflab;

// One function per concern: a command that takes the concern gets the whole group, with the same help
// text as every other command that takes it, so that a flag means one thing wherever it appears. Each
// group is a section of the command's --help (Option::group: CLI11's option groups would add a header
// and an "Options:" line to every section).

// The device options a command's runner reads after the parse: their counts tell an empty value given
// from none given. `shard` is null where the command has no --shard.
struct DeviceOptions {
  CLI::Option* device = nullptr;
  CLI::Option* shard = nullptr;
};

// --device, in every command that runs on a device; --device-mode and --shard in those that may run on
// several (`run`).
DeviceOptions addDeviceOptions(CLI::App* command, std::string& device, RunCommand* several_devices = nullptr) {
  DeviceOptions added;
  added.device = command
                     ->add_option("--device", device,
                                  "auto | gpu | cpu | P:D | pci:BUS | name substring (rooflab devices lists them); "
                                  "run and ab also take all, or several joined by commas")
                     ->group("Device");
  if (several_devices != nullptr) {
    command
        ->add_option("--device-mode", several_devices->device_mode,
                     "With several devices: compare (every point on each) or shard (the points split over them)")
        ->group("Device");
    added.shard = command
                      ->add_option("--shard", several_devices->shard,
                                   "Run part I of N of the batch (I/N), or the part Slurm's environment names (slurm)")
                      ->group("Device");
  }
  return added;
}

// Where the command writes, in which formats, and whether it says so. `out_default` is what a command
// writes to without --out (the help says it after the common text); null targets are options the
// command does not take.
struct OutputTargets {
  std::string* out = nullptr;
  std::string out_default;
  std::vector<std::string>* formats = nullptr;
  bool* quiet = nullptr;
};

CLI::Option* addOutputOptions(CLI::App* command, const OutputTargets& targets) {
  CLI::Option* out = command->add_option("--out", *targets.out, "Output folder" + targets.out_default)->group("Output");
  if (targets.formats != nullptr)
    command->add_option("--formats", *targets.formats, "Report formats: html,png,json,csv (joined by commas)")
        ->delimiter(',')
        ->group("Output");
  if (targets.quiet != nullptr)
    command
        ->add_flag(
            "--quiet", *targets.quiet,
            "No progress or info lines on the terminal (the files are still written; warnings and errors still show)")
        ->group("Output");
  return out;
}

// Hardware counters: whether to read them, which raw metrics beyond the table, and which libcupti.
void addCountersOptions(CLI::App* command, RunCommand& run) {
  command->add_flag("--no-counters", run.no_counters, "Do not read hardware counters (over [run] counters)")
      ->group("Counters");
  command
      ->add_option(
          "--extra-metrics", run.extra_metrics,
          "Raw CUPTI metrics to collect beyond the table, joined by commas or spaces (over [run] extra_metrics "
          "and ROOFLAB_EXTRA_METRICS)")
      ->group("Counters");
  command
      ->add_option("--cupti-library", run.cupti_library,
                   "The libcupti to load first (over [run] cupti_library and ROOFLAB_CUPTI_LIBRARY)")
      ->group("Counters");
}

// The measurement flags, alike in every command that runs points: they override the config's [run]
// keys of the same names.
void addMeasurementOptions(CLI::App* command, RunCommand& run) {
  command
      ->add_option("--repetitions", run.repetitions, "Timed runs of every point, at least (the config's repetitions)")
      ->group("Measurement");
  command
      ->add_option("--max-noise", run.max_noise,
                   "Repeat until the median's 95% interval is within this fraction of it (max_noise)")
      ->group("Measurement");
  command->add_option("--min-time", run.min_time_s, "Seconds of timed runs a point takes at least (min_time)")
      ->group("Measurement");
  command->add_option("--max-time", run.max_time_s, "Seconds of timed runs a point takes at most (max_time)")
      ->group("Measurement");
}

// Which of the batch's points run, alike in run and ab.
void addSelectionOptions(CLI::App* command, RunCommand& run) {
  command
      ->add_option("--only", run.only,
                   "Run only the variants FAMILY/VARIANT names, with * and ? (matmul/tiled*); repeatable or "
                   "joined by commas")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->group("Selection");
}

// A subcommand and what runs it once it is the one parsed. The runner owns the command's options, so
// that main() holds nothing of any command.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

constexpr const char* kOutFromConfig = " (default: the config's [run].out)";

Subcommand addRunCommand(CLI::App& app) {
  auto cmd = std::make_shared<RunCommand>();
  CLI::App* sub = app.add_subcommand("run", "Run a batch config (default: the embedded configs/default.toml)");
  sub->add_option("config", cmd->config_path, "Batch config TOML");
  // One NAME=VALUE per --set, so that `--set N=1 config.toml` leaves the config to the positional.
  sub->add_option("--set", cmd->set_params,
                  "Override a study parameter: NAME=VALUE or NAME=V1,V2 (a sweep); repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--show-mutants", cmd->show_mutants,
                "Draw each variant's compute-only and memory-only mutants on the roofline charts");
  sub->add_flag("--keep-binaries", cmd->keep_binaries, "Write each program binary (PTX on NVIDIA) to <out>/binaries");
  sub->add_flag("--phases", cmd->phases, "Print where the run's time went at the end (docs/cost.md)");
  const DeviceOptions device = addDeviceOptions(sub, cmd->device, cmd.get());
  addOutputOptions(sub, {&cmd->out, kOutFromConfig, &cmd->formats, &cmd->quiet});
  addCountersOptions(sub, *cmd);
  addMeasurementOptions(sub, *cmd);
  addSelectionOptions(sub, *cmd);
  return {sub, [cmd, device] {
            cmd->device_given = device.device->count() > 0;
            cmd->shard_given = device.shard->count() > 0;
            return runCommand(*cmd);
          }};
}

Subcommand addTuneCommand(CLI::App& app) {
  auto cmd = std::make_shared<TuneCommand>();
  CLI::App* sub =
      app.add_subcommand("tune", "Search the tuning spaces of a config's studied variants (docs/tuning.md)");
  sub->add_option("config", cmd->run.config_path, "Batch config TOML (default: the embedded configs/default.toml)");
  sub->add_option("--searcher", cmd->searcher, "exhaustive | random | guided (default guided)");
  sub->add_option("--budget", cmd->budget,
                  "Configurations to run per search (default: all for exhaustive, else a quarter)");
  sub->add_option("--time-budget", cmd->time_budget_s, "Seconds per search");
  sub->add_option("--seed", cmd->seed, "Seed of the random and guided searchers (default: [run] seed)");
  sub->add_flag("--fresh", cmd->fresh, "Start the journal anew instead of resuming from it");
  sub->add_option("--set", cmd->run.set_params, "Override a study parameter: NAME=VALUE; repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--phases", cmd->run.phases, "Print where the run's time went at the end (docs/cost.md)");
  CLI::Option* device = addDeviceOptions(sub, cmd->run.device).device;
  addOutputOptions(sub, {&cmd->run.out, kOutFromConfig, &cmd->run.formats, &cmd->run.quiet});
  addCountersOptions(sub, cmd->run);
  addMeasurementOptions(sub, cmd->run);
  return {sub, [cmd, device] {
            cmd->run.device_given = device->count() > 0;
            return tuneCommand(*cmd);
          }};
}

Subcommand addAbCommand(CLI::App& app) {
  auto cmd = std::make_shared<AbCommand>();
  CLI::App* sub =
      app.add_subcommand("ab", "A baseline and a candidate run interleaved in one batch, then compared as diff does");
  sub->add_option("baseline", cmd->run.config_path, "The baseline's batch config (its [run] settings are the run's)")
      ->required();
  sub->add_option("candidate", cmd->candidate_path, "The candidate's batch config (default: the baseline's)");
  sub->add_option("--baseline-kernels", cmd->baseline_kernels,
                  "The baseline's kernel folder, in place of its config's");
  sub->add_option("--candidate-kernels", cmd->candidate_kernels,
                  "The candidate's kernel folder, in place of its config's");
  sub->add_option("--set", cmd->run.set_params, "Override a study parameter of both sides: NAME=VALUE[,VALUE...]")
      ->allow_extra_args(false);
  sub->add_flag("--phases", cmd->run.phases, "Print where the run's time went at the end (docs/cost.md)");
  sub->add_option("--min-effect", cmd->diff.min_effect, "Smallest change of a median that counts, a fraction")
      ->capture_default_str();
  sub->add_option("--alpha", cmd->diff.alpha, "Significance level of the test on the repetitions")
      ->capture_default_str();
  CLI::Option* device = addDeviceOptions(sub, cmd->run.device).device;
  addOutputOptions(sub, {&cmd->run.out, " (default: the baseline's [run].out)", &cmd->run.formats, &cmd->run.quiet});
  addCountersOptions(sub, cmd->run);
  addMeasurementOptions(sub, cmd->run);
  addSelectionOptions(sub, cmd->run);
  return {sub, [cmd, device] {
            cmd->run.device_given = device->count() > 0;
            return abCommand(*cmd);
          }};
}

Subcommand addCeilingsCommand(CLI::App& app) {
  auto cmd = std::make_shared<CeilingsCommand>();
  CLI::App* sub = app.add_subcommand("ceilings", "Measure empirical ceilings and write a device model TOML");
  addDeviceOptions(sub, cmd->device);
  addOutputOptions(sub, {&cmd->out, " for the measured model, DIR/" + std::string(kCeilingsModelFile) +
                                        " (default: the model printed on the terminal)"});
  return {sub, [cmd] { return ceilingsCommand(*cmd); }};
}

Subcommand addReportCommand(CLI::App& app) {
  auto cmd = std::make_shared<ReportCommand>();
  CLI::App* sub = app.add_subcommand("report", "Re-render reports from a saved results JSON (no device needed)");
  sub->add_option("results", cmd->results_path, "results.json")->required();
  sub->add_flag("--show-mutants", cmd->show_mutants,
                "Draw each variant's compute-only and memory-only mutants on the roofline charts");
  sub->add_flag("--phases", cmd->phases, "Print where the saved run's time went (docs/cost.md)");
  addOutputOptions(sub, {&cmd->out, " (default: the results file's folder)", &cmd->formats, &cmd->quiet});
  return {sub, [cmd] { return reportCommand(*cmd); }};
}

Subcommand addMergeCommand(CLI::App& app) {
  auto cmd = std::make_shared<MergeCommand>();
  CLI::App* sub = app.add_subcommand(
      "merge", "Join the parts of a batch (rooflab run --shard I/N) into one results.json and report");
  sub->add_option("parts", cmd->parts, "Each part's output folder (or its results.json or journal.jsonl)")->required();
  addOutputOptions(sub, {&cmd->out, " of the merged results and report (required)", &cmd->formats, &cmd->quiet})
      ->required();
  return {sub, [cmd] { return mergeCommand(*cmd); }};
}

Subcommand addDiffCommand(CLI::App& app) {
  auto cmd = std::make_shared<DiffCommand>();
  CLI::App* sub = app.add_subcommand(
      "diff", "Per-record changes between two runs: a test on their repetitions and a minimum effect");
  sub->add_option("old", cmd->old_path, "Old results.json")->required();
  sub->add_option("new", cmd->new_path, "New results.json (absent: OLD is an A/B run's, whose sides are compared)");
  CLI::Option* min_effect = sub->add_option("--min-effect", cmd->options.min_effect,
                                            "Smallest change of a median that counts, a fraction of the old median")
                                ->capture_default_str();
  // --threshold was the median-only rule's slow-down fraction; it now sets the minimum effect, which
  // a change must also pass the test to count as.
  CLI::Option* threshold =
      sub->add_option("--threshold", cmd->options.min_effect, "Former name of --min-effect")->excludes(min_effect);
  sub->add_option("--alpha", cmd->options.alpha, "Significance level of the test on the repetitions")
      ->capture_default_str();
  sub->add_flag("--allow-other-device", cmd->options.allow_other_device,
                "Compare runs made on different devices (refused by default, exit 2)");
  return {sub, [cmd, threshold] {
            if (threshold->count() > 0)
              std::fprintf(stderr,
                           "rooflab: diff: --threshold is now --min-effect: a change counts when it is larger and "
                           "the test on the repetitions is significant (--alpha)\n");
            return diffCommand(*cmd);
          }};
}

Subcommand addCaptureCommand(CLI::App& app) {
  auto cmd = std::make_shared<CaptureCommand>();
  CLI::App* sub = app.add_subcommand(
      "capture", "Run an OpenCL program unchanged and record its OpenCL calls, for a replay config (docs/capture.md)");
  sub->add_option("--out", cmd->out, "Capture folder (default: rooflab-capture)");
  sub->add_option("--mechanism", cmd->mechanism,
                  "layer (OPENCL_LAYERS, default) | preload (LD_PRELOAD libOpenCL shim)");
  sub->add_option("command", cmd->command, "-- PROGRAM ARGS...: the program to run, as you would run it");
  return {sub, [cmd] { return captureCommand(*cmd); }};
}

Subcommand addListCommand(CLI::App& app) {
  auto kernels_dir = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("list", "List kernel families, variants and parameters");
  sub->add_option("--kernels", *kernels_dir, "Kernel folder (default: the built-in kernels/)");
  return {sub, [kernels_dir] { return listCommand(*kernels_dir); }};
}

Subcommand addDevicesCommand(CLI::App& app) {
  return {app.add_subcommand("devices", "List OpenCL platforms and devices, with the matching device model"),
          [] { return devicesCommand(); }};
}

// The processes rooflab starts itself, not commands for users; -1 when argv names none of them.
int runInternalCommand(int argc, char** argv) {
  // The batch's worker process (analyzer/batch/point_worker.cpp).
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
  return -1;
}

// CLI11 would read an unknown command as a stray positional; the user is told what the commands are.
bool refusedUnknownCommand(const CLI::App& app, int argc, char** argv) {
  if (argc <= 1 || argv[1][0] == '-') return false;
  const std::string command = argv[1];
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == command) return false;
  std::fprintf(stderr,
               "rooflab: unknown command '%s' (expected run, ab, tune, capture, devices, list, ceilings, report, diff "
               "or merge)\n",
               command.c_str());
  return true;
}

// The exit code of a command that threw: the error's kind decides it (docs/using.md, exit codes).
int exitCodeOfError(const std::function<int()>& command) {
  try {
    return command();
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
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) is a full disk to rooflab: the write fails with EFBIG and the error
  // says where the records are, instead of SIGXFSZ ending the process without a word. The worker
  // inherits it.
  std::signal(SIGXFSZ, SIG_IGN);
  if (const int internal = runInternalCommand(argc, argv); internal >= 0) return internal;
  CLI::App app{"rooflab: roofline profiler for OpenCL kernels"};
  app.require_subcommand(1);
  // The build's optional features; a function, so that only --version loads libclang to tell.
  app.set_version_flag("--version", std::function<std::string()>([] {
                         return std::string("rooflab ") + ROOFLAB_VERSION + "\nautomatic mutants: " +
                                (automaticMutantsAvailable() ? "on (libclang)" : automaticMutantsOffReason());
                       }));
  // In the order `rooflab --help` lists them.
  const std::vector<Subcommand> commands = {
      addRunCommand(app),    addTuneCommand(app),  addListCommand(app), addDevicesCommand(app), addCeilingsCommand(app),
      addReportCommand(app), addMergeCommand(app), addDiffCommand(app), addAbCommand(app),      addCaptureCommand(app)};
  if (refusedUnknownCommand(app, argc, argv)) return static_cast<int>(ExitCode::bad_input);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::bad_input);
  }
  for (const Subcommand& command : commands)
    if (*command.app) return exitCodeOfError(command.run);
  return 0;
}
