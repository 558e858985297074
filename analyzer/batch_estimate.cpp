#include "analyzer/batch_estimate.hpp"

#include <algorithm>

#include "analyzer/format.hpp"

namespace rooflab {
namespace {
constexpr double kFixedSecondsPerPoint = 0.02;
}

double estimateBatchSeconds(const BatchPlan& plan, const RooflineModels& models, const RunSettings& settings) {
  const DeviceModel& model = models.device ? *models.device : models.datasheet ? *models.datasheet : models.reference;
  const int runs = settings.warmup + settings.repetitions;
  double seconds = 0;
  for (const PlannedPoint& p : plan.points) {
    seconds += kFixedSecondsPerPoint;
    if (!p.resolved) continue;
    const WorkEstimate& work = p.resolved->work;
    double roof_s = 0;
    if (model.peak_gflops > 0) roof_s = std::max(roof_s, work.flops / (model.peak_gflops * 1e9));
    if (model.dram_gbps > 0) roof_s = std::max(roof_s, work.bytes / (model.dram_gbps * 1e9));
    seconds += runs * std::min(roof_s, settings.variant_time_limit_s);
  }
  return seconds;
}

std::string formatEstimate(double seconds) {
  if (seconds < 90) return "about " + formatFixed(std::max(seconds, 1.0), 0) + " s";
  if (seconds < 5400) return "about " + formatFixed(seconds / 60, 1) + " min";
  return "about " + formatFixed(seconds / 3600, 1) + " h";
}

}  // namespace rooflab
