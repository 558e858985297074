#pragma once
#include <cstddef>
#include <functional>
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

// Why timings taken on a host may be noisy (noisyHost, analyzer/device/host_condition.hpp): each
// reading that is past its limit, with its figures and the limit; absent, the reading was quiet.
struct HostLoadNoise {  // other processes share the cores
  double load_average_1min = 0;
  unsigned core_count = 0;
  double load_per_core = 0;
  double max_load_per_core = 0;
};
struct GpuClockNoise {  // the GPU changed its SM clock under the measurement
  double min_mhz = 0;
  double max_mhz = 0;
  double spread_fraction = 0;  // (max - min) / max
  double max_spread_fraction = 0;
};
struct HostNoise {
  std::optional<HostLoadNoise> load;
  std::optional<std::string> cpu_governor;  // a governor other than "performance": clocks may change
  std::optional<GpuClockNoise> gpu_clock;
  // The sentence a schema-1 results file saved (its figures were not): reports show it as written.
  std::optional<std::string> text_as_saved;
};

// How the analysis layers that print a host's noise (the batch's warnings, the ceilings' table) get
// its sentence: reports/text writes it, and the command line passes it down.
using HostNoiseText = std::function<std::string(const HostNoise&)>;

// How the batch says the GPU clock it sampled (reports::gpuClockText), for the same reason.
using GpuClockText = std::function<std::string(const GpuClockSamples&)>;

}  // namespace rooflab
