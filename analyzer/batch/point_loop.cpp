#include "analyzer/batch/point_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <utility>

#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/plan/plan_parts.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/wall_clock.hpp"

namespace rooflab {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

BatchProgress::BatchProgress(bool progress, BatchEstimator& estimator, EstimateText estimate_text)
    : progress_(progress),
      estimator_(estimator),
      estimate_text_(std::move(estimate_text)),
      estimated_from_(Clock::now()) {}

std::string BatchProgress::remainingText() const {
  const std::lock_guard<std::mutex> hold(lock_);
  if (!estimate_text_) return "";
  return " (" + estimate_text_(estimator_.remainingSeconds()) + " left)";
}

void BatchProgress::show(const std::string& line, bool phase) {
  const std::lock_guard<std::mutex> hold(lock_);
  if (!phase || progress_.tty()) progress_.show(line);
}

void BatchProgress::recorded(const RunRecord& record, std::size_t slot, double wall_seconds) {
  const std::lock_guard<std::mutex> hold(lock_);
  sayFailure(record, recordOutcome(record));
  const double timed_seconds = record.phase_seconds.count("run") ? record.phase_seconds.at("run") : 0;
  estimator_.pointDone(slot, wall_seconds, timed_seconds, secondsSince(estimated_from_));
}

void BatchProgress::finish() {
  const std::lock_guard<std::mutex> hold(lock_);
  progress_.finish();
}

BatchEstimateTrace BatchProgress::trace() const {
  const std::lock_guard<std::mutex> hold(lock_);
  return estimator_.trace();
}

void BatchProgress::sayFailure(const RunRecord& record, RecordOutcome outcome) {
  const std::string on = record.device ? " (on " + *record.device + ")" : "";
  if (outcome == RecordOutcome::failed) {
    progress_.finish();
    std::fprintf(stderr, "rooflab: %s: %s%s\n", toString(record.status).c_str(), record.status_reason.c_str(),
                 on.c_str());
  } else if (outcome == RecordOutcome::verification_failed) {
    progress_.finish();
    std::fprintf(stderr, "rooflab: verification failed: %s%s: %s\n", record.label().c_str(), on.c_str(),
                 record.verification.detail.c_str());
  } else if (outcome == RecordOutcome::end_to_end_failed) {
    progress_.finish();
    for (const EndToEndRun& run : record.end_to_end->runs)
      if (run.error || run.verification.status == VerificationStatus::failed)
        std::fprintf(stderr, "rooflab: end-to-end %s failed: %s%s: %s\n", toString(run.strategy).c_str(),
                     record.label().c_str(), on.c_str(),
                     run.error ? run.error->c_str() : run.verification.detail.c_str());
  }
}

BatchRecords::BatchRecords(std::size_t points, ResultsDocument& document, ResultsWriter& results, HostWatch& host)
    : points_(points), document_(document), results_(results), host_(host) {}

void BatchRecords::add(RunRecord record, std::optional<int> build_threads, std::size_t slot,
                       const ConcludeRecord& conclude) {
  const std::lock_guard<std::mutex> hold(lock_);
  host_.sample();
  if (build_threads) results_.setBuildThreads(*build_threads);
  const std::size_t index = results_.append(std::move(record));
  record_slots_.push_back(slot);
  const std::optional<std::size_t> concluded = conclude(document_.records, document_.analysis, index);
  results_.journal(index);
  if (concluded && *concluded != index) results_.journal(*concluded);
  results_.setSummary(tallyRecords(document_.records, points_).summary());
  results_.checkpoint();
}

ExitCode BatchRecords::exitCode(bool interrupted, bool input_errors) const {
  const std::lock_guard<std::mutex> hold(lock_);
  return tallyRecords(document_.records, points_).exitCode(interrupted, input_errors);
}

bool BatchRecords::finish(bool interrupted, std::size_t points, BatchTimes& times, BatchProgress& progress) {
  const std::lock_guard<std::mutex> hold(lock_);
  const Clock::time_point finish_started = Clock::now();
  progress.finish();
  interrupted = interrupted || stopRequests() > 0;
  results_.setHost(host_.condition());
  host_.reportAtEnd();
  inSlotOrder();
  RecordAnalysis::batchOver(document_.records, document_.analysis);
  results_.finish(interrupted, tallyRecords(document_.records, points_).finalSummary(results_.records()));
  // Interrupted before its first record, the batch has nothing to put in the place of the earlier
  // run's results: the folder gives them back their names (OutputFolder) and nothing is written.
  if (interrupted && results_.records() == 0) {
    std::fprintf(stderr,
                 "rooflab: interrupted before the first point ended: nothing written; %s keeps what the "
                 "earlier run wrote there\n",
                 results_.path().parent_path().c_str());
    return true;
  }
  times.finish_seconds = secondsSince(finish_started);
  document_.cost = batchCost(times, document_.records, document_.build_threads);
  document_.cost->estimate = progress.trace();
  results_.write();
  // A run killed outright says nothing: this is where a user learns that its journal keeps every record.
  if (interrupted)
    std::fprintf(stderr,
                 "rooflab: interrupted: %zu of %zu points done, %zu not run; their records are in %s (a run killed "
                 "outright keeps every record it measured in its journal: `rooflab report %s` reads them back)\n",
                 results_.records(), points, points - results_.records(), results_.path().c_str(),
                 results_.journalPath().c_str());
  return interrupted;
}

void BatchRecords::concludeOpenGroups(const ConcludeOpenGroups& conclude) noexcept {
  const std::lock_guard<std::mutex> hold(lock_);
  try {
    for (const std::size_t index : conclude(document_.records, document_.analysis)) results_.journal(index);
  } catch (...) {
    // A full disk: the run already stops on it (failed), and its results file is written at the end.
  }
}

// The records as the plan lists them (the journal keeps the order they came in): the loops may run
// their points in another order (a queue's groups, orderByMetricSet) and several loops at once.
void BatchRecords::inSlotOrder() {
  if (record_slots_.size() != document_.records.size() || std::is_sorted(record_slots_.begin(), record_slots_.end()))
    return;
  std::vector<std::size_t> order(record_slots_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return record_slots_[a] < record_slots_[b]; });
  std::vector<RunRecord> sorted;
  std::vector<RecordConclusions> sorted_conclusions;
  sorted.reserve(order.size());
  sorted_conclusions.reserve(order.size());
  document_.analysis.records.resize(document_.records.size());
  for (const std::size_t i : order) {
    sorted.push_back(std::move(document_.records[i]));
    sorted_conclusions.push_back(std::move(document_.analysis.records[i]));
  }
  document_.records = std::move(sorted);
  document_.analysis.records = std::move(sorted_conclusions);
  std::sort(record_slots_.begin(), record_slots_.end());
}

