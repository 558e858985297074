#include "analyzer/ceilings/ceilings_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "analyzer/stats/stats.hpp"

namespace rooflab::ceiling_bench {
namespace {

constexpr double kMaxIterations = 1u << 30;

}  // namespace

std::size_t floorPowerOfTwo(std::size_t value) {
  std::size_t power = 1;
  while (power * 2 <= value) power *= 2;
  return power;
}

ClErrorContext onDevice(const Bench& bench) { return {"", bench.device.info.name}; }

cl::Program buildProgram(Bench& bench, std::string_view source, const std::string& options, const char* file) {
  cl::Program program(bench.context, std::string(source));
  try {
    program.build(std::vector<cl::Device>{bench.device.device}, options.c_str());
  } catch (const cl::Error& error) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(bench.device.device);
    } catch (const cl::Error&) {
    }
    throw std::runtime_error(std::string("building analyzer/ceilings/") + file + " with '" + options +
                             "': " + describeClError(error, onDevice(bench)) + (log.empty() ? "" : ": " + log));
  }
  return program;
}

std::size_t fitGroupSize(const cl::Kernel& kernel, const cl::Device& device, std::size_t wanted) {
  std::size_t limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
  return floorPowerOfTwo(std::max<std::size_t>(1, std::min(wanted, limit)));
}

std::int64_t launchNs(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local) {
  cl::Event event;
  bench.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &event);
  event.wait();
  const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<std::int64_t>(end - start) : 0;
}

void timeRepetitions(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local, double work_per_run,
                     CeilingBenchmark& result, Warmed warmed) {
  if (warmed == Warmed::no) launchNs(bench, kernel, global, local);
  std::vector<std::int64_t> times_ns;
  std::vector<double> rates;  // bytes per ns are GB/s and flops per ns GFLOP/s
  StopCheck check;
  double elapsed_s = 0;
  const auto started = std::chrono::steady_clock::now();
  result.work_per_run = work_per_run;
  while (check.decision == StopDecision::keep_going) {
    const std::int64_t ns = launchNs(bench, kernel, global, local);
    elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (ns <= 0) {
      result.error = "kernel time below the timer resolution: make the benchmark larger";
      return;
    }
    times_ns.push_back(ns);
    rates.push_back(work_per_run / double(ns));
    check = checkStop(rates, elapsed_s, bench.target);
  }
  std::sort(times_ns.begin(), times_ns.end());
  result.repetitions = static_cast<int>(times_ns.size());
  result.best_kernel_ns = times_ns.front();
  result.best_rate = work_per_run / double(times_ns.front());
  result.median_rate = work_per_run / double(times_ns[times_ns.size() / 2]);

  const MedianInterval median = medianInterval(rates, bench.target.confidence);
  CeilingSpread spread;
  spread.min_rate = *std::min_element(rates.begin(), rates.end());
  spread.max_rate = *std::max_element(rates.begin(), rates.end());
  spread.median_rate = median.median;
  spread.median_lower_rate = median.lower;
  spread.median_upper_rate = median.upper;
  spread.confidence = median.confidence;
  spread.noise = medianNoise(median);
  spread.stopped = check.decision;
  spread.measured_seconds = elapsed_s;
  result.spread = spread;
}

LatencyFigure timeSamples(const std::function<std::int64_t()>& sample_ns, const NoiseTarget& target) {
  LatencyFigure figure;
  std::vector<double> times_ns;
  StopCheck check;
  const auto started = std::chrono::steady_clock::now();
  while (check.decision == StopDecision::keep_going) {
    const std::int64_t ns = sample_ns();
    figure.measured_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (ns <= 0) return figure;
    times_ns.push_back(static_cast<double>(ns));
    check = checkStop(times_ns, figure.measured_seconds, target);
  }
  const MedianInterval median = medianInterval(times_ns, target.confidence);
  figure.repetitions = static_cast<int>(times_ns.size());
  figure.median_ns = median.median;
  figure.best_ns = *std::min_element(times_ns.begin(), times_ns.end());
  figure.median_lower_ns = median.lower;
  figure.median_upper_ns = median.upper;
  figure.noise = medianNoise(median);
  figure.stopped = check.decision;
  return figure;
}

std::uint32_t calibrateIterations(Bench& bench, cl::Kernel& kernel, cl_uint iterations_arg, std::size_t global,
                                  std::size_t local) {
  double iterations = 16;
  for (;;) {
    kernel.setArg(iterations_arg, static_cast<cl_uint>(iterations));
    const std::int64_t ns = launchNs(bench, kernel, global, local);
    if (ns >= bench.min_kernel_ns || iterations >= kMaxIterations) return static_cast<std::uint32_t>(iterations);
    // Aim 20% past the target; grow at most 16x a step, since a very short pilot times poorly.
    const double scale = ns > 0 ? std::clamp(1.2 * double(bench.min_kernel_ns) / double(ns), 1.5, 16.0) : 16.0;
    iterations = std::min(kMaxIterations, std::ceil(iterations * scale));
  }
}

}  // namespace rooflab::ceiling_bench
