#include "analyzer/batch/batch_estimate.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "analyzer/run/point_data.hpp"

namespace rooflab {
namespace {
// Recording, uploads and read-back of a trivial point (2.2 ms on PoCL, bench/worker-overhead.sh),
// and the control kernel timed beside it.
constexpr double kFixedSecondsPerPoint = 0.03;
// A point's share of program builds, as the default config measured it (2026-11-23): 15.2 s of
// "prepare" over 84 points on PoCL (2 cores), 4.8 s on an H100 (background builds).
constexpr double kCpuBuildSecondsPerPoint = 0.18;
constexpr double kGpuBuildSecondsPerPoint = 0.06;
// The host's work on a point's data, per core of the host: random inputs generated (168 M floats in
// 3.8 s on one core of the H100's host), a C++ reference's arithmetic (n-body's 1.3e11 and matmul's
// 3.4e10 flops at 2.1e9 and 0.95e9 a core, 16 cores).
constexpr double kFillBytesPerCoreSecond = 0.18e9;
constexpr double kReferenceFlopsPerCoreSecond = 1.5e9;
// Moving a point's bytes between host and device (pageable memory: 671 MB in 0.12 s on the H100),
// an original's outputs read back and compared (235 MB of vecadd's in 0.3-0.5 s), and the bridge's
// own copy of the buffers a launch writes, made, uploaded and kept pristine on the device (vecadd's
// mutants: 0.2 s for 235 MB).
constexpr double kUploadBytesPerSecond = 6e9;
constexpr double kVerifyBytesPerSecond = 0.6e9;
constexpr double kBridgeWrittenBytesPerSecond = 1.2e9;
// Counters through the PTX bridge on NVIDIA, per record beside its bytes (H100, 2026-11-28, the
// medians of small points: 0.29 s an original, 0.21 s a mutant, most of it the first pass of a
// range), and the SASS-patched passes, which grow with the instructions a kernel runs: seconds per
// second of the kernel's time on the compute roof (n-body's originals 0.7 s more at 2.2 ms on the
// roof, its compute-only mutants 0.33 s more).
constexpr double kCountersSecondsPerOriginal = 0.29;
constexpr double kCountersSecondsPerMutant = 0.21;
// With the profiler kept, the records run by metric set (an input set's originals, then its mutants)
// and a mutant mostly finds it still enabled for its set: a memory-only mutant 0.055 s a record on
// the H100 (0.04-0.06 s on the H200), a compute-only one 0.09-0.11 s on the H200, against 0.21 s
// afresh.
constexpr double kCountersSecondsPerKeptMutant = 0.055;
constexpr double kCountersSecondsPerKeptComputeOnly = 0.10;
constexpr double kCountersPerComputeRoofSecondOriginal = 300;
constexpr double kCountersPerComputeRoofSecondComputeOnly = 150;
// A kernel's time against its time on the roofs measured at the start: about 10x on a GPU (the
// default config's 84 points, 11 s of timed runs on the H100), about 20x on PoCL (the default's
// points on 2 cores: matmul 80x, reductions 27x, vecadd 4x, 32.5 s of timed runs in all). A GPU's
// repetitions converge at the floor on a quiet device; a CPU's take at least half the noise budget.
constexpr double kGpuKernelSecondsPerRoofSecond = 10;
constexpr double kCpuKernelSecondsPerRoofSecond = 20;
// A GPU's record costs its host more when several workers run at once, one per device of a sharded
// batch: on two H200s of one host, the default's counters took 42.2 s summed over both against 35.3 s
// on one GPU, preparing its points 6.6 s against 4.4 s; the timed runs, each on its own GPU, did not.
constexpr double kShardedGpuFixedFactor = 1.2;
// Analysis, the results file and the reports: a fixed part and a share per point.
constexpr double kTailSeconds = 0.1;
constexpr double kTailSecondsPerPoint = 0.01;

// What a point's data costs the host and the link, by its buffers.
struct PointBytes {
  double inputs = 0;       // made by the host (random, a file) and uploaded
  double outputs = 0;      // read back and compared, for an original
  double written = 0;      // restored before each bridged pass
  std::string inputs_key;  // ResolvedPoint::inputsKey: points with one key share their inputs
};

PointBytes pointBytes(const ResolvedPoint& point) {
  PointBytes b;
  b.inputs_key = point.inputsKey();
  for (const ResolvedBuffer& buffer : point.buffers) {
    const double bytes = static_cast<double>(buffer.bytes);
    if (buffer.hasHostInput()) b.inputs += bytes;
    if (!buffer.scratch && buffer.spec->isOutput()) b.outputs += bytes;
    if (buffer.writtenByLaunches()) b.written += bytes;
  }
  return b;
}

// The fixed part of a point's cost from its data: inputs made and uploaded once per input set, the
// C++ reference once per family and params, an original's outputs verified, the bridge's copies.
class DataCostModel {
 public:
  // keep_profiler: the range profiler stays enabled between records of one metric set.
  DataCostModel(bool counters, bool keep_profiler)
      : counters_(counters), keep_profiler_(keep_profiler), cores_(std::max(1u, std::thread::hardware_concurrency())) {}

