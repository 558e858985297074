#pragma once
// Running a batch: plan (batch_plan), run each point (runner), write the results (results_writer),
// count and choose the exit code (batch_summary).
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/batch/output_folder.hpp"
#include "analyzer/batch/results_writer.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/run/runner.hpp"

namespace rooflab {

struct BatchOptions {
  std::string device_override;                     // --device
  std::optional<DeviceMode> device_mode_override;  // --device-mode
  // --shard I/N: run part I of N of the batch (index, count and where they came from; the points
  // are filled in here).
  std::optional<BatchPart> part;
  std::string out_override;                          // --out
  std::optional<CountersSetting> counters_override;  // --no-counters gives off
  std::vector<std::string> formats_override;
  bool progress = true;        // the progress line on stderr
  bool keep_binaries = false;  // write each program binary (PTX on NVIDIA) to <out>/binaries
  // --only: `family/variant` patterns (`*` and `?`); the batch runs only the points of the variants
  // that match one. Empty: every point.
  std::vector<std::string> only;
  // When the command started: the phase table's start-up counts from here.
  std::chrono::steady_clock::time_point command_started = std::chrono::steady_clock::now();
  // How the warnings say why the host is noisy (reports::hostNoiseText, from the command line, as
  // analyzer/ does not write sentences); empty, they are left out.
  HostNoiseText host_noise_text;
  // How the ceilings measured at the start are logged (reports::ceilingsTable) and how each measured
  // roof's source note reads (reports::measuredRoofSource), from the command line for the same
  // reason; empty, they are left out.
  CeilingsWords ceilings_words;
  // How the start line and the progress line say the estimate (reports::estimateText).
  EstimateText estimate_text;
  // The start line (reports::batchStartText), the GPU clock sampled (reports::gpuClockText) and the
  // sizes a family's size rules chose (reports::sizeChoiceText); empty, each is left out.
  BatchStartText start_text;
  GpuClockText gpu_clock_text;
  SizeChoiceText size_choice_text;
};

struct BatchOutcome {
  ResultsDocument results;
  std::unique_ptr<OutputFolder> folder;  // locked until the outcome is gone (reports written)
  std::filesystem::path out_dir;
  ExitCode exit_code = ExitCode::ok;
};

// The steps of a batch that `rooflab tune` shares with it:
// the config with the command line's device, output folder, counters and formats;
BatchConfig withBatchOptions(BatchConfig config, const BatchOptions& options);
// every input error of a plan as one message, a line each (the first 20);
std::string joinedInputErrors(const std::vector<std::string>& errors);
// the roofline models of a device (the ceilings measured unless [run] ceilings = "datasheet") and the
// seconds they took; `show_log` prints the ceilings' table; the host link and the launch are measured
// when a point runs end to end or `measure_link` asks (a captured application's timeline);
struct MeasuredModels {
  RooflineModels models;
  double seconds = 0;
};
MeasuredModels measureModels(const RunSettings& settings, const SelectedDevice& device, bool show_log,
                             const CeilingsWords& ceilings_words, const BatchPlan& plan, bool measure_link = false);
// the plan again with the sizes that its size rules choose on this device (said by size_choice_text
// and kept in the results), or `plan` itself when no study gives a rule; with `datasheet_roofs`, from the device's
// datasheet model rather than its measured ceilings (so that the parts of a batch choose alike).
// Throws InputError when a rule cannot be met.
std::shared_ptr<const BatchPlan> planForDevice(const BatchConfig& config, std::shared_ptr<const BatchPlan> plan,
                                               const SelectedDevice& device, const RooflineModels& models,
                                               ResultsWriter& results, bool datasheet_roofs = false,
                                               const SizeChoiceText& size_choice_text = {});

// Measures the device's ceilings (unless [run] ceilings = "datasheet"), runs every point in a worker
// process, places each record on the roofline models, appends it to <out>/journal.jsonl and writes
// <out>/results.json at checkpoints and at the end. On several devices, compare measures each one's
// ceilings and runs every point on each in turn; shard measures the first one's and runs one worker
// per device at once. With a part, only the part's points run. Throws InputError for a bad or locked
// output folder, a batch over max_points, a device listed twice or a bad part; DeviceError when no
// device can be opened; IoError when a results file cannot be written; everything else is recorded.
BatchOutcome runBatch(const BatchConfig& config, const BatchOptions& options);

// The two sides of an A/B run (`rooflab ab`): two configs, or one config with two kernel folders.
struct AbConfigs {
  BatchConfig baseline;
  BatchConfig candidate;
  std::string baseline_label;  // what the results and the diff call each side
  std::string candidate_label;
};

// Runs both sides' points in one batch, a variant of one side right after the same variant of the
// other (ab_plan.hpp), with the baseline's [run] settings and output folder; each record carries its
// side. Points only one side plans are named and not run. Throws as runBatch does, and InputError when
// the sides share no point.
BatchOutcome runAbBatch(const AbConfigs& configs, const BatchOptions& options);

}  // namespace rooflab
