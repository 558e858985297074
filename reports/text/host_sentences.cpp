#include "reports/text/host_sentences.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string loadText(const HostLoadNoise& load) {
  return "load average " + formatFixedAsWritten(load.load_average_1min, 2) + " on " + std::to_string(load.core_count) +
         " cores (" + formatFixedAsWritten(load.load_per_core, 2) + " per core, above " +
         formatFixedAsWritten(load.max_load_per_core, 2) + "): other processes share the cores";
}

std::string gpuClockText(const GpuClockNoise& clock) {
  return "GPU SM clock between " + formatFixedAsWritten(clock.min_mhz, 0) + " and " +
         formatFixedAsWritten(clock.max_mhz, 0) + " MHz during the run (" +
         formatFixedAsWritten(clock.spread_fraction * 100, 1) + "% apart, above " +
         formatFixedAsWritten(clock.max_spread_fraction * 100, 1) +
         "%): the GPU changed its clock under the measurement";
}

}  // namespace

std::string hostNoiseText(const HostNoise& noise) {
  if (noise.text_as_saved) return *noise.text_as_saved;
  std::string text;
  auto add = [&text](const std::string& clause) { text += (text.empty() ? "" : "; ") + clause; };
  if (noise.load) add(loadText(*noise.load));
  if (noise.cpu_governor)
    add("CPU frequency governor '" + *noise.cpu_governor + "', not 'performance': clocks may change during the run");
  if (noise.gpu_clock) add(gpuClockText(*noise.gpu_clock));
  return text;
}

std::string gpuClockText(const GpuClockSamples& clock) {
  return "GPU SM clock " + formatFixedAsWritten(clock.min_mhz, 0) + "-" + formatFixedAsWritten(clock.max_mhz, 0) +
         " MHz over " + std::to_string(clock.count) + " samples";
}

}  // namespace rooflab::reports