  // compute_roof_s: the point's flops on the device's compute roof.
  double secondsFor(const PlannedPoint& planned, double compute_roof_s) {
    if (!planned.resolved) return 0;
    const ResolvedPoint& point = *planned.resolved;
    const RunMode mode = point.run_point.mode;
    const bool original = mode == RunMode::normal || mode == RunMode::what_if;
    const PointBytes bytes = pointBytes(point);
    double seconds = 0;
    // On a GPU the input sets made once the builds are over are made beside the records (DataAhead):
    // which ones the plan cannot tell, so every set is charged, an estimate on the long side.
    if (bytes.inputs_key != inputs_key_) {
      inputs_key_ = bytes.inputs_key;
      seconds += bytes.inputs / (kFillBytesPerCoreSecond * cores_) + bytes.inputs / kUploadBytesPerSecond;
      if (counters_) seconds += bytes.inputs / kUploadBytesPerSecond;  // the bridge's copy
    }
    if (mode == RunMode::normal) {
      seconds += bytes.outputs / kVerifyBytesPerSecond;
      const ReferenceSpec& reference = point.run_point.family->reference;
      // As the runner keeps them: one per reference and params, while the input set holds.
      if (reference.kind == ReferenceSpec::Kind::cpu &&
          references_.insert(referenceKey(point) + "|" + bytes.inputs_key).second)
        seconds += point.work.flops / (kReferenceFlopsPerCoreSecond * cores_);
    }
    if (counters_) {
      seconds += original                       ? kCountersSecondsPerOriginal
                 : !keep_profiler_              ? kCountersSecondsPerMutant
                 : mode == RunMode::memory_only ? kCountersSecondsPerKeptMutant
                                                : kCountersSecondsPerKeptComputeOnly;
      if (original) seconds += kCountersPerComputeRoofSecondOriginal * compute_roof_s;
      if (mode == RunMode::compute_only) seconds += kCountersPerComputeRoofSecondComputeOnly * compute_roof_s;
      seconds += bytes.written / kBridgeWrittenBytesPerSecond;
      if (original) seconds += bytes.outputs / kVerifyBytesPerSecond;  // bridged outputs against OpenCL's
    }
    return seconds;
  }

