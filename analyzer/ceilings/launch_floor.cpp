// An empty kernel launched one work item at a time, timed by its profiling events.
#include "analyzer/ceilings/launch_floor.hpp"

#include <algorithm>
#include <vector>

namespace rooflab {
namespace {

constexpr const char* kEmptyKernel = "kernel void rl_launch_floor(void) {}\n";
constexpr int kWarmupLaunches = 5;
constexpr int kTimedLaunches = 41;

}  // namespace

std::optional<double> measureLaunchFloorNs(const SelectedDevice& device) {
  try {
    const cl::Context context(device.device);
    const cl::CommandQueue queue(context, device.device, CL_QUEUE_PROFILING_ENABLE);
    cl::Program program(context, kEmptyKernel);
    program.build({device.device});
    cl::Kernel kernel(program, "rl_launch_floor");
    std::vector<double> times;
    for (int i = 0; i < kWarmupLaunches + kTimedLaunches; ++i) {
      cl::Event event;
      queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1), nullptr, &event);
      event.wait();
      if (i < kWarmupLaunches) continue;
      times.push_back(static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                          event.getProfilingInfo<CL_PROFILING_COMMAND_START>()));
    }
    std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
    const double median = times[times.size() / 2];
    return median > 0 ? std::optional<double>(median) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace rooflab
