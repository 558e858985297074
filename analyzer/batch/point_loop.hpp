#pragma once
// The points of a batch run and recorded: one DeviceLoop per device runs its share of the points in
// its own worker process and analyses what it measured; every loop hands its records to the batch's
// one BatchRecords, which journals and checkpoints them, and shows each to the batch's BatchProgress.
// A batch sharded over devices runs its loops at once, on threads of their own; the records then
// merge into one document as they arrive.
#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/batch/batch_estimate.hpp"
#include "analyzer/batch/batch_summary.hpp"
#include "analyzer/batch/host_watch.hpp"
#include "analyzer/batch/point_worker.hpp"
#include "analyzer/batch/progress_line.hpp"
#include "analyzer/batch/results_writer.hpp"
#include "analyzer/batch/shard_queue.hpp"
#include "analyzer/diagnose/analysis.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// What the user sees while a batch runs, behind a lock of its own: the progress line, a line on
// stderr for each record that failed, and the estimate of what is left, which learns each point's
// cost from its record. It reads the records; it keeps none.
class BatchProgress {
 public:
  // `estimate_text` says the seconds left; empty, the progress line leaves them out.
  BatchProgress(bool progress, BatchEstimator& estimator, EstimateText estimate_text);
  // The progress line; `phase`: a point's phase, shown on a terminal only (a log keeps a line a point).
  void show(const std::string& line, bool phase = false);
  // What is left of the batch, for the progress line: " (about 25 s left)".
  std::string remainingText() const;
  // A point's record as its worker returned it: a failure is said, and the estimate told what the
  // point cost (`slot`, its wall seconds on the batch's side, a worker's start left out).
  void recorded(const RunRecord& record, std::size_t slot, double wall_seconds);
  // Ends the progress line, so that what is printed next starts on a line of its own.
  void finish();
  BatchEstimateTrace trace() const;

 private:
  void sayFailure(const RunRecord& record, RecordOutcome outcome);

  mutable std::mutex lock_;
  ProgressLine progress_;
  BatchEstimator& estimator_;
  EstimateText estimate_text_;
  std::chrono::steady_clock::time_point estimated_from_;  // when the first estimate was printed
};

// The analysis's part in recording a point: it adds its conclusions on the record at `index` (and
// may conclude its group); the index of another record it concluded, if any. Run under the
// records' lock, since a sharded batch's loops append at once.
using ConcludeRecord =
    std::function<std::optional<std::size_t>(const std::vector<RunRecord>&, Analysis&, std::size_t index)>;
// A loop stopped early: the records whose groups it concluded from what ran.
using ConcludeOpenGroups = std::function<std::vector<std::size_t>(const std::vector<RunRecord>&, Analysis&)>;

// The batch's records and their files, behind one lock: every device loop hands it the records its
// worker measured, which it appends, journals and checkpoints. The loops' analyses conclude through
// it (the document is shared); counting, progress and the estimate read the records.
class BatchRecords {
 public:
  // `points`: the records the batch is to make (its points, on each device that runs them all).
  BatchRecords(std::size_t points, ResultsDocument& document, ResultsWriter& results, HostWatch& host);

  // Appends a record as its worker returned it, lets `conclude` (its device's analysis) add its
  // conclusions, journals what changed and checkpoints results.json. `slot`: the record's place in
  // the plan's order. Throws IoError when a file cannot be written.
  void add(RunRecord record, std::optional<int> build_threads, std::size_t slot, const ConcludeRecord& conclude);
  // A loop stopped before its end: `conclude` concludes the groups it began from the records they
  // have, and they are journalled.
  void concludeOpenGroups(const ConcludeOpenGroups& conclude) noexcept;
  // Once every loop has ended: the what-ifs, the final summary, the phase table (`times`, its finish
  // measured here) and results.json. Whether the batch was interrupted.
  bool finish(bool interrupted, std::size_t points, BatchTimes& times, BatchProgress& progress);
  // A loop's IoError (a full disk): the batch's other loops stop after their point; the error is
  // rethrown, with where the records are, once every loop has ended.
  void failed(std::exception_ptr error);
  bool stopping() const;
  void rethrowFailure(std::size_t points, BatchProgress& progress);
  // The exit code the records call for, counted from them.
  ExitCode exitCode(bool interrupted, bool input_errors) const;

 private:
  void inSlotOrder();  // lock held

  mutable std::mutex lock_;
  std::size_t points_;
  ResultsDocument& document_;
  ResultsWriter& results_;
  HostWatch& host_;
  std::exception_ptr failure_;
  std::vector<std::size_t> record_slots_;  // each appended record's slot, in the order they came
};

// One device's share of a batch: its points, run in order in its own worker process. A group's
// verdict waits for its last point here, whatever order the points run in.
struct DeviceShare {
  std::vector<std::size_t> points;  // indices into the plan
  const RooflineModels* models = nullptr;
  DeviceInfo device;
  std::optional<std::string> key;              // on several devices: what its records carry in `device`
  std::map<std::size_t, std::size_t> slots;    // plan index -> its slot in the batch's estimate
  const std::vector<AbSide>* sides = nullptr;  // an A/B run's, by plan index: what its records carry
  // A sharded batch's: where its points come from (`points` are its own groups'), and the device's
  // number there; the worker prepares `prepared` (ShardQueue::preparationOrder).
  std::shared_ptr<ShardQueue> queue;
  std::size_t queue_device = 0;
  std::vector<std::size_t> prepared;
  // The points a queue gives are run in orderByMetricSet's order (`points` and `prepared` come so).
  bool by_metric_set = false;
};

class DeviceLoop {
 public:
  // `setup`: the worker's, for this device; its points become the share's.
  DeviceLoop(const BatchPlan& plan, DeviceShare share, WorkerSetup setup, BatchRecords& records,
             BatchProgress& progress);
  // Runs the share's points (with a queue, the groups it gives) until they are done, the user asks to
  // stop or another loop failed; whether it stopped before the end. Never throws: a failure goes to
  // BatchRecords.
  bool run();
  // Wall seconds its worker processes took to start, and how many started.
  double workerStartSeconds() const { return worker_.startSeconds(); }
  std::size_t workerStarts() const { return worker_.starts(); }

 private:
  bool runPoints();  // whether it stopped before the end; throws what a point's bookkeeping threw
  bool runPoint(std::size_t i);
  // `points` are to run here: their groups close once their last point has run, in any order.
  void expect(const std::vector<std::size_t>& points);

  const BatchPlan& plan_;
  DeviceShare share_;
  std::size_t points_run_ = 0;
  std::size_t points_total_ = 0;                   // its own, and those it took from other devices
  std::vector<std::size_t> group_of_;              // plan index -> its group's first plan index
  std::map<std::size_t, std::size_t> group_left_;  // group -> its points expected here and not yet run
  PointWorker worker_;
  BatchRecords& records_;
  BatchProgress& progress_;
  RecordAnalysis analysis_;
};

}  // namespace rooflab
