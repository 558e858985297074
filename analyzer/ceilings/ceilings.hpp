#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/ceilings_report.hpp"

namespace rooflab {

struct SelectedDevice;

// `rooflab ceilings`: micro-benchmarks (analyzer/ceilings/*.cl) that measure the roofs of the
// device at hand, timed with OpenCL profiling events, best of N repetitions.
struct CeilingsOptions {
  int repetitions = 5;  // timed runs per benchmark after one warm-up; the best one is reported
  // Bytes of each DRAM buffer (the copy uses two). 0: chosen from the device: on a GPU
  // max(512 MiB, 8 x the datasheet's last-level cache), on a CPU max(128 MiB, 8 x the host's
  // last-level cache from sysfs, all instances); always capped by the maximum allocation
  // and a quarter of global memory.
  std::uint64_t dram_buffer_bytes = 0;
  // The datasheet model matched to the device (matchDeviceModel), if any. Its last-level cache
  // sizes the DRAM working set and is copied into the measured model: OpenCL has no query for the
  // L2 (NVIDIA's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is an L1 figure).
  std::optional<DeviceModel> datasheet;
  // The FP32 and local-memory kernels are calibrated to run at least this long. 0: 10 ms.
  std::int64_t min_kernel_ns = 0;
  // Each benchmark repeats past `repetitions` until its noise (the relative half-width of the 95%
  // interval of the median rate, analyzer/stats/stopping_rule.hpp) is at most max_noise, for at most
  // max_seconds_per_benchmark of timed runs or max_repetitions runs.
  double max_noise = 0.01;
  double max_seconds_per_benchmark = 0.2;
  int max_repetitions = 1000;
  // The compute roofs beside FP32 to measure: only those some studied family's work needs
  // (Arithmetic::fp64, int32), so that a batch of float families pays for none.
  std::vector<Arithmetic> typed_peaks;
  // The warp-instruction issue rate (the instruction roofline's roof): `rooflab ceilings` always, a
  // run only where its records may get counters, the only readings that roof is drawn with.
  bool warp_issue_rate = false;
  // The host link and the launch (analyzer/data/link_ceilings.hpp): measured by `rooflab ceilings`
  // and by a run whose studies ask for end-to-end timing, not by every run. link_max_bytes is the
  // sweep's largest size; 0: 256 MiB on a GPU, 16 MiB on a CPU (always within the device's limits).
  bool link_and_launch = false;
  std::uint64_t link_max_bytes = 0;
  // false: the link and launch alone (a run on datasheet roofs whose studies ask for end-to-end
  // timing); the report then has no roof figures and no model.
  bool roofs = true;
  // Writes each measured roof's source note in the model (reports::measuredRoofSource); empty, each
  // says only when rooflab ceilings measured it.
  RoofSourceText roof_source;
};

// Runs the benchmarks on `device`. Throws DeviceError when no context or profiling queue can
// be made; errors of single benchmarks are recorded in their CeilingBenchmark.
CeilingsReport measureCeilings(const SelectedDevice& device, const CeilingsOptions& options = {});

}  // namespace rooflab