 private:
  bool counters_;
  bool keep_profiler_;
  double cores_;
  std::string inputs_key_;
  std::set<std::string> references_;
};

}  // namespace

BatchEstimator::BatchEstimator(std::vector<PointCostPrior> points, double tail_seconds, int parallel)
    : points_(std::move(points)),
      done_(points_.size(), false),
      tail_seconds_(tail_seconds),
      parallel_(std::max(1, parallel)) {
  for (const PointCostPrior& p : points_) {
    mode_of_kind_[p.kind] = p.mode;
    for (Tally* tally : {&kinds_[p.kind], &modes_[p.mode], &all_}) {
      ++tally->left;
      tally->prior_fixed_left += p.fixed_seconds;
      tally->prior_timed_left += p.timed_seconds;
    }
  }
  trace_.initial_seconds = remainingSeconds();
}

BatchEstimator BatchEstimator::forPlan(const BatchPlan& plan, const std::vector<std::size_t>& slots,
                                       const RooflineModels& models, const RunSettings& settings,
                                       const DeviceInfo& device, int parallel) {
  const DeviceModel& model = models.device ? *models.device : models.datasheet ? *models.datasheet : models.reference;
  const int runs = settings.warmup + settings.repetitions;
  const bool counters = device.isNvidia() && settings.counters != CountersSetting::off;
  std::vector<PointCostPrior> priors;
  DataCostModel data(counters, settings.environment.keep_profiler_enabled);
  for (const std::size_t index : slots) {
    const PlannedPoint& p = plan.points.at(index);
    PointCostPrior prior;
    const RunMode mode = p.run_point.mode;
    prior.mode = modeName(mode);
    prior.kind = p.run_point.family->name + " " + prior.mode;
    const bool cpu = device.type == "CPU";
    prior.fixed_seconds = kFixedSecondsPerPoint + (cpu ? kCpuBuildSecondsPerPoint : kGpuBuildSecondsPerPoint);
    double compute_roof_s = 0, roof_s = 0;
    if (p.resolved) {
      const WorkEstimate& work = p.resolved->work;
      if (model.peak_gflops > 0) compute_roof_s = work.flops / (model.peak_gflops * 1e9);
      roof_s = compute_roof_s;
      if (model.dram_gbps > 0) roof_s = std::max(roof_s, work.bytes / (model.dram_gbps * 1e9));
      // The noise target repeats a point until it converges or max_time is spent. A CPU's runs
      // rarely converge early (other processes share its cores): half the budget stands in for
      // them. A GPU's converge at the floor of repetitions.
      const double timed_s = cpu ? std::max({runs * kCpuKernelSecondsPerRoofSecond * roof_s, settings.min_time_s,
                                             0.5 * settings.max_time_s})
                                 : std::max(runs * kGpuKernelSecondsPerRoofSecond * roof_s, settings.min_time_s);
      prior.timed_seconds = std::min(timed_s, settings.variant_time_limit_s);
    }
    prior.fixed_seconds += data.secondsFor(p, compute_roof_s);
    if (parallel > 1 && !cpu) prior.fixed_seconds *= kShardedGpuFixedFactor;
    priors.push_back(std::move(prior));
  }
  return BatchEstimator(std::move(priors), kTailSeconds + kTailSecondsPerPoint * double(slots.size()), parallel);
}

std::vector<double> BatchEstimator::priorSeconds() const {
  std::vector<double> seconds;
  for (const PointCostPrior& p : points_) seconds.push_back(p.fixed_seconds + p.timed_seconds);
  return seconds;
}

void BatchEstimator::pointDone(std::size_t index, double wall_seconds, double timed_seconds, double elapsed_seconds) {
  if (index >= points_.size() || done_[index]) return;
  done_[index] = true;
  ++points_done_;
  const PointCostPrior& p = points_[index];
  const double fixed = std::max(0.0, wall_seconds - timed_seconds);
  for (Tally* tally : {&kinds_[p.kind], &modes_[p.mode], &all_}) {
    ++tally->done;
    tally->measured_fixed += fixed;
    tally->prior_fixed_done += p.fixed_seconds;
    --tally->left;
    tally->prior_fixed_left -= p.fixed_seconds;
    tally->prior_timed_left -= p.timed_seconds;
  }
  timed_prior_done_ += p.timed_seconds;
  timed_measured_done_ += timed_seconds;
  // Every update of a batch of up to 100 points, about a hundred of a larger one.
  const std::size_t every = std::max<std::size_t>(1, points_.size() / 100);
  if (points_done_ <= 100 || points_done_ % every == 0 || points_done_ == points_.size())
    trace_.updates.push_back({points_done_, elapsed_seconds, remainingSeconds()});
}

double BatchEstimator::remainingSeconds() const {
  double points = 0;
  const double timed_scale = timed_prior_done_ > 0 && timed_measured_done_ > 0
                                 ? std::clamp(timed_measured_done_ / timed_prior_done_, 0.05, 20.0)
                                 : 1.0;
  for (const auto& [kind, tally] : kinds_) {
    if (tally.left == 0) continue;
    // The fixed part: measured on this kind; else on its mode, or on every point done, scaled by how
    // the priors of the points left compare with those of the points measured; else the prior.
    const Tally& mode = modes_.at(mode_of_kind_.at(kind));
    double fixed = tally.prior_fixed_left;
    if (tally.done > 0) fixed = tally.measured_fixed / double(tally.done) * double(tally.left);
    else if (mode.done > 0 && mode.prior_fixed_done > 0) fixed *= mode.measured_fixed / mode.prior_fixed_done;
    else if (all_.done > 0 && all_.prior_fixed_done > 0) fixed *= all_.measured_fixed / all_.prior_fixed_done;
    points += std::max(0.0, fixed) + std::max(0.0, tally.prior_timed_left) * timed_scale;
  }
  return points / parallel_ + tail_seconds_;
}

}  // namespace rooflab
