#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/data/run_record.hpp"

namespace rooflab {

// What the device and the model tell about where a point's bytes really came from.
struct RoofExcessContext {
  std::uint64_t device_cache_bytes = 0;            // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; 0 unknown
  std::optional<std::uint64_t> model_cache_bytes;  // the model's last_level_cache_bytes
  std::uint64_t timer_resolution_ns = 0;           // CL_DEVICE_PROFILING_TIMER_RESOLUTION; 0 unknown
  bool timed_on_model_device = true;
};

// A median within this many timer ticks carries a rounding error of several percent.
inline constexpr double kTimerResolutionMargin = 20.0;

// nullopt when the placement is not above its roof (fraction_of_roof <= 1). Otherwise why, as far
// as rooflab can tell: the run was timed on another device than the model; the working set fits in
// the device's cache (so repetitions read it from there, not from DRAM); the counters saw fewer DRAM
// bytes than the compulsory ones; the median is near the timer's resolution. No cause: none that
// rooflab can tell, and the roof's own figure is then the suspect.
std::optional<AboveRoof> explainAboveRoof(const RunRecord& record, const RooflinePlacement& placement,
                                          const RoofExcessContext& context);

}  // namespace rooflab
