#include "analyzer/batch/batch_estimate.hpp"

#include <algorithm>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {
// Recording, uploads and read-back of a trivial point (2.2 ms on PoCL, bench/worker-overhead.sh).
constexpr double kFixedSecondsPerPoint = 0.02;
// A point's share of program builds, as the default config measured it (2026-11-23): 15.2 s of
// "prepare" over 84 points on PoCL (2 cores), 4.8 s on an H100 (background builds).
constexpr double kCpuBuildSecondsPerPoint = 0.18;
constexpr double kGpuBuildSecondsPerPoint = 0.06;
// Counters through the PTX bridge, per normal-mode point on NVIDIA: 26.5 s over 28 originals.
constexpr double kCountersSecondsPerPoint = 0.95;
}  // namespace

double estimateBatchSeconds(const BatchPlan& plan, const RooflineModels& models, const RunSettings& settings,
                            const DeviceInfo& device) {
  const DeviceModel& model = models.device ? *models.device : models.datasheet ? *models.datasheet : models.reference;
  const int runs = settings.warmup + settings.repetitions;
  const bool counters = device.isNvidia() && settings.counters != CountersSetting::off;
  double seconds = 0;
  for (const PlannedPoint& p : plan.points) {
    seconds += kFixedSecondsPerPoint + (device.type == "CPU" ? kCpuBuildSecondsPerPoint : kGpuBuildSecondsPerPoint);
    if (counters && (p.run_point.mode == RunMode::normal || p.run_point.mode == RunMode::what_if)) seconds += kCountersSecondsPerPoint;
    if (!p.resolved) continue;
    const WorkEstimate& work = p.resolved->work;
    double roof_s = 0;
    if (model.peak_gflops > 0) roof_s = std::max(roof_s, work.flops / (model.peak_gflops * 1e9));
    if (model.dram_gbps > 0) roof_s = std::max(roof_s, work.bytes / (model.dram_gbps * 1e9));
    // The noise target repeats a point until it converges or max_time is spent: when is not known
    // before, so half the budget stands in for it.
    const double timed_s = std::max({runs * roof_s, settings.min_time_s, 0.5 * settings.max_time_s});
    seconds += std::min(timed_s, settings.variant_time_limit_s);
  }
  return seconds;
}

std::string formatEstimate(double seconds) {
  if (seconds < 90) return "about " + formatFixed(std::max(seconds, 1.0), 0) + " s";
  if (seconds < 5400) return "about " + formatFixed(seconds / 60, 1) + " min";
  return "about " + formatFixed(seconds / 3600, 1) + " h";
}

}  // namespace rooflab
