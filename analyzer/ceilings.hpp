#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/device_info.hpp"
#include "analyzer/device_model.hpp"

namespace rooflab {

struct SelectedDevice;

// `rooflab ceilings`: micro-benchmarks (analyzer/ceilings/*.cl) that measure the roofs of the
// device at hand, timed with OpenCL profiling events, best of N repetitions.
struct CeilingsOptions {
  int repetitions = 5;  // timed runs per benchmark after one warm-up; the best one is reported
  // Bytes of each DRAM buffer (the copy uses two). 0: chosen from the device: on a GPU
  // max(512 MiB, 8 x the datasheet's last-level cache), on a CPU 128 MiB; always capped by the maximum allocation
  // and a quarter of global memory.
  std::uint64_t dram_buffer_bytes = 0;
  // The datasheet model matched to the device (matchDeviceModel), if any. Its last-level cache
  // sizes the DRAM working set and is copied into the measured model: OpenCL has no query for the
  // L2 (NVIDIA's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is an L1 figure).
  std::optional<DeviceModel> datasheet;
  // The FP32 and local-memory kernels are calibrated to run at least this long. 0: 10 ms.
  std::int64_t min_kernel_ns = 0;
};

// One micro-benchmark's outcome. A failing benchmark keeps its error and the others still run.
struct CeilingBenchmark {
  std::string name;  // dram_copy | dram_read | fp32_fma | local_read
  std::string unit;  // "GB/s" or "GFLOP/s"
  std::optional<double> best_rate;    // work / shortest kernel time
  std::optional<double> median_rate;  // work / median kernel time
  std::int64_t best_kernel_ns = 0;
  int repetitions = 0;
  double work_per_run = 0;  // bytes (read + written for the copy) or flops
  std::string geometry;     // launch and sizes, for the report
  std::optional<std::string> error;
};

struct CeilingsReport {
  DeviceInfo device;
  std::string measured_at;  // UTC, ISO 8601
  CeilingBenchmark dram_copy;
  CeilingBenchmark dram_read;
  CeilingBenchmark fp32_fma;
  CeilingBenchmark local_read;
  // Key "measured", stamped with date, device and driver. peak_gflops is the FP32 figure and
  // dram_gbps the better of copy and read (a roof bounds what any kernel can reach); absent when the
  // FP32 benchmark or both DRAM benchmarks failed.
  std::optional<DeviceModel> model;

  std::vector<const CeilingBenchmark*> benchmarks() const { return {&dram_copy, &dram_read, &fp32_fma, &local_read}; }
  bool complete() const;  // every benchmark produced a figure
};

// Runs the four benchmarks on `device`. Throws DeviceError when no context or profiling queue can
// be made; errors of single benchmarks are recorded in their CeilingBenchmark.
CeilingsReport measureCeilings(const SelectedDevice& device, const CeilingsOptions& options = {});

// Terminal table: each measured figure beside the matched datasheet model's and their ratio.
// Measured figures above the datasheet (boost clocks) are shown as they are, never clamped.
std::string formatCeilingsReport(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet);

}  // namespace rooflab
