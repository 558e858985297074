#include "analyzer/batch/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <cstdio>
#include <sstream>
#include <thread>

#include "analyzer/batch/ab_plan.hpp"
#include "analyzer/batch/batch_capture.hpp"
#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/batch/batch_devices.hpp"
#include "analyzer/batch/batch_estimate.hpp"
#include "analyzer/batch/batch_identity.hpp"
#include "analyzer/batch/batch_summary.hpp"
#include "analyzer/batch/host_watch.hpp"
#include "analyzer/batch/point_loop.hpp"
#include "analyzer/batch/results_writer.hpp"
#include "analyzer/batch/shard_queue.hpp"
#include "analyzer/ceilings/device_roofs.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/ceilings/launch_floor.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/plan/plan_parts.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "analyzer/run/drift_control.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "analyzer/support/wall_clock.hpp"

namespace rooflab {

BatchConfig withBatchOptions(BatchConfig config, const BatchOptions& options) {
  if (!options.device_override.empty()) config.run.device = options.device_override;
  if (options.device_mode_override) config.run.device_mode = *options.device_mode_override;
  if (!options.out_override.empty()) config.run.out = options.out_override;
  if (options.counters_override) config.run.counters = *options.counters_override;
  if (!options.formats_override.empty()) config.run.formats = options.formats_override;
  return config;
}

namespace {

// Whether this run's records may get counters: then the int32 roof (integer work counted by the
// hardware is placed under it) and the issue rate (the instruction roofline's roof) are measured too.
bool countersPossible(const RunSettings& settings, const DeviceInfo& device) {
  return settings.counters != CountersSetting::off && counters::countersUnavailableReason(device).empty();
}

// The compute roofs beside FP32 that some point's work is in: only those are measured.
std::vector<Arithmetic> typedPeaksOf(const BatchPlan& plan, bool counters_possible) {
  std::vector<Arithmetic> needed;
  if (counters_possible) needed.push_back(Arithmetic::int32);
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

}  // namespace

MeasuredModels measureModels(const RunSettings& settings, const SelectedDevice& device, bool show_log,
                             const CeilingsWords& ceilings_words, const BatchPlan& plan, bool measure_link) {
  std::ostringstream log;
  const auto started = std::chrono::steady_clock::now();
  const bool counters_possible = countersPossible(settings, device.info);
  MeasuredModels measured{prepareRooflineModels(settings, device, log, ceilings_words,
                                                typedPeaksOf(plan, counters_possible), counters_possible,
                                                measure_link || needsLinkCeilings(plan)),
                          0};
  measured.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (show_log) std::fputs(log.str().c_str(), stderr);
  return measured;
}

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

std::shared_ptr<const BatchPlan> planForDevice(const BatchConfig& config, std::shared_ptr<const BatchPlan> plan,
                                               const SelectedDevice& device, const RooflineModels& models,
                                               ResultsWriter& results, bool datasheet_roofs,
                                               const SizeChoiceText& size_choice_text) {
  if (!hasSizeRules(config)) return plan;
  SizeDevice size_device{device.info, nullptr, ""};
  const std::optional<DeviceModel>& roofs = datasheet_roofs ? models.datasheet : models.device;
  if (roofs) {
    size_device.roofs = &*roofs;
    size_device.roofs_name = !datasheet_roofs && models.ceilings && models.ceilings->model ? "measured" : "datasheet";
  }
  const std::vector<SizeChoice> choices = chooseSizes(config, *plan, size_device);
  if (size_choice_text)
    for (const SizeChoice& choice : choices)
      std::fprintf(stderr, "rooflab: %s: %s\n", terminalText(choice.family).c_str(),
                   terminalText(size_choice_text(choice)).c_str());
  results.setSizeChoices(choices);
  auto sized = std::make_shared<const BatchPlan>(planBatch(withChosenSizes(config, choices)));
  if (!sized->input_errors.empty()) throw InputError(joinedInputErrors(sized->input_errors));
  return sized;
}

namespace {

using Clock = std::chrono::steady_clock;

// Whether a variant runs at three sizes or more of a param (every other param the same): the report
// then draws its rate against that size, over the launch floor.
bool sweepsASize(const BatchPlan& plan) {
  std::map<std::string, std::map<std::string, std::set<double>>> values;  // variant and other params -> param -> values
  for (const PlannedPoint& point : plan.points) {
    const ParamValues& params = point.run_point.params;
    for (const auto& [name, value] : params) {
      std::string group = point.run_point.family->name + "/" + point.run_point.variant->name;
      for (const auto& [other, other_value] : params)
        if (other != name) group += ";" + other + "=" + formatNumber(other_value);
      if (values[group][name].insert(value).second && values[group][name].size() >= 3) return true;
    }
  }
  return false;
}

// A part of a batch (--shard I/N) is checked before any device work; its points are dealt once the
// plan's sizes are known.
void checkPart(const std::optional<BatchPart>& part) {
  if (part && (part->count == 0 || part->index == 0 || part->index > part->count))
    throw InputError("--shard " + std::to_string(part->index) + "/" + std::to_string(part->count) +
                     ": expected I/N with 1 <= I <= N (" + part->source + ")");
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

void announce(std::size_t points, const BatchPlan& plan, const BatchConfig& config,
              std::optional<double> estimate_seconds, const ResultsWriter& results, const std::string& devices_text,
              const BatchStartText& start_text) {
  if (!start_text) return;
  const BatchStart start{points,
                         plan.studiedFamilyCount(),
                         devices_text,
                         config.run.warmup,
                         config.run.repetitions,
                         config.run.max_noise,
                         config.run.max_time_s,
                         estimate_seconds,
                         results.path().string()};
  std::fprintf(stderr, "%s\n", start_text(start).c_str());
}

// The part of the batch this run makes (--shard I/N), with what a merge needs to know of it.
std::vector<std::size_t> pointsToRun(const BatchPlan& plan, std::optional<BatchPart>& part) {
  if (!part) return allPoints(plan);
  if (part->count == 0 || part->index == 0 || part->index > part->count)
    throw InputError("--shard " + std::to_string(part->index) + "/" + std::to_string(part->count) +
                     ": expected I/N with 1 <= I <= N (" + part->source + ")");
  std::vector<std::size_t> points = pointsOfPart(plan, part->index, part->count);
  part->part_points = partSizes(plan, part->count);
  part->plan_indices = points;
  for (std::size_t i : points) part->points.push_back(recordFor(plan.points[i].run_point).label());
  std::fprintf(stderr, "rooflab: part %zu of %zu (%s): %zu of the batch's %zu points\n", part->index, part->count,
               part->source.c_str(), points.size(), plan.points.size());
  return points;
}

// Runs the loops one after the other (compare) or all at once (shard); whether one stopped early.
bool runLoops(std::vector<std::unique_ptr<DeviceLoop>>& loops, bool at_once) {
  if (!at_once) {
    for (auto& loop : loops)
      if (loop->run()) return true;
    return false;
  }
  std::atomic<bool> stopped{false};
  std::vector<std::thread> threads;
  for (auto& loop : loops)
    threads.emplace_back([&stopped, &loop] {
      if (loop->run()) stopped = true;
    });
  for (std::thread& thread : threads) thread.join();
  return stopped;
}

// Each device's models, measured before any point runs (so the journal's header has them all):
// compare measures each device's own ceilings; shard (identical devices) and one device, the first's.
std::vector<MeasuredModels> measureEveryDevice(const BatchConfig& config, const BatchDevices& devices,
                                               const BatchOptions& options, const BatchPlan& plan) {
  const bool show_log = options.progress;
  std::vector<MeasuredModels> measured;
  for (const SelectedDevice& device : devices.devices) {
    if (!measured.empty() && devices.mode != DeviceMode::compare) break;
    if (devices.devices.size() > 1 && show_log)
      std::fprintf(stderr, "rooflab: ceilings of %s\n", deviceLine(device.info).c_str());
    measured.push_back(
        measureModels(config.run, device, show_log, options.ceilings_words, plan, config.capture.has_value()));
  }
  return measured;
}

void recordDevices(ResultsDocument& document, const BatchDevices& devices, const std::vector<MeasuredModels>& models) {
  if (!devices.mode) return;
  document.device_mode = devices.mode;
  for (std::size_t i = 0; i < devices.devices.size(); ++i) {
    DeviceRun run{deviceKey(devices.devices[i].info), devices.devices[i].info, {}, std::nullopt};
    if (i < models.size() && *devices.mode == DeviceMode::compare) {
      run.models = resultsModels(models[i].models);
      run.ceilings_seconds = models[i].seconds;
    }
    document.device_runs.push_back(std::move(run));
  }
}

std::string devicesText(const BatchDevices& devices, std::size_t points) {
  if (!devices.mode) return devices.devices.front().info.name + " [" + devices.devices.front().info.platform + "]";
  std::string text = std::to_string(devices.devices.size()) + " devices (" + toString(*devices.mode) +
                     (*devices.mode == DeviceMode::compare ? ": " + std::to_string(points) + " on each"
                                                           : ": split over them, one worker each") +
                     "):";
  for (const SelectedDevice& device : devices.devices) text += " " + deviceLine(device.info) + ";";
  text.pop_back();
  return text;
}

// One loop per device: compare gives each every point and its own models; shard deals the points out.
// Each record's slot in the estimate: compare runs every point on each device, a slot each.
std::vector<std::size_t> estimateSlots(const std::vector<std::size_t>& points, const BatchDevices& devices) {
  std::vector<std::size_t> slots;
  const std::size_t copies = devices.mode == DeviceMode::compare ? devices.devices.size() : 1;
  for (std::size_t copy = 0; copy < copies; ++copy) slots.insert(slots.end(), points.begin(), points.end());
  return slots;
}

// `point_seconds`: each of `points`' estimate, by which shard balances the devices' shares.
std::vector<std::unique_ptr<DeviceLoop>> deviceLoops(const BatchPlan& plan, const std::vector<std::size_t>& points,
                                                     const std::vector<double>& point_seconds,
                                                     const BatchDevices& devices,
                                                     const std::vector<MeasuredModels>& models,
                                                     const WorkerSetup& setup, BatchRecords& records,
                                                     BatchProgress& progress, const std::vector<AbSide>& sides) {
  const bool shard = devices.mode == DeviceMode::shard;
  // Records that read counters with the profiler kept run by metric set; an A/B run keeps its sides
  // interleaved, and a shard's devices are identical.
  auto byMetricSet = [&](const DeviceInfo& info) {
    return sides.empty() && setup.config.run.environment.keep_profiler_enabled &&
           countersPossible(setup.config.run, info);
  };
  std::vector<ShardGroups> shares;
  std::shared_ptr<ShardQueue> queue;
  if (shard) {
    shares = shardPoints(plan, points, devices.devices.size(), point_seconds);
    std::map<std::size_t, double> seconds;
    for (std::size_t place = 0; place < points.size() && place < point_seconds.size(); ++place)
      seconds[points[place]] = point_seconds[place];
    ShardQueue::SameInputSet same_set;
    if (byMetricSet(devices.devices.front().info))
      same_set = [&plan](std::size_t a, std::size_t b) { return sameInputSet(plan, a, b); };
    queue = std::make_shared<ShardQueue>(shares, std::move(seconds), std::move(same_set));
  }
  std::vector<std::unique_ptr<DeviceLoop>> loops;
  for (std::size_t i = 0; i < devices.devices.size(); ++i) {
    const DeviceInfo& info = devices.devices[i].info;
    DeviceShare share{points, &models[shard ? 0 : i].models, info, std::nullopt, {}, sides.empty() ? nullptr : &sides};
    // Slots as estimateSlots lays them out: compare, device i's copy; else a point's place in `points`
    // (a sharded device may take any point from another's queue).
    for (std::size_t place = 0; place < points.size(); ++place)
      share.slots[points[place]] = (devices.mode == DeviceMode::compare ? i * points.size() : 0) + place;
    share.by_metric_set = byMetricSet(info);
    if (shard) {
      share.points.clear();
      for (const std::vector<std::size_t>& group : shares[i])
        share.points.insert(share.points.end(), group.begin(), group.end());
      share.queue = queue;
      share.queue_device = i;
      share.prepared = queue->preparationOrder(i);
    }
    if (share.by_metric_set) {
      // preparationOrder starts with the device's own points: the worker prepares them in the order
      // it runs them, then what it may take.
      share.points = orderByMetricSet(plan, share.points);
      if (shard) std::copy(share.points.begin(), share.points.end(), share.prepared.begin());
    }
    // The worker opens the very device the batch selected, whatever the list said (`all`, `cpu,gpu`):
    // by its PCI location where it has one of its own, else by its indices.
    WorkerSetup device_setup = setup;
    device_setup.config.run.device = workerDeviceSelector(info);
    if (devices.mode) share.key = deviceKey(info);
    loops.push_back(std::make_unique<DeviceLoop>(plan, std::move(share), std::move(device_setup), records, progress));
  }
  return loops;
}

// The batch once planned: `sides`, an A/B run's (one per plan point; empty otherwise).
BatchOutcome runPlanned(BatchConfig config, std::shared_ptr<const BatchPlan> planned, const std::vector<AbSide>& sides,
                        const std::optional<AbRun>& ab, const BatchOptions& options) {
  BatchOutcome outcome;
  checkPart(options.part);
  const std::optional<CaptureLog> capture = readBatchCapture(config);
  const BatchDevices devices = selectBatchDevices(config.run);
  outcome.folder = std::make_unique<OutputFolder>(config.run.out);
  outcome.out_dir = outcome.folder->dir();
  // An A/B run writes each side as a run of its own in baseline/ and candidate/.
  if (ab) outcome.folder->refuseForeignFilesUnder({"baseline", "candidate"});
  if (options.keep_binaries) config.run.binaries_dir = (outcome.out_dir / "binaries").string();

  for (const SelectedDevice& device : devices.devices) refuseCountersThatCannotBeRead(config.run, device.info);
  const SelectedDevice& first = devices.devices.front();
  ResultsWriter results(outcome.results, *outcome.folder);
  results.start(config, first.info, planned->input_errors);
  outcome.results.drift_control = DriftControl::specFor(first.info);
  outcome.results.ab = ab;
  // Before the ceilings, whose own work would raise the load average it reads. The GPU's clock is
  // the one worth sampling, wherever it stands in the list.
  const auto gpu = std::find_if(devices.devices.begin(), devices.devices.end(),
                                [](const SelectedDevice& device) { return device.info.isGpu(); });
  HostWatch host(gpu != devices.devices.end() ? gpu->info : first.info, options.host_noise_text,
                 options.gpu_clock_text);
  results.setHost(host.condition());
  BatchTimes times;
  times.startup_seconds = secondsSince(options.command_started);
  const Clock::time_point ceilings_started = Clock::now();
  const std::vector<MeasuredModels> models = measureEveryDevice(config, devices, options, *planned);
  times.ceilings_seconds = secondsSince(ceilings_started);
  times.ceilings_measured = config.run.ceilings == CeilingsSource::measure;
  results.setModels(models.front().models, models.front().seconds);
  if (capture) outcome.results.capture_timeline = batchCaptureTimeline(*capture, models.front().models);
  recordDevices(outcome.results, devices, models);
  // Sizes are chosen on the first device; the parts of a batch, each on its own machine, choose them
  // from its datasheet, so that every part chooses alike. (An A/B run's plan is its two configs'.)
  if (sides.empty())
    planned = planForDevice(config, planned, first, models.front().models, results, options.part.has_value(),
                            options.size_choice_text);
  const BatchPlan& plan = *planned;
  std::optional<BatchPart> part = options.part;
  const std::vector<std::size_t> points = pointsToRun(plan, part);
  outcome.results.batch = identifyBatch(plan, config.run);
  outcome.results.batch->part = part;
  if (sweepsASize(plan))
    if (const std::optional<double> floor_ns = measureLaunchFloorNs(first)) results.setLaunchFloor(*floor_ns);
  BatchEstimator estimator =
      BatchEstimator::forPlan(plan, estimateSlots(points, devices), models.front().models, config.run, first.info,
                              devices.mode == DeviceMode::shard ? static_cast<int>(devices.devices.size()) : 1);
  announce(points.size(), plan, config, estimator.initialSeconds(), results, devicesText(devices, points.size()),
           options.start_text);

  const std::size_t records_planned =
      points.size() * (devices.mode == DeviceMode::compare ? devices.devices.size() : 1);
  BatchRecords records(records_planned, outcome.results, results, host);
  BatchProgress progress(options.progress, estimator, options.estimate_text);
  // After the ceilings, so that no compile runs while they are measured: a worker starts its
  // background builds when it starts.
  std::vector<std::unique_ptr<DeviceLoop>> loops =
      deviceLoops(plan, points, estimator.priorSeconds(), devices, models, WorkerSetup{config, planned, 0, {}}, records,
                  progress, sides);
  const Clock::time_point points_started = Clock::now();
  const bool stopped = runLoops(loops, devices.mode == DeviceMode::shard);
  times.points_seconds = secondsSince(points_started);
  for (const auto& loop : loops) {
    times.worker_start_seconds += loop->workerStartSeconds();
    times.worker_starts += loop->workerStarts();
  }
  records.rethrowFailure(records_planned, progress);
  bool interrupted = false;
  try {
    interrupted = records.finish(stopped && stopRequests() > 0, records_planned, times, progress);
  } catch (const IoError& e) {
    throw IoError(std::string(e.what()) + "; " + results.recoveryHint(records_planned));
  }
  outcome.exit_code = records.exitCode(interrupted, !plan.input_errors.empty());
  return outcome;
}

// The points of the variants `only` names (--only); each pattern must name one of the batch's.
void keepOnly(BatchPlan& plan, const std::vector<std::string>& only) {
  if (only.empty()) return;
  auto nameOf = [](const PlannedPoint& p) { return p.run_point.family->name + "/" + p.run_point.variant->name; };
  std::vector<std::string> unmatched, names;
  for (const std::string& pattern : only) {
    const bool matched = std::any_of(plan.points.begin(), plan.points.end(),
                                     [&](const PlannedPoint& p) { return globMatch(pattern, nameOf(p)); });
    if (!matched) unmatched.push_back((unmatched.empty() ? "'" : ", '") + pattern + "'");
  }
  if (!unmatched.empty()) {
    for (const PlannedPoint& p : plan.points)
      if (std::find(names.begin(), names.end(), nameOf(p)) == names.end()) names.push_back(nameOf(p));
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 12; ++i) list += (i ? ", " : "") + names[i];
    std::string patterns;
    for (const std::string& text : unmatched) patterns += text;
    throw InputError("--only " + patterns + ": no variant of the batch matches (FAMILY/VARIANT, with * and ?; " +
                     "the batch's: " + list + (names.size() > 12 ? ", ..." : "") + ")");
  }
  plan.points.erase(std::remove_if(plan.points.begin(), plan.points.end(),
                                   [&](const PlannedPoint& p) {
                                     return std::none_of(only.begin(), only.end(), [&](const std::string& pattern) {
                                       return globMatch(pattern, nameOf(p));
                                     });
                                   }),
                    plan.points.end());
}

// The plan of a config, refused whole on any input error: a bad input costs no device work.
std::shared_ptr<const BatchPlan> checkedPlan(const BatchConfig& config, const std::vector<std::string>& only) {
  BatchPlan plan = planBatch(config);
  for (const auto& w : plan.warnings) std::fprintf(stderr, "rooflab: warning: %s\n", terminalText(w, true).c_str());
  if (!plan.input_errors.empty()) throw InputError(joinedInputErrors(plan.input_errors));
  keepOnly(plan, only);
  return std::make_shared<const BatchPlan>(std::move(plan));
}

}  // namespace

BatchOutcome runBatch(const BatchConfig& config_in, const BatchOptions& options) {
  const BatchConfig config = withBatchOptions(config_in, options);
  return runPlanned(config, checkedPlan(config, options.only), {}, std::nullopt, options);
}

BatchOutcome runAbBatch(const AbConfigs& configs, const BatchOptions& options) {
  const BatchConfig baseline = withBatchOptions(configs.baseline, options);
  const BatchConfig candidate = withBatchOptions(configs.candidate, options);
  if (hasSizeRules(baseline) || hasSizeRules(candidate))
    throw InputError("ab: size rules choose each side's sizes on the device; an A/B run compares sizes given as "
                     "params (set them in both configs, or with --set)");
  const auto baseline_plan = checkedPlan(baseline, options.only), candidate_plan = checkedPlan(candidate, options.only);
  const AbSchedule schedule = interleaveAbPlans(*baseline_plan, *candidate_plan);
  for (const std::string& unmatched : schedule.unmatched)
    std::fprintf(stderr, "rooflab: warning: not compared, so not run: %s\n", unmatched.c_str());
  if (schedule.plan->points.empty())
    throw InputError("the baseline and the candidate plan no variant at the same parameters: nothing to compare");
  return runPlanned(baseline, schedule.plan, schedule.sides,
                    AbRun{configs.baseline_label, configs.candidate_label, candidate}, options);
}

}  // namespace rooflab
