#include "analyzer/roofline/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analyzer/roofline/device_models.hpp"

namespace rooflab {
namespace {

bool validAmount(double value) { return std::isfinite(value) && value >= 0; }

std::optional<double> finiteOrNull(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

PlacementReason reasonOf(PlacementReasonKind kind) { return PlacementReason{kind}; }

PlacementReason reasonNaming(PlacementReasonKind kind, const std::string& model_key) {
  PlacementReason reason{kind};
  reason.model_key = model_key;
  return reason;
}

// The local-memory roof: the rate at which the kernel's local traffic alone would take its time.
void placeLocalRoof(const DeviceModel& model, double flops, double local_bytes, RooflinePlacement& placement,
                    std::vector<PlacementReason>& reasons) {
  if (!model.local_gbps) {
    reasons.push_back(reasonNaming(PlacementReasonKind::no_local_bandwidth, model.key));
  } else if (flops == 0) {
    reasons.push_back(reasonOf(PlacementReasonKind::no_flops_under_local_roof));
  } else {
    placement.local_roof_gflops = finiteOrNull(flops / (local_bytes / *model.local_gbps));
  }
}

// What bounds a timed kernel: `roof_side` when it reaches the roof (or was timed on another device,
// where only its intensity says anything), local memory when the local roof is below the roofline
// and reached, else latency.
RooflineBound timedBound(const DeviceModel& model, bool timed_on_model_device, RooflineBound roof_side,
                         const RooflinePlacement& placement, std::vector<PlacementReason>& reasons) {
  const double fraction = placement.fraction_of_roof.value_or(0);
  const bool local_roof_limits = placement.local_roof_gflops && *placement.attainable_gflops > 0 &&
                                 *placement.local_roof_gflops < *placement.attainable_gflops;
  if (!timed_on_model_device) {
    reasons.push_back(reasonNaming(PlacementReasonKind::timed_on_other_device, model.key));
    return roof_side;
  }
  if (local_roof_limits && *placement.achieved_gflops >= kRoofBoundFraction * *placement.local_roof_gflops) {
    PlacementReason reason{PlacementReasonKind::local_memory_bound};
    reason.local_roof_gflops = *placement.local_roof_gflops;
    reason.reached_fraction = *placement.achieved_gflops / *placement.local_roof_gflops;
    reasons.push_back(reason);
    return RooflineBound::memory;
  }
  if (fraction >= kRoofBoundFraction) return roof_side;
  PlacementReason reason{PlacementReasonKind::below_bound_margin};
  reason.reached_fraction = fraction;
  reason.margin_fraction = kRoofBoundFraction;
  reasons.push_back(reason);
  return RooflineBound::latency;
}

}  // namespace

std::optional<double> levelBandwidthGbps(const DeviceModel& model, MemoryLevel level) {
  switch (level) {
    case MemoryLevel::dram:
    case MemoryLevel::global: return model.dram_gbps;
    case MemoryLevel::l2: return model.l2_gbps;
    case MemoryLevel::l1:
    case MemoryLevel::local: return model.local_gbps;
  }
  return std::nullopt;
}

RooflinePlacement placeOnRoofline(const DeviceModel& model, const RooflineInput& input) {
  RooflinePlacement placement;
  placement.intensity_source = input.intensity_source;
  placement.level = input.level;
  const std::optional<double> level_gbps = levelBandwidthGbps(model, input.level);
  // The DRAM level keeps its historical behaviour for any model (a 0 bandwidth is reported below).
  if (input.level != MemoryLevel::dram && (!level_gbps || !(*level_gbps > 0))) {
    if (validAmount(input.flops) && input.dram_bytes > 0 && std::isfinite(input.dram_bytes))
      placement.intensity = input.flops / input.dram_bytes;
    PlacementReason reason = reasonNaming(PlacementReasonKind::no_level_bandwidth, model.key);
    reason.level = input.level;
    placement.reasons.push_back(reason);
    return placement;
  }
  // The compute roof of the work's type: FP32 unless the family computes in double or integers.
  const std::optional<double> compute_peak = model.computePeak(input.arithmetic);
  if (input.arithmetic != Arithmetic::fp32 && (!compute_peak || !(*compute_peak > 0))) {
    if (validAmount(input.flops) && input.dram_bytes > 0 && std::isfinite(input.dram_bytes))
      placement.intensity = input.flops / input.dram_bytes;
    PlacementReason reason = reasonNaming(PlacementReasonKind::no_arithmetic_peak, model.key);
    reason.arithmetic = input.arithmetic;
    placement.reasons.push_back(reason);
    return placement;
  }
  const double peak_gflops = compute_peak.value_or(model.peak_gflops);
  const double bandwidth_gbps = *level_gbps;
  placement.ridge_intensity = peak_gflops / bandwidth_gbps;
  std::vector<PlacementReason>& reasons = placement.reasons;

  if (!validAmount(input.flops) || !validAmount(input.dram_bytes)) {
    reasons.push_back(reasonOf(PlacementReasonKind::invalid_work));
    return placement;
  }
  if (input.flops == 0 && input.dram_bytes == 0) {
    reasons.push_back(reasonOf(PlacementReasonKind::no_work));
    return placement;
  }

  const double flops = input.flops;
  const double bytes = input.dram_bytes;
  // Which side of the ridge the work sits on decides which roof can limit it.
  RooflineBound roof_side = RooflineBound::compute;
  if (bytes > 0) {
    placement.intensity = flops / bytes;
    roof_side = *placement.intensity < placement.ridge_intensity ? RooflineBound::memory : RooflineBound::compute;
    placement.attainable_gflops = std::min(peak_gflops, *placement.intensity * bandwidth_gbps);
  } else {
    // Infinite intensity: only the compute roof applies.
    placement.attainable_gflops = peak_gflops;
    reasons.push_back(reasonOf(PlacementReasonKind::no_dram_bytes));
  }
  // GFLOP/s = flop/ns and GB/s = byte/ns, so the roof times come out in ns directly.
  const double time_at_roof_ns = std::max(flops / peak_gflops, bytes / bandwidth_gbps);
  placement.time_at_roof_ns = static_cast<std::int64_t>(std::llround(time_at_roof_ns));

  if (input.local_bytes && *input.local_bytes > 0) placeLocalRoof(model, flops, *input.local_bytes, placement, reasons);

  const bool timed = input.kernel_ns && std::isfinite(*input.kernel_ns) && *input.kernel_ns > 0;
  if (!timed) {
    reasons.push_back(
        reasonOf(input.kernel_ns ? PlacementReasonKind::kernel_time_invalid : PlacementReasonKind::not_timed));
    return placement;
  }
  const double kernel_ns = *input.kernel_ns;
  placement.achieved_gflops = finiteOrNull(flops / kernel_ns);
  if (flops > 0) {
    placement.fraction_of_roof = finiteOrNull(*placement.achieved_gflops / *placement.attainable_gflops);
  } else {
    placement.fraction_of_roof = finiteOrNull((bytes / kernel_ns) / bandwidth_gbps);
    reasons.push_back(reasonOf(PlacementReasonKind::fraction_is_bandwidth));
  }

  placement.bound = timedBound(model, input.timed_on_model_device, roof_side, placement, reasons);
  return placement;
}

}  // namespace rooflab
