#pragma once
#include <string>
#include <vector>

#include "reports/text/diff_report.hpp"

namespace rooflab {

struct RunCommand {
  std::string config_path;
  std::string device;
  std::string device_mode;  // --device-mode compare|shard
  std::string shard;        // --shard I/N, or "slurm": I/N from Slurm's environment
  std::string out;
  bool no_counters = false;
  bool quiet = false;
  bool keep_binaries = false;
  std::vector<std::string> formats;
  std::vector<std::string> set_params;  // --set NAME=VALUE[,VALUE...], repeatable
  bool show_mutants = false;             // the charts draw the mutants' markers
};
struct CeilingsCommand {
  std::string device = "auto";
  std::string out;
};
struct ReportCommand {
  std::string results_path;
  std::string out;
  std::vector<std::string> formats;
  bool show_mutants = false;  // the charts draw the mutants' markers
};
struct MergeCommand {
  std::vector<std::string> parts;  // output folders (their results.json, else journal.jsonl) or files
  std::string out;
  std::vector<std::string> formats;
};
struct DiffCommand {
  std::string old_path;
  std::string new_path;
  reports::DiffOptions options;  // --min-effect (or its old name --threshold), --alpha, --allow-other-device
};

// Each returns the process exit code; InputError and DeviceError propagate to main().
int runCommand(const RunCommand& cmd);
int listCommand(const std::string& kernels_dir);
int devicesCommand();
int ceilingsCommand(const CeilingsCommand& cmd);
int reportCommand(const ReportCommand& cmd);
int diffCommand(const DiffCommand& cmd);
int mergeCommand(const MergeCommand& cmd);

}  // namespace rooflab
