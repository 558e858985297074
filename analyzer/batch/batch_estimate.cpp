#include "analyzer/batch/batch_estimate.hpp"

#include <algorithm>
#include <map>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {
// Recording, uploads and read-back of a trivial point (2.2 ms on PoCL, bench/worker-overhead.sh),
// and the control kernel timed beside it.
constexpr double kFixedSecondsPerPoint = 0.03;
// A point's share of program builds, as the default config measured it (2026-11-23): 15.2 s of
// "prepare" over 84 points on PoCL (2 cores), 4.8 s on an H100 (background builds).
constexpr double kCpuBuildSecondsPerPoint = 0.18;
constexpr double kGpuBuildSecondsPerPoint = 0.06;
// Counters through the PTX bridge on NVIDIA, per record (H100, 2026-11-22, before the profiler
// session was kept across records): 11.5 s over 28 originals, 7.7 s over 28 mutants of each kind.
constexpr double kCountersSecondsPerOriginal = 0.41;
constexpr double kCountersSecondsPerMutant = 0.27;
// Analysis, the results file and the reports: a fixed part and a share per point.
constexpr double kTailSeconds = 0.1;
constexpr double kTailSecondsPerPoint = 0.01;

}  // namespace

BatchEstimator::BatchEstimator(std::vector<PointCostPrior> points, double tail_seconds, int parallel)
    : points_(std::move(points)), done_(points_.size(), false), tail_seconds_(tail_seconds),
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
  for (const std::size_t index : slots) {
    const PlannedPoint& p = plan.points.at(index);
    PointCostPrior prior;
    const RunMode mode = p.run_point.mode;
    prior.mode = modeName(mode);
    prior.kind = p.run_point.family->name + " " + prior.mode;
    prior.fixed_seconds = kFixedSecondsPerPoint + (device.type == "CPU" ? kCpuBuildSecondsPerPoint : kGpuBuildSecondsPerPoint);
    if (counters)
      prior.fixed_seconds += mode == RunMode::normal || mode == RunMode::what_if ? kCountersSecondsPerOriginal
                                                                                 : kCountersSecondsPerMutant;
    if (p.resolved) {
      const WorkEstimate& work = p.resolved->work;
      double roof_s = 0;
      if (model.peak_gflops > 0) roof_s = std::max(roof_s, work.flops / (model.peak_gflops * 1e9));
      if (model.dram_gbps > 0) roof_s = std::max(roof_s, work.bytes / (model.dram_gbps * 1e9));
      // The noise target repeats a point until it converges or max_time is spent: when is not known
      // before, so half the budget stands in for it.
      const double timed_s = std::max({runs * roof_s, settings.min_time_s, 0.5 * settings.max_time_s});
      prior.timed_seconds = std::min(timed_s, settings.variant_time_limit_s);
    }
    priors.push_back(std::move(prior));
  }
  return BatchEstimator(std::move(priors), kTailSeconds + kTailSecondsPerPoint * double(slots.size()), parallel);
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

std::string formatEstimate(double seconds) {
  if (seconds < 90) return "about " + formatFixed(std::max(seconds, 1.0), 0) + " s";
  if (seconds < 5400) return "about " + formatFixed(seconds / 60, 1) + " min";
  return "about " + formatFixed(seconds / 3600, 1) + " h";
}

}  // namespace rooflab
