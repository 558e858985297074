#pragma once
// Running a batch: plan (batch_plan), run each point (runner), write the results (results_writer),
// count and choose the exit code (batch_summary).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/batch/output_folder.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/run/runner.hpp"

namespace rooflab {

struct BatchOptions {
  std::string device_override;   // --device
  std::optional<DeviceMode> device_mode_override;  // --device-mode
  // --shard I/N: run part I of N of the batch (index, count and where they came from; the points
  // are filled in here).
  std::optional<BatchPart> part;
  std::string out_override;      // --out
  std::optional<CountersSetting> counters_override;  // --no-counters gives off
  std::vector<std::string> formats_override;
  bool progress = true;           // the progress line on stderr
  bool keep_binaries = false;     // write each program binary (PTX on NVIDIA) to <out>/binaries
};

struct BatchOutcome {
  ResultsDocument results;
  std::unique_ptr<OutputFolder> folder;  // locked until the outcome is gone (reports written)
  std::filesystem::path out_dir;
  ExitCode exit_code = ExitCode::ok;
};

// Measures the device's ceilings (unless [run] ceilings = "datasheet"), runs every point in a worker
// process, places each record on the roofline models, appends it to <out>/journal.jsonl and writes
// <out>/results.json at checkpoints and at the end. On several devices, compare measures each one's
// ceilings and runs every point on each in turn; shard measures the first one's and runs one worker
// per device at once. With a part, only the part's points run. Throws InputError for a bad or locked
// output folder, a batch over max_points, a device listed twice or a bad part; DeviceError when no
// device can be opened; IoError when a results file cannot be written; everything else is recorded.
BatchOutcome runBatch(const BatchConfig& config, const BatchOptions& options);

}  // namespace rooflab
