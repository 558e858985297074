#include "analyzer/batch/batch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "analyzer/batch/batch_estimate.hpp"
#include "analyzer/batch/batch_summary.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/device/gpu_clock.hpp"
#include "analyzer/device/host_condition.hpp"
#include "analyzer/batch/point_worker.hpp"
#include "analyzer/batch/progress_line.hpp"
#include "analyzer/batch/results_writer.hpp"
#include "analyzer/ceilings/device_roofs.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/diagnose/analysis.hpp"
#include "analyzer/place/place_record.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "analyzer/support/stop_flag.hpp"

namespace rooflab {
namespace {

BatchConfig withOverrides(BatchConfig config, const BatchOptions& options) {
  if (!options.device_override.empty()) config.run.device = options.device_override;
  if (!options.out_override.empty()) config.run.out = options.out_override;
  if (options.counters_override) config.run.counters = *options.counters_override;
  if (!options.formats_override.empty()) config.run.formats = options.formats_override;
  return config;
}

// The compute roofs beside FP32 that some point's work is in: only those are measured.
std::vector<Arithmetic> typedPeaksOf(const BatchPlan& plan) {
  std::vector<Arithmetic> needed;
  for (const PlannedPoint& planned : plan.points)
    if (planned.resolved && planned.resolved->work.arithmetic != Arithmetic::fp32 &&
        std::find(needed.begin(), needed.end(), planned.resolved->work.arithmetic) == needed.end())
      needed.push_back(planned.resolved->work.arithmetic);
  return needed;
}

// Whether some point runs end to end: only then are the host link and the launch measured.
bool needsLinkCeilings(const BatchPlan& plan) {
  return std::any_of(plan.points.begin(), plan.points.end(),
                     [](const PlannedPoint& p) { return p.resolved && p.resolved->end_to_end; });
}

RooflineModels measureModels(const RunSettings& settings, const SelectedDevice& device, bool show_log,
                             ResultsWriter& results, const BatchPlan& plan) {
  std::ostringstream log;
  const auto started = std::chrono::steady_clock::now();
  RooflineModels models = prepareRooflineModels(settings, device, log, typedPeaksOf(plan), needsLinkCeilings(plan));
  results.setModels(models, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  if (show_log) std::fputs(log.str().c_str(), stderr);
  return models;
}

// The host's condition for the results, with the GPU clock sampled so far; says on the terminal why
// the timings may be noisy, at the start and again at the end (the clock is known only then).
class HostWatch {
 public:
  explicit HostWatch(const DeviceInfo& device) : host_(readHostCondition()), gpu_clock_(device) {
    host_.gpu_sm_clock_unavailable = gpu_clock_.unavailableReason().empty()
                                         ? std::nullopt
                                         : std::optional<std::string>(gpu_clock_.unavailableReason());
    if (const auto noisy = noisyHost(host_)) std::fprintf(stderr, "rooflab: warning: noisy host: %s\n", noisy->c_str());
  }
  void sample() { gpu_clock_.sample(); }
  HostCondition condition() const {
    HostCondition host = host_;
    host.gpu_sm_clock = gpu_clock_.samples();
    return host;
  }
  void reportAtEnd() const {
    const HostCondition host = condition();
    if (host.gpu_sm_clock)
      std::fprintf(stderr, "rooflab: GPU SM clock %.0f-%.0f MHz over %zu samples\n", host.gpu_sm_clock->min_mhz,
                   host.gpu_sm_clock->max_mhz, host.gpu_sm_clock->count);
    if (const auto noisy = noisyHost(host))
      std::fprintf(stderr, "rooflab: warning: this batch ran on a noisy host (%s); compare its timings with care\n",
                   noisy->c_str());
  }

 private:
  HostCondition host_;
  GpuClockSampler gpu_clock_;
};

// Runs a plan's points in order, each in the worker process; places, counts and records each record
// as it comes.
class PointLoop {
 public:
  PointLoop(const BatchPlan& plan, PointWorker& worker, const RooflineModels& models, ResultsDocument& document,
            ResultsWriter& results, const DeviceInfo& device, bool progress, HostWatch& host)
      : plan_(plan), worker_(worker), models_(models), document_(document), results_(results), device_(device),
        progress_(progress), host_(host), tally_(plan.points.size()),
        analysis_(static_cast<double>(device.timer_resolution_ns), models.device ? models.device : models.datasheet) {
    if (models.ceilings && models.ceilings->link)
      analysis_.setLinkCeilings(&*models.ceilings->link, models.ceilings->launch);
  }

  // Runs every point (until interrupted) and finishes the document; whether it was interrupted. A
  // file that cannot be written (a full disk) stops the batch: the IoError then says where the
  // records measured so far are and how to read them back.
  bool runAll() {
    try {
      return runPoints();
    } catch (const IoError& e) {
      progress_.finish();
      try {
        results_.finish(true, tally_.finalSummary(results_.records()));
        results_.write();
      } catch (const IoError&) {
        // The disk is still full: the hint below says what the earlier writes kept.
      }
      throw IoError(std::string(e.what()) + "; " + results_.recoveryHint(plan_.points.size()));
    }
  }
  const BatchTally& tally() const { return tally_; }

 private:
  bool runPoints() {
    bool interrupted = false;
    for (std::size_t i = 0; i < plan_.points.size() && !interrupted; ++i)
      interrupted = stopRequests() > 0 || !runPoint(i);
    progress_.finish();
    interrupted = interrupted || stopRequests() > 0;
    results_.setHost(host_.condition());
    host_.reportAtEnd();
    RecordAnalysis::batchOver(document_.records);
    results_.finish(interrupted, tally_.finalSummary(results_.records()));
    // Interrupted before its first record, the batch has nothing to put in the place of the earlier
    // run's results: the folder gives them back their names (OutputFolder) and nothing is written.
    if (interrupted && results_.records() == 0) {
      std::fprintf(stderr, "rooflab: interrupted before the first point ended: nothing written; %s keeps what the "
                           "earlier run wrote there\n", results_.path().parent_path().c_str());
      return true;
    }
    results_.write();
    // A run killed outright says nothing: this is where a user learns that its journal keeps every record.
    if (interrupted)
      std::fprintf(stderr,
                   "rooflab: interrupted: %zu of %zu points done, %zu not run; their records are in %s (a run killed "
                   "outright keeps every record it measured in its journal: `rooflab report %s` reads them back)\n",
                   results_.records(), plan_.points.size(), plan_.points.size() - results_.records(),
                   results_.path().c_str(), results_.journalPath().c_str());
    return interrupted;
  }

  // False when the user asked to stop now: the point has no record.
  bool runPoint(std::size_t i) {
    const RunPoint& point = plan_.points[i].run_point;
    const std::string prefix = "[" + std::to_string(i + 1) + "/" + std::to_string(plan_.points.size()) + "] " +
                               point.family->name + "/" + point.variant->name + " " +
                               paramsLabel(point.params, point.family->param_order) + " " + modeName(point.mode) +
                               (point.what_if ? " " + point.what_if->name : "");
    progress_.show(prefix);
    std::optional<RunRecord> record = worker_.run(i, recordFor(point), [&](const char* phase, int index, int count) {
      if (progress_.tty()) progress_.show(prefix + ": " + phase + " " + std::to_string(index + 1) + "/" + std::to_string(count));
    });
    if (!record) return false;
    host_.sample();
    if (const auto threads = worker_.buildThreads()) results_.setBuildThreads(*threads);
    if (record->status == RecordStatus::ok) placeRecord(*record, models_);
    report(*record, tally_.count(*record));
    const std::size_t index = results_.append(std::move(*record));
    const std::optional<std::size_t> concluded = analysis_.recordAdded(document_.records, index, plan_.closesGroup(i));
    results_.journal(index);
    if (concluded && *concluded != index) results_.journal(*concluded);
    results_.setSummary(tally_.summary());
    results_.checkpoint();
    return true;
  }

  void report(const RunRecord& record, RecordOutcome outcome) {
    if (outcome == RecordOutcome::failed) {
      progress_.finish();
      std::fprintf(stderr, "rooflab: %s: %s\n", toString(record.status).c_str(), record.status_reason.c_str());
    } else if (outcome == RecordOutcome::end_to_end_failed) {
      progress_.finish();
      for (const EndToEndRun& run : record.end_to_end->runs)
        if (run.error || run.verification.status == VerificationStatus::failed)
          std::fprintf(stderr, "rooflab: end-to-end %s failed: %s: %s\n", toString(run.strategy).c_str(), record.label().c_str(),
                       run.error ? run.error->c_str() : run.verification.detail.c_str());
    } else if (outcome == RecordOutcome::verification_failed) {
      progress_.finish();
      std::fprintf(stderr, "rooflab: verification failed: %s: %s\n", record.label().c_str(),
                   record.verification.detail.c_str());
    }
  }

  const BatchPlan& plan_;
  PointWorker& worker_;
  const RooflineModels& models_;
  ResultsDocument& document_;
  ResultsWriter& results_;
  const DeviceInfo& device_;
  ProgressLine progress_;
  HostWatch& host_;
  BatchTally tally_;
  RecordAnalysis analysis_;
};

// One message for all of them, a line each, as the command line prints every error ("rooflab: ...");
// a sweep can fail at every point, so the first 20 are shown.
std::string joinedInputErrors(const std::vector<std::string>& errors) {
  constexpr std::size_t kShown = 20;
  std::string text;
  for (std::size_t i = 0; i < errors.size() && i < kShown; ++i) text += (text.empty() ? "" : "\nrooflab: ") + errors[i];
  if (errors.size() > kShown) text += "\nrooflab: ... and " + std::to_string(errors.size() - kShown) + " more";
  if (errors.size() > 1) text += "\nrooflab: " + std::to_string(errors.size()) + " input errors; nothing was run";
  return text;
}

// counters = "on" asks for them: a device that cannot give them stops the run before any device work
// (auto would go on with timings alone).
void refuseCountersThatCannotBeRead(const RunSettings& settings, const DeviceInfo& device) {
  if (settings.counters != CountersSetting::on) return;
  const std::string why = counters::countersUnavailableReason(device);
  if (why.empty()) return;
  throw DeviceError("[run] counters = \"on\", but counters cannot be read on " + device.name + ": " + why +
                    " (counters = \"auto\" runs with timings alone)");
}

void announce(const BatchPlan& plan, const BatchConfig& config, const SelectedDevice& device,
              const RooflineModels& models, const ResultsWriter& results) {
  const std::size_t families = plan.studiedFamilyCount();
  std::fprintf(stderr,
               "rooflab: %zu points (%zu %s) on %s [%s]; %d warm-up + at least %d timed runs each, to ±%g%% noise "
               "within %g s; estimated %s; results in %s\n",
               plan.points.size(), families, families == 1 ? "family" : "families", device.info.name.c_str(),
               device.info.platform.c_str(), config.run.warmup, config.run.repetitions, config.run.max_noise * 100,
               config.run.max_time_s, formatEstimate(estimateBatchSeconds(plan, models, config.run, device.info)).c_str(),
               results.path().c_str());
}

}  // namespace

BatchOutcome runBatch(const BatchConfig& config_in, const BatchOptions& options) {
  BatchConfig config = withOverrides(config_in, options);
  BatchOutcome outcome;
  // The whole plan is checked before any device work or file write: a bad input costs nothing.
  const auto planned = std::make_shared<const BatchPlan>(planBatch(config));
  const BatchPlan& plan = *planned;
  for (const auto& w : plan.warnings) std::fprintf(stderr, "rooflab: warning: %s\n", w.c_str());
  if (!plan.input_errors.empty()) throw InputError(joinedInputErrors(plan.input_errors));
  outcome.folder = std::make_unique<OutputFolder>(config.run.out);
  outcome.out_dir = outcome.folder->dir();
  if (options.keep_binaries) config.run.binaries_dir = (outcome.out_dir / "binaries").string();

  const SelectedDevice device = selectDevice(config.run.device);
  refuseCountersThatCannotBeRead(config.run, device.info);
  ResultsWriter results(outcome.results, *outcome.folder);
  results.start(config, device.info, plan.input_errors);
  // Before the ceilings, whose own work would raise the load average it reads.
  HostWatch host(device.info);
  results.setHost(host.condition());
  const RooflineModels models = measureModels(config.run, device, options.progress, results, plan);
  announce(plan, config, device, models, results);

  // After the ceilings, so that no compile runs while they are measured: the worker starts its
  // background builds when it starts.
  PointWorker worker(WorkerSetup{config, planned, 0}, device.info.name);
  PointLoop loop(plan, worker, models, outcome.results, results, device.info, options.progress, host);
  const bool interrupted = loop.runAll();
  outcome.exit_code = loop.tally().exitCode(interrupted, !plan.input_errors.empty());
  return outcome;
}

}  // namespace rooflab
