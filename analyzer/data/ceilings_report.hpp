#pragma once
// What `rooflab ceilings` and a run's ceilings measured, as typed values: each benchmark with its
// spread, and the measured device model. ceilings/ measures them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/host_condition.hpp"
#include "analyzer/data/link_ceilings.hpp"
#include "analyzer/stats/stopping_rule.hpp"

namespace rooflab {

// How the repetitions of one benchmark spread, in its rate unit.
struct CeilingSpread {
  double min_rate = 0;
  double median_rate = 0;  // the median of the per-repetition rates
  double max_rate = 0;
  // The median's distribution-free interval (medianInterval) and the coverage it reaches: below
  // 95% only when the budget allowed fewer than 6 repetitions.
  double median_lower_rate = 0;
  double median_upper_rate = 0;
  double confidence = 0;
  // Relative half-width of that interval when it reaches 95%: the benchmark's noise.
  std::optional<double> noise;
  StopDecision stopped = StopDecision::keep_going;  // converged, or budget_exhausted when still noisy
  double measured_seconds = 0;                      // spent on timed repetitions
};

// Where the L2 benchmark took the cache size that sized its buffer.
enum class CacheSizeSource {
  none,
  device,        // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
  datasheet,     // the datasheet model's last_level_cache_bytes, larger than the device's figure
  host_sysfs,    // a CPU device: the host's last-level cache from sysfs
  host_cpuinfo,  // a CPU device: the host's cache size from /proc/cpuinfo
};

// What one benchmark launched, in counts; reports/ words it, the benchmark's name choosing the words.
// A zero field does not apply to that benchmark.
struct BenchmarkShape {
  std::uint64_t global_items = 0;
  std::uint64_t local_items = 0;
  std::string element_type;  // "float4", "double2", "uint"
  // DRAM and L2: the buffers read or written and the bytes of each; the elements each work-item
  // moves (0: one element per work-item), as contiguous chunks (a CPU) or interleaved (a GPU).
  int buffers = 0;
  std::uint64_t buffer_bytes = 0;
  std::uint64_t elements_per_item = 0;
  bool contiguous_chunks = false;
  // Arithmetic, local memory, L2 and issue: the calibrated iterations (the L2's passes) and what
  // one iteration does per chain or per work-item.
  int chains = 0;
  std::uint64_t iterations = 0;
  int steps_per_iteration = 0;
  std::uint64_t tile_bytes = 0;   // local_read: the work-group's tile
  std::uint32_t warp_items = 0;   // warp_issue: work-items per warp instruction
  std::uint64_t cache_bytes = 0;  // l2_read: the cache size the buffer was chosen within half of
  CacheSizeSource cache_source = CacheSizeSource::none;
  std::uint64_t device_cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, where the datasheet's was used
};

std::string toString(CacheSizeSource source);  // "none" | "device" | "datasheet" | "host-sysfs" | "host-cpuinfo"
std::optional<CacheSizeSource> parseCacheSizeSource(std::string_view text);

// One micro-benchmark's outcome. A failing benchmark keeps its error and the others still run.
struct CeilingBenchmark {
  std::string
      name;  // dram_copy | dram_read | dram_write | fp32_fma | local_read | l2_read | fp64_fma | int32_mad | warp_issue
  std::string unit;                   // "GB/s", "GFLOP/s", "GOP/s" (int32_mad) or "warp GIPS" (warp_issue)
  std::optional<double> best_rate;    // work / shortest kernel time
  std::optional<double> median_rate;  // work / median kernel time
  std::int64_t best_kernel_ns = 0;
  int repetitions = 0;
  double work_per_run = 0;  // bytes (read + written for the copy) or flops
  BenchmarkShape shape;     // launch and sizes
  // The launch and sizes as a file of an older rooflab wrote them (a sentence); shape is then empty.
  std::optional<std::string> geometry_as_saved;
  std::optional<std::string> error;
  // Which kernel this is: the kernel function with its element type, e.g.
  // "dram_read_float4" ("dram_read_float4, one per work-item" in a GPU's second launch shape), or
  // its shape, "fp32_fma_chains 16 x float16".
  std::string kernel;
  int vector_width = 0;                 // floats per element or per multiply-add chain
  std::optional<CeilingSpread> spread;  // absent when no repetition was timed
};

struct CeilingsReport {
  DeviceInfo device;
  std::string measured_at;  // UTC, ISO 8601
  CeilingBenchmark dram_copy;
  CeilingBenchmark dram_read;
  CeilingBenchmark fp32_fma;
  CeilingBenchmark local_read;
  // Key "measured", stamped with date, device and driver. peak_gflops is the FP32 figure and
  // dram_gbps the best of copy, read and write (dramCeiling(): a roof bounds what any kernel can
  // reach); absent when the FP32 benchmark or every DRAM benchmark failed.
  std::optional<DeviceModel> model;

