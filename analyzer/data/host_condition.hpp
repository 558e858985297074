#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace rooflab {

// What the host says about itself before a measurement: things that make timings noisy. Each
// reading is absent when its file cannot be read (containers, other systems): never an error.
// The GPU's SM clock as sampled during a batch (analyzer/device/gpu_clock.hpp).
struct GpuClockSamples {
  double min_mhz = 0;
  double max_mhz = 0;
  std::size_t count = 0;
};

struct HostCondition {
  std::optional<std::string> cpu_governor;  // cpu0's cpufreq scaling_governor, e.g. "performance"
  std::optional<double> load_average_1min;  // first field of /proc/loadavg
  std::optional<unsigned> core_count;       // online logical CPUs
  // A batch's only (the ceilings do not sample it): the SM clock after each point, or why not.
  std::optional<GpuClockSamples> gpu_sm_clock;
  std::optional<std::string> gpu_sm_clock_unavailable;
};

}  // namespace rooflab
