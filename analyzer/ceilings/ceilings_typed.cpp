// The FP64 and int32 compute ceilings of `rooflab ceilings` (analyzer/ceilings/kernels/typed_peak.cl):
// the roofs of families whose work is in double or in integers, measured only when one is studied.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "analyzer/support/format.hpp"
#include "embedded_ceilings_typed_peak.hpp"

namespace rooflab::ceiling_bench {
namespace {

constexpr int kChains = 16;
constexpr int kStepsPerIteration = 8;

bool hasFp64(const cl::Device& device) {
  return device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") != std::string::npos;
}

// A CPU's native width for the type (its SIMD lanes); 1 on a GPU, whose lanes are its work-items.
int vectorWidth(const Bench& bench, Arithmetic arithmetic) {
  if (!bench.cpu) return 1;
  const cl_uint native = arithmetic == Arithmetic::fp64
                             ? bench.device.device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE>()
                             : bench.device.device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_INT>();
  for (int supported : {16, 8, 4, 2})
    if (native >= cl_uint(supported)) return supported;
  return 1;
}

}  // namespace

void measureTypedPeak(Bench& bench, Arithmetic arithmetic, CeilingsReport& report) {
  const bool fp64 = arithmetic == Arithmetic::fp64;
  if (arithmetic == Arithmetic::fp32) return;  // measureFp32's
  CeilingBenchmark result;
  result.name = fp64 ? "fp64_fma" : "int32_mad";
  result.unit = fp64 ? "GFLOP/s" : "GOP/s";
  const int width = vectorWidth(bench, arithmetic);
  const std::string scalar = fp64 ? "double" : "uint";
  const std::string type = width == 1 ? scalar : scalar + formatNumber(width);
  result.kernel = "typed_mad_chains " + formatNumber(kChains) + " x " + type;
  result.vector_width = width;
  runGuarded(bench, result, [&] {
    if (fp64 && !hasFp64(bench.device.device))
      throw std::runtime_error("the device does not support cl_khr_fp64: no double arithmetic to measure");
    const DeviceInfo& info = bench.device.info;
    cl::Program program = buildProgram(
        bench, embedded::ceilings_typed_peak,
        std::string(fp64 ? "-D RL_TYPED_DOUBLE " : "") + "-D RL_VECTOR_WIDTH=" + formatNumber(width), "typed_peak.cl");
    cl::Kernel kernel(program, "typed_mad_chains_16");
    const std::size_t local = fitGroupSize(kernel, bench.device.device,
                                           std::min<std::size_t>(bench.cpu ? 16 : 256, info.max_work_group_size));
    const std::size_t global = local * (bench.cpu ? 4 : 16) * std::max<std::uint32_t>(1, info.compute_units);
    cl::Buffer out(bench.context, CL_MEM_WRITE_ONLY,
                   global * std::size_t(width) * (fp64 ? sizeof(double) : sizeof(cl_uint)));
    kernel.setArg(0, out);
    if (fp64) {
      kernel.setArg(1, 0.9999);  // x -> 0.9999 x + 0.0001 converges to 1: finite, never denormal
      kernel.setArg(2, 0.0001);
    } else {
      kernel.setArg(1, cl_uint(1664525u));  // a linear congruential step: no value repeats soon
      kernel.setArg(2, cl_uint(1013904223u));
    }
    const std::uint32_t iterations = calibrateIterations(bench, kernel, 3, global, local);
    kernel.setArg(3, static_cast<cl_uint>(iterations));
    const double operations = double(global) * iterations * kChains * kStepsPerIteration * width * 2.0;
    result.shape.global_items = global;
    result.shape.local_items = local;
    result.shape.element_type = type;
    result.shape.chains = kChains;
    result.shape.iterations = iterations;
    result.shape.steps_per_iteration = kStepsPerIteration;
    timeRepetitions(bench, kernel, global, local, operations, result, Warmed::by_calibration);
  });
  report.candidates.push_back(result);
  (fp64 ? report.fp64_fma : report.int32_mad) = result;
}

}  // namespace rooflab::ceiling_bench