void BatchRecords::failed(std::exception_ptr error) {
  const std::lock_guard<std::mutex> hold(lock_);
  if (!failure_) failure_ = error;
}

bool BatchRecords::stopping() const {
  const std::lock_guard<std::mutex> hold(lock_);
  return failure_ != nullptr;
}

// The disk is full (or a file size limit reached): what the earlier writes kept, and how to read it.
void BatchRecords::rethrowFailure(std::size_t points, BatchProgress& progress) {
  if (!failure_) return;
  try {
    std::rethrow_exception(failure_);
  } catch (const IoError& e) {
    progress.finish();
    try {
      results_.finish(true, tallyRecords(document_.records, points_).finalSummary(results_.records()));
      results_.write();
    } catch (const IoError&) {
      // The disk is still full: the hint below says what the earlier writes kept.
    }
    throw IoError(std::string(e.what()) + "; " + results_.recoveryHint(points));
  }
}

namespace {

WorkerSetup withPoints(WorkerSetup setup, const std::vector<std::size_t>& points) {
  setup.points = points;
  return setup;
}

}  // namespace

DeviceLoop::DeviceLoop(const BatchPlan& plan, DeviceShare share, WorkerSetup setup, BatchRecords& records,
                       BatchProgress& progress)
    : plan_(plan),
      share_(std::move(share)),
      points_total_(share_.points.size()),
      worker_(withPoints(std::move(setup), share_.prepared.empty() ? share_.points : share_.prepared),
              share_.device.name),
      records_(records),
      progress_(progress),
      analysis_(DeviceAnalysisInputs{*share_.models, share_.device.type == "CPU"}) {
  group_of_.resize(plan_.points.size());
  for (std::size_t i = 0; i < plan_.points.size(); ++i)
    group_of_[i] = i > 0 && !plan_.closesGroup(i - 1) ? group_of_[i - 1] : i;
}

