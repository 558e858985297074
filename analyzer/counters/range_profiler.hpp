#pragma once
// CUPTI's range profiler (CUDA 13, cupti_range_profiler.h) around one piece of GPU work: user range,
// user replay, one range. The work is replayed once per pass CUPTI needs to collect every metric.
#include <cuda.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rooflab::counters {

struct RangeProfile {
  std::map<std::string, double> values;        // metric -> value over the range
  std::map<std::string, std::string> missing;  // metric -> why CUPTI would not collect it
  int passes = 0;
};

// Collects `metrics` over one range around `run_work` on `context` (current on this thread) of CUDA
// device `device_ordinal`. Before each pass, outside the range, calls `prepare_pass` (e.g. to restore
// the inputs, so every pass measures the same work). A metric the chip does not know goes to `missing`;
// anything else that fails throws CuptiError, CudaError or std::runtime_error with the failing call.
RangeProfile profileOneRange(CUcontext context, int device_ordinal, const std::vector<std::string>& metrics,
                             const std::function<void()>& prepare_pass, const std::function<void()>& run_work);

}  // namespace rooflab::counters
