// The launch ceilings of `rooflab ceilings` (analyzer/ceilings/kernels/launch_empty.cl): what a kernel
// launch costs before and around the kernel, timed with the empty kernel's profiling events. The
// launch latency (queued -> start) is the floor under every short kernel's time and the launch part
// of an end-to-end run.
#include <string>
#include <vector>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "embedded_ceilings_launch_empty.hpp"

namespace rooflab::ceiling_bench {
namespace {

// Launches enqueued back to back before one wait: enough that the first launch's latency is a small
// part of the burst, few enough that a CPU device's queue stays quick.
constexpr int kGpuBurst = 64;
constexpr int kCpuBurst = 16;

std::int64_t between(const cl::Event& from_event, cl_profiling_info from, const cl::Event& to_event,
                     cl_profiling_info to) {
  cl_ulong a = 0, b = 0;
  from_event.getProfilingInfo(from, &a);
  to_event.getProfilingInfo(to, &b);
  return b > a ? static_cast<std::int64_t>(b - a) : 0;
}

}  // namespace

void measureLaunch(Bench& bench, CeilingsReport& report) {
  LaunchCeilings& launch = report.launch.emplace();
  launch.burst_launches = bench.cpu ? kCpuBurst : kGpuBurst;
  CeilingBenchmark guard;
  runGuarded(bench, guard, [&] {
    cl::Program program = buildProgram(bench, embedded::ceilings_launch_empty, "", "launch_empty.cl");
    cl::Kernel kernel(program, "launch_empty");
    cl::Buffer unused(bench.context, CL_MEM_READ_WRITE, sizeof(cl_int));
    kernel.setArg(0, unused);
    auto launchOnce = [&](cl::Event& event) {
      bench.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1), nullptr, &event);
    };
    cl::Event warm;
    launchOnce(warm);
    warm.wait();
    // Each launch into an idle queue, waited for: what one launch of a kernel costs.
    launch.queued_to_start = timeSamples(
        [&] {
          cl::Event event;
          launchOnce(event);
          event.wait();
          return between(event, CL_PROFILING_COMMAND_QUEUED, event, CL_PROFILING_COMMAND_START);
        },
        bench.target);
    launch.submit_to_end = timeSamples(
        [&] {
          cl::Event event;
          launchOnce(event);
          event.wait();
          return between(event, CL_PROFILING_COMMAND_SUBMIT, event, CL_PROFILING_COMMAND_END);
        },
        bench.target);
    launch.back_to_back = timeSamples(
        [&] {
          std::vector<cl::Event> events(static_cast<std::size_t>(launch.burst_launches));
          for (cl::Event& event : events) launchOnce(event);
          bench.queue.finish();
          return between(events.front(), CL_PROFILING_COMMAND_START, events.back(), CL_PROFILING_COMMAND_END) /
                 launch.burst_launches;
        },
        bench.target);
  });
  launch.error = guard.error;
  if (!launch.error && !launch.queued_to_start.median_ns)
    launch.error = "the empty kernel's queued -> start was below the timer's resolution";
}

}  // namespace rooflab::ceiling_bench