bool DeviceLoop::run() {
  bool stopped = true;
  try {
    stopped = runPoints();
  } catch (...) {
    records_.failed(std::current_exception());
  }
  // Stopped early, a group may lack its last records (its mutants, run after the set's originals):
  // its original gets what the modes that ran can say.
  if (stopped)
    records_.concludeOpenGroups([this](const std::vector<RunRecord>& records, Analysis& analysis) {
      return analysis_.concludeOpenGroups(records, analysis);
    });
  return stopped;
}

bool DeviceLoop::runPoints() {
  auto stop = [&](std::size_t i) { return stopRequests() > 0 || records_.stopping() || !runPoint(i); };
  if (!share_.queue) {
    expect(share_.points);
    for (const std::size_t i : share_.points)
      if (stop(i)) return true;
    return false;
  }
  while (std::optional<ShardQueue::Taken> taken = share_.queue->next(share_.queue_device)) {
    if (!taken->own) points_total_ += taken->points.size();
    const std::vector<std::size_t> points =
        share_.by_metric_set ? orderByMetricSet(plan_, taken->points) : std::move(taken->points);
    expect(points);
    for (const std::size_t i : points)
      if (stop(i)) return true;
  }
  return false;
}

void DeviceLoop::expect(const std::vector<std::size_t>& points) {
  for (const std::size_t i : points) ++group_left_[group_of_[i]];
}

// False when the user asked to stop now: the point has no record.
bool DeviceLoop::runPoint(std::size_t i) {
  const RunPoint& point = plan_.points[i].run_point;
  const std::string prefix =
      "[" + std::to_string(++points_run_) + "/" + std::to_string(points_total_) + "] " +
      (share_.sides ? toString(share_.sides->at(i)) + ": " : std::string()) + point.family->name + "/" +
      point.variant->name + " " + paramsLabel(point.params, point.family->param_order) + " " + modeName(point.mode) +
      (point.what_if ? " " + point.what_if->name : "") + (share_.key ? " on " + *share_.key : "");
  const std::string eta = progress_.remainingText();
  progress_.show(prefix + eta);
  const auto started = std::chrono::steady_clock::now();
  const double worker_start_before = worker_.startSeconds();
  RunRecord stub = recordFor(point);
  stub.device = share_.key;
  if (share_.sides) stub.ab_side = share_.sides->at(i);
  std::optional<RunRecord> record = worker_.run(i, std::move(stub), [&](const char* phase, int index, int count) {
    progress_.show(prefix + ": " + phase + " " + std::to_string(index + 1) + "/" + std::to_string(count) + eta, true);
  });
  if (!record) return false;
  // The point's cost as the batch saw it, less a worker's start (a cost of the batch, not of the point).
  const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() -
                              (worker_.startSeconds() - worker_start_before);
  const bool closes_group = --group_left_[group_of_[i]] == 0;
  const std::size_t slot = share_.slots.at(i);
  progress_.recorded(*record, slot, wall_seconds);
  records_.add(std::move(*record), worker_.buildThreads(), slot,
               [&](const std::vector<RunRecord>& records, Analysis& analysis, std::size_t index) {
                 return analysis_.recordAdded(records, analysis, index, closes_group);
               });
  return true;
}

}  // namespace rooflab
