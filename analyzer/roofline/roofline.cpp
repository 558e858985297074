#include "analyzer/roofline/roofline.hpp"

#include <algorithm>
#include <charconv>
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

// One decimal, independent of the C++ locale (reasons end up in JSON and reports).
std::string oneDecimal(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
  return std::string(buffer, result.ptr);
}

std::string percent(double fraction) { return oneDecimal(fraction * 100.0) + "%"; }

std::string gflopsText(double gflops) { return oneDecimal(gflops) + " GFLOP/s"; }

std::string joinReasons(const std::vector<std::string>& reasons) {
  std::string joined;
  for (const std::string& reason : reasons) joined += (joined.empty() ? "" : "; ") + reason;
  return joined;
}

// The local-memory roof: the rate at which the kernel's local traffic alone would take its time.
void placeLocalRoof(const DeviceModel& model, double flops, double local_bytes, RooflinePlacement& placement,
                    std::vector<std::string>& reasons) {
  if (!model.local_gbps) {
    reasons.push_back("local roof: model '" + model.key + "' has no local_gbps");
  } else if (flops == 0) {
    reasons.push_back("local roof: no flops to place under it");
  } else {
    placement.local_roof_gflops = finiteOrNull(flops / (local_bytes / *model.local_gbps));
  }
}

// What bounds a timed kernel: `roof_side` when it reaches the roof (or was timed on another device,
// where only its intensity says anything), local memory when the local roof is below the roofline
// and reached, else latency.
RooflineBound timedBound(const DeviceModel& model, bool timed_on_model_device, RooflineBound roof_side,
                         const RooflinePlacement& placement, std::vector<std::string>& reasons) {
  const double fraction = placement.fraction_of_roof.value_or(0);
  const bool local_roof_limits = placement.local_roof_gflops && *placement.attainable_gflops > 0 &&
                                 *placement.local_roof_gflops < *placement.attainable_gflops;
  if (!timed_on_model_device) {
    reasons.push_back("timed on another device: bound is the roof that limits this work on '" + model.key +
                      "', by intensity");
    return roof_side;
  }
  if (local_roof_limits && *placement.achieved_gflops >= kRoofBoundFraction * *placement.local_roof_gflops) {
    reasons.push_back("local-memory bandwidth: the local roof (" + gflopsText(*placement.local_roof_gflops) +
                      ") is below the DRAM roofline and the kernel reaches " +
                      percent(*placement.achieved_gflops / *placement.local_roof_gflops) + " of it");
    return RooflineBound::memory;
  }
  if (fraction >= kRoofBoundFraction) return roof_side;
  reasons.push_back("reaches " + percent(fraction) + " of the roof, under the " + percent(kRoofBoundFraction) +
                    " that marks a saturated resource: latency, too little parallelism or launch overhead");
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
    placement.reason =
        "model '" + model.key + "' has no " + toString(input.level) + " bandwidth: no roof at this level";
    return placement;
  }
  // The compute roof of the work's type: FP32 unless the family computes in double or integers.
  const std::optional<double> compute_peak = model.computePeak(input.arithmetic);
  if (input.arithmetic != Arithmetic::fp32 && (!compute_peak || !(*compute_peak > 0))) {
    if (validAmount(input.flops) && input.dram_bytes > 0 && std::isfinite(input.dram_bytes))
      placement.intensity = input.flops / input.dram_bytes;
    placement.reason =
        "model '" + model.key + "' has no " + toString(input.arithmetic) + " peak: no roof for this work";
    return placement;
  }
  const double peak_gflops = compute_peak.value_or(model.peak_gflops);
  const double bandwidth_gbps = *level_gbps;
  placement.ridge_intensity = peak_gflops / bandwidth_gbps;
  std::vector<std::string> reasons;

  if (!validAmount(input.flops) || !validAmount(input.dram_bytes)) {
    placement.reason = "flops or bytes are negative or not finite";
    return placement;
  }
  if (input.flops == 0 && input.dram_bytes == 0) {
    placement.reason = "no work declared: flops and bytes are both 0";
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
    reasons.push_back("no DRAM bytes: intensity is undefined, the work sits on the compute roof");
  }
  // GFLOP/s = flop/ns and GB/s = byte/ns, so the roof times come out in ns directly.
  const double time_at_roof_ns = std::max(flops / peak_gflops, bytes / bandwidth_gbps);
  placement.time_at_roof_ns = static_cast<std::int64_t>(std::llround(time_at_roof_ns));

  if (input.local_bytes && *input.local_bytes > 0) placeLocalRoof(model, flops, *input.local_bytes, placement, reasons);

  const bool timed = input.kernel_ns && std::isfinite(*input.kernel_ns) && *input.kernel_ns > 0;
  if (!timed) {
    reasons.push_back(input.kernel_ns ? "kernel time is 0 or invalid: no achieved rate"
                                      : "not timed: no achieved rate");
    placement.reason = joinReasons(reasons);
    return placement;
  }
  const double kernel_ns = *input.kernel_ns;
  placement.achieved_gflops = finiteOrNull(flops / kernel_ns);
  if (flops > 0) {
    placement.fraction_of_roof = finiteOrNull(*placement.achieved_gflops / *placement.attainable_gflops);
  } else {
    placement.fraction_of_roof = finiteOrNull((bytes / kernel_ns) / bandwidth_gbps);
    reasons.push_back("no flops: fraction_of_roof is achieved DRAM bandwidth over the model's");
  }

  placement.bound = timedBound(model, input.timed_on_model_device, roof_side, placement, reasons);
  if (!reasons.empty()) placement.reason = joinReasons(reasons);
  return placement;
}

}  // namespace rooflab
