#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/run_comparison.hpp"

namespace rooflab {

struct RunCommand {
  std::string config_path;
  std::string device;
  std::string device_mode;    // --device-mode compare|shard
  std::string shard;          // --shard I/N, or "slurm": I/N from Slurm's environment
  bool device_given = false;  // --device was on the command line (an empty one is an error, not "auto")
  bool shard_given = false;   // --shard was (an empty one is an error, not the whole batch)
  std::string out;
  bool no_counters = false;
  bool quiet = false;
  bool keep_binaries = false;
  std::vector<std::string> formats;
  std::vector<std::string> set_params;  // --set NAME=VALUE[,VALUE...], repeatable
  std::vector<std::string> only;        // --only FAMILY/VARIANT patterns, repeatable or joined by commas
  bool show_mutants = false;            // the charts draw the mutants' markers
  bool phases = false;                  // print the phase table at the end (docs/cost.md)
  // The measurement, over the config's [run] keys of the same names (docs/using.md, "Measuring to a
  // noise target"): --repetitions, --max-noise, --min-time, --max-time.
  std::optional<int> repetitions;
  std::optional<double> max_noise;
  std::optional<double> min_time_s;
  std::optional<double> max_time_s;
  // The counters' sources, over the config's [run] keys of the same names and the environment's
  // ROOFLAB_EXTRA_METRICS and ROOFLAB_CUPTI_LIBRARY.
  std::optional<std::string> extra_metrics;  // --extra-metrics, as ROOFLAB_EXTRA_METRICS is written
  std::optional<std::string> cupti_library;  // --cupti-library
};
// `rooflab ab`: a baseline and a candidate interleaved in one batch (docs/cost.md, "A/B runs").
struct AbCommand {
  RunCommand run;                 // the baseline's config (run.config_path) and the run's options
  std::string candidate_path;     // the candidate's config; empty: the baseline's
  std::string baseline_kernels;   // the baseline's kernel folder, in place of its config's
  std::string candidate_kernels;  // the candidate's
  RunComparisonOptions diff;      // --min-effect, --alpha
};
// `rooflab tune [CONFIG]`: the run's options, and the search's.
struct TuneCommand {
  RunCommand run;
  std::string searcher = "guided";
  std::optional<std::size_t> budget;
  std::optional<double> time_budget_s;
  std::optional<std::string> seed;  // checked by parseSeedOption: a minus sign must not wrap
  bool fresh = false;
};
// `rooflab ceilings`: the model goes to <out>/kCeilingsModelFile, or to the terminal without --out.
inline constexpr const char* kCeilingsModelFile = "device-model.toml";
struct CeilingsCommand {
  std::string device = "auto";
  std::string out;  // a folder, as every command's --out
};
struct ReportCommand {
  std::string results_path;
  std::string out;
  std::vector<std::string> formats;
  bool show_mutants = false;  // the charts draw the mutants' markers
  bool phases = false;        // print the saved run's phase table
  bool quiet = false;         // no summary or info lines; the reports are still written
};
struct MergeCommand {
  std::vector<std::string> parts;  // output folders (their results.json, else journal.jsonl) or files
  std::string out;
  std::vector<std::string> formats;
  bool quiet = false;  // no summary or info lines; the merged results and report are still written
};
struct DiffCommand {
  std::string old_path;
  std::string new_path;          // empty: old_path is an A/B run's results, whose two sides are compared
  RunComparisonOptions options;  // --min-effect (or its old name --threshold), --alpha, --allow-other-device
};

// `rooflab capture`: a program run unchanged under the capture library (docs/capture.md).
struct CaptureCommand {
  std::vector<std::string> command;  // the program and its arguments, after --
  std::string out = "rooflab-capture";
  std::string mechanism = "layer";  // layer (OPENCL_LAYERS) | preload (LD_PRELOAD)
};

// Each returns the process exit code; InputError and DeviceError propagate to main().
int runCommand(const RunCommand& cmd);
int tuneCommand(const TuneCommand& cmd);
int listCommand(const std::string& kernels_dir);
int devicesCommand();
int ceilingsCommand(const CeilingsCommand& cmd);
int reportCommand(const ReportCommand& cmd);
int diffCommand(const DiffCommand& cmd);
int abCommand(const AbCommand& cmd);
int mergeCommand(const MergeCommand& cmd);
int captureCommand(const CaptureCommand& cmd);

}  // namespace rooflab
