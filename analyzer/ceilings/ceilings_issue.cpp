// The warp-instruction issue rate of `rooflab ceilings` (analyzer/ceilings/kernels/issue_rate.cl): the
// instruction roofline's horizontal roof, in billions of warp instructions per second. Measured by
// `rooflab ceilings` and by a run whose records may get counters; a run on a device without them
// never draws an instruction roofline, and pays for none.
#include <algorithm>
#include <string>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "embedded_ceilings_issue_rate.hpp"

namespace rooflab::ceiling_bench {
namespace {

constexpr int kInstructionsPerIteration = 256;  // issue_rate.cl: 16 steps of 16 FFMA
constexpr double kWarpWorkItems = 32;           // NVIDIA's warp; a CPU's figure is per 32 work-items too

}  // namespace

void measureWarpIssue(Bench& bench, CeilingsReport& report) {
  CeilingBenchmark result;
  result.name = "warp_issue";
  result.unit = "warp GIPS";
  result.kernel = "issue_rate 16 float chains of FFMA";
  result.vector_width = 1;
  runGuarded(bench, result, [&] {
    const DeviceInfo& info = bench.device.info;
    cl::Program program = buildProgram(bench, embedded::ceilings_issue_rate, "", "issue_rate.cl");
    cl::Kernel kernel(program, "issue_rate");
    const std::size_t local = fitGroupSize(kernel, bench.device.device,
                                           std::min<std::size_t>(bench.cpu ? 16 : 256, info.max_work_group_size));
    const std::size_t global = local * (bench.cpu ? 4 : 16) * std::max<std::uint32_t>(1, info.compute_units);
    cl::Buffer out(bench.context, CL_MEM_WRITE_ONLY, global * sizeof(float));
    kernel.setArg(0, out);
    kernel.setArg(1, 0.9999f);  // x -> 0.9999 x + 0.0001 converges to 1: finite, never denormal
    kernel.setArg(2, 0.0001f);
    const std::uint32_t iterations = calibrateIterations(bench, kernel, 3, global, local);
    kernel.setArg(3, static_cast<cl_uint>(iterations));
    const double warp_instructions = double(global) * iterations * kInstructionsPerIteration / kWarpWorkItems;
    result.shape.global_items = global;
    result.shape.local_items = local;
    result.shape.iterations = iterations;
    result.shape.steps_per_iteration = kInstructionsPerIteration;
    result.shape.warp_items = static_cast<std::uint32_t>(kWarpWorkItems);
    timeRepetitions(bench, kernel, global, local, warp_instructions, result, Warmed::by_calibration);
  });
  report.candidates.push_back(result);
  report.warp_issue = result;
}

}  // namespace rooflab::ceiling_bench
