#pragma once
// Why a host's timings may be noisy, in words, as the terminal, the ceilings' table, the HTML and
// the diff say it. A finding read from a schema-1 results file is said as that file saved it.
#include <string>

#include "analyzer/data/host_condition.hpp"

namespace rooflab::reports {

// "load average 5.89 on 2 cores (2.94 per core, above 0.50): other processes share the cores",
// each noisy reading's clause joined by "; ".
std::string hostNoiseText(const HostNoise& noise);

// "GPU SM clock 1755-1980 MHz over 84 samples": the clock a batch sampled after its points.
std::string gpuClockText(const GpuClockSamples& clock);

}  // namespace rooflab::reports