  // dram_copy, dram_read and fp32_fma above are each the best of several kernels (vector
  // widths, geometries, chain counts); `candidates` holds every DRAM and FP32 kernel measured, the
  // winners included, in the order they ran. dram_write is the best write-only kernel; the DRAM
  // roof is the best of copy, read and write (dramCeiling()).
  std::optional<CeilingBenchmark> dram_write;
  std::vector<CeilingBenchmark> candidates;
  std::optional<HostCondition> host;    // read just before the benchmarks
  std::optional<HostNoise> noisy_host;  // noisyHost(host): why the figures may vary between runs
  // How every benchmark was repeated (from CeilingsOptions), so that a spread's `stopped` can be
  // read against it; absent in reports of older rooflab, which took a fixed best of `repetitions`.
  std::optional<NoiseTarget> repetition_rule;

  // The L2 roof and the typed peaks, each absent in older reports. l2_read reads a buffer of half the
  // device's cache many times over (analyzer/ceilings/kernels/l2_bandwidth.cl): the L2 roof. When no cache
  // size is known it is absent and l2_not_measured says why. fp64_fma and int32_mad are measured only
  // when asked (CeilingsOptions::typed_peaks).
  std::optional<CeilingBenchmark> l2_read;
  std::optional<std::string> l2_not_measured;
  std::optional<CeilingBenchmark> fp64_fma;
  std::optional<CeilingBenchmark> int32_mad;
  // Warp instructions issued per second (unit "warp GIPS"), when asked (CeilingsOptions::warp_issue_rate).
  std::optional<CeilingBenchmark> warp_issue;
  // The host link and the launch (analyzer/ceilings/ceilings_link.cpp, ceilings_launch.cpp), measured
  // only when asked (CeilingsOptions::link_and_launch); absent in older reports.
  std::optional<LinkCeilings> link;
  std::optional<LaunchCeilings> launch;

  std::vector<const CeilingBenchmark*> benchmarks() const { return {&dram_copy, &dram_read, &fp32_fma, &local_read}; }
  bool complete() const;  // every benchmark produced a figure
  // The DRAM benchmark with the highest best_rate among copy, read and write; null when all failed.
  const CeilingBenchmark* dramCeiling() const;
};

// How the analysis layers that log the ceilings' table (a batch measuring them at its start) get it:
// reports/text writes it (reports::ceilingsTable), and the command line passes it down. The datasheet
// is the model matched to the device, whose figures the table sets beside the measured ones.
using CeilingsText = std::function<std::string(const CeilingsReport&, const std::optional<DeviceModel>& datasheet)>;

// The source note of one measured roof (`roof_key`, a DeviceModel field such as "peak_gflops"): which
// benchmark set it, how it was repeated and how noisy it was. reports/text writes it
// (reports::measuredRoofSource), and the measured model keeps it among its sources.
using RoofSourceText = std::function<std::string(const CeilingsReport&, const std::string& roof_key)>;

// The words a measurement of ceilings takes from reports/.
struct CeilingsWords {
  CeilingsText table;
  RoofSourceText roof_source;
};

}  // namespace rooflab
