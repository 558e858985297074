#pragma once
// What a run cost rooflab itself (docs/cost.md), as typed values: where the batch's wall time went,
// the estimate it printed and how that estimate moved, and the control kernel each record was timed
// beside, from which `rooflab diff` measures how far a whole run drifted. Types only.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/batch_config.hpp"

namespace rooflab {

// One line of a batch's phase table: a phase, its wall seconds and what it holds, as counts that the
// table's detail (reports/text/cost_text.cpp) is written from; each is absent where the phase has none.
struct PhaseCost {
  std::string name;  // "start-up", "ceilings", "records: build (waiting)", ..., "reports", "other"
  double seconds = 0;
  std::optional<bool> ceilings_measured;        // "ceilings": measured, or the datasheet's
  std::optional<std::size_t> worker_starts;     // "worker start": worker processes started
  std::optional<std::size_t> programs_built;    // "records: build (waiting)": programs compiled
  std::optional<double> compiler_seconds;       // their compiler time, summed
  std::optional<int> build_threads;             // the background threads they were built on
  std::optional<std::size_t> records;           // "records: counters" (those with counters), "records: bookkeeping"
  std::optional<double> counters_mean_seconds;  // "records: counters": a record's mean
  std::optional<double> counters_passes_per_record;  // profiling passes, the mean
  std::optional<std::size_t> counters_reused;        // records that reused the metric set configuration
  // The detail as a results file written before these counts saved it, said as saved.
  std::optional<std::string> detail_as_saved;
};

// The estimate as it stood after a number of points: what remained of the batch, in seconds.
struct EstimateUpdate {
  std::size_t points_done = 0;
  double elapsed_seconds = 0;    // since the first estimate was printed
  double remaining_seconds = 0;  // of the points not run, the analysis and the reports
};

// The batch estimate (batch/batch_estimate.hpp): the one printed before the first point, then each
// update, made from the costs the batch had measured by then. Every figure counts from the moment the
// first was printed (after the ceilings) to the end of the reports.
struct BatchEstimateTrace {
  double initial_seconds = 0;
  std::vector<EstimateUpdate> updates;
  std::optional<double> actual_seconds;  // what it took; absent until the reports are written
};

// How the batch says an estimate's seconds (reports::estimateText, from the command line, as analyzer/
// writes no sentence); empty, the estimate is left out of what it prints.
using EstimateText = std::function<std::string(double seconds)>;

// What a batch says as it starts: its points, families and devices, how each point is measured, the
// estimate and where its results go.
struct BatchStart {
  std::size_t points = 0;
  std::size_t families = 0;
  std::string devices;  // the device, or the devices and how they share the points
  int warmup = 0;
  int repetitions = 0;    // at least this many timed runs
  double max_noise = 0;   // until the median is known to this fraction
  double max_time_s = 0;  // or this many seconds of timed runs
  std::optional<double> estimate_seconds;
  std::string results_path;
};

// How the batch says it (reports::batchStartText), for the same reason as EstimateText.
using BatchStartText = std::function<std::string(const BatchStart&)>;

// Where a batch's wall time went: its phases, in order, summing to wall_seconds.
struct BatchCost {
  double wall_seconds = 0;  // the command, from its start to the end of the reports
  std::vector<PhaseCost> phases;
  std::optional<BatchEstimateTrace> estimate;
};

// The control kernel a run times beside every point (run/drift_control.cpp): a fixed piece of work,
// the same in every run on a device type, so that its time moves only with the device and the host.
struct DriftControlSpec {
  std::string kernel;  // its name and shape, e.g. "rooflab_drift_control 65536 x 64 FMA"
  std::int64_t global_size = 0;
  int iterations = 0;
  int repetitions = 0;  // 0: one beside each of a record's first [run] repetitions timed runs
};

// The control kernel's timings beside one record, in device nanoseconds (OpenCL events): one right
// after each of its first timed runs (as many as [run] repetitions), in the same order.
struct DriftControlSample {
  double median_ns = 0;
  std::vector<double> repetitions_ns;
};

// An A/B run (`rooflab ab`): which of the two sides a record belongs to.
enum class AbSide { baseline, candidate };
std::string toString(AbSide side);  // "baseline" | "candidate"
std::optional<AbSide> parseAbSide(std::string_view text);

// What an A/B run compared: each side's config and kernel folders, as given. The document's config
// is the baseline's; the candidate's is kept here.
struct AbRun {
  std::string baseline;  // "a.toml (kernels: old/)"
  std::string candidate;
  std::optional<BatchConfig> candidate_config;
};

}  // namespace rooflab
