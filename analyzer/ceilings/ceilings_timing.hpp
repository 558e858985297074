#pragma once
// How `rooflab ceilings` (analyzer/ceilings/ceilings.cpp) builds, launches and times one micro-benchmark: the
// device's profiling queue with the run's settings, program builds whose errors name the device,
// device time from profiling events (never host clocks), repetitions to the noise target and the
// calibration of a kernel's iteration count.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/support/cl_error.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/stats/stopping_rule.hpp"

namespace rooflab::ceiling_bench {

// Settings come from CeilingsOptions (measureCeilings), which holds their defaults.
struct Bench {
  const SelectedDevice& device;
  cl::Context context;
  cl::CommandQueue queue;
  bool cpu;
  int repetitions;
  std::int64_t min_kernel_ns;
  NoiseTarget target;  // repetitions is its floor
};

// Benchmark errors name the device: they also reach a run's log and results, beside other devices'.
ClErrorContext onDevice(const Bench& bench);

// Throws std::runtime_error naming the file, its options, the device and the build log.
cl::Program buildProgram(Bench& bench, std::string_view source, const std::string& options, const char* file);

std::size_t floorPowerOfTwo(std::size_t value);

// The largest power-of-two group size no larger than `wanted` that the compiled kernel accepts.
std::size_t fitGroupSize(const cl::Kernel& kernel, const cl::Device& device, std::size_t wanted);

// Device time of one launch, from the profiling event (host clocks would add queueing and launch).
std::int64_t launchNs(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local);

// Whether the launch just before timing already ran the kernel as it will be timed: a calibrated
// kernel's last calibration launch ran the chosen iteration count for at least min_kernel_ns.
enum class Warmed { no, by_calibration };

// One warm-up launch (first-touch page faults, clock ramp-up) unless the kernel was just run as it
// will be timed, then timed repetitions until the noise target: at least bench.repetitions, then
// until the 95% interval of the median rate is within max_noise of it or the benchmark's time
// budget is spent (analyzer/stats/stopping_rule.hpp). Fills the result's rates, times, repetitions and
// spread, or its error.
void timeRepetitions(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local, double work_per_run,
                     CeilingBenchmark& result, Warmed warmed = Warmed::no);

// A time sampled by `sample_ns` (a transfer, a launch: anything that is not one kernel's run),
// repeated as timeRepetitions repeats a kernel: at least target.min_repetitions, then until the
// median's 95% interval is within target.max_noise or the target's time budget is spent. A sample of
// 0 or less is the timer's resolution or below: the figure then has no median and the caller says so.
LatencyFigure timeSamples(const std::function<std::int64_t()>& sample_ns, const NoiseTarget& target);

// Iterations that make one launch last at least bench.min_kernel_ns, found by growing a short
// pilot run: the same kernel must take milliseconds on an H100 and on a two-core CPU.
std::uint32_t calibrateIterations(Bench& bench, cl::Kernel& kernel, cl_uint iterations_arg, std::size_t global,
                                  std::size_t local);

// Runs one benchmark's body; an OpenCL or other error becomes the benchmark's error, and the others
// still run.
template <class Body>
void runGuarded(const Bench& bench, CeilingBenchmark& result, Body&& body) {
  try {
    body();
  } catch (const cl::Error& error) {
    result.error = describeClError(error, onDevice(bench));
  } catch (const std::exception& error) {
    result.error = error.what();
  }
}

}  // namespace rooflab::ceiling_bench
