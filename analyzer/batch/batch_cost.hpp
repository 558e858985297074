#pragma once
// Where a batch's wall time went (docs/cost.md, "Phases"): the batch marks its phases as they pass,
// the records bring their own (build, prepare, run, drift control, verify, counters), and the command
// line adds the reports. The table sums to the command's wall time.
#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

#include "analyzer/data/run_cost.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

// The wall seconds the batch measured around its own steps.
struct BatchTimes {
  double startup_seconds = 0;   // the command's start to the ceilings: config, plan, device, output folder
  double ceilings_seconds = 0;  // measured at the start (0 with [run] ceilings = "datasheet")
  bool ceilings_measured = false;
  double worker_start_seconds = 0;  // worker processes started (a fresh one after each crash)
  std::size_t worker_starts = 0;
  double points_seconds = 0;  // the loop over the points, worker starts included
  double finish_seconds = 0;  // after the last point: the batch's analysis, the results file
};

// The phase table of a batch: start-up, ceilings, worker start, each of the records' phases summed,
// the records' remainder (messages, placement, journal, checkpoints), the finish. `build_threads`:
// programs built in the background, for the build phase's detail.
BatchCost batchCost(const BatchTimes& times, const std::vector<RunRecord>& records, std::optional<int> build_threads);

// Adds the reports' phase and what the table does not hold ("other"), once the command's wall time
// is known.
void closeBatchCost(BatchCost& cost, double reports_seconds, double wall_seconds);

}  // namespace rooflab
