// The L2 read ceiling of `rooflab ceilings` (analyzer/ceilings/kernels/l2_bandwidth.cl): the L2 roof of
// the hierarchical roofline, measured beside DRAM.
#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "analyzer/device/host_condition.hpp"
#include "analyzer/support/format.hpp"
#include "embedded_ceilings_l2_bandwidth.hpp"

namespace rooflab::ceiling_bench {
namespace {

// The buffer is half the cache: the other half leaves room for the lines other traffic (the
// sink, the code, the runtime) and an imperfect replacement policy take.
constexpr std::uint64_t kCacheFractionDivisor = 2;
// Groups a pass moves each work-item along: odd, so that over the passes every group's columns
// visit every other group's (the group count is a power of two, and columns wrap at the global size).
constexpr std::uint32_t kShiftGroups = 5;
constexpr std::uint32_t kLoadsPerIteration = 8;

struct CacheSize {
  std::uint64_t bytes = 0;
  CacheSizeSource source = CacheSizeSource::none;
  std::uint64_t device_bytes = 0;  // what the device reports, where the datasheet's figure is used
};

// "cache size : 1024 KB" of /proc/cpuinfo: a virtual machine often has no sysfs cache entries.
std::uint64_t cpuinfoCacheBytes() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("cache size", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) return 0;
    try {
      return std::stoull(line.substr(colon + 1)) * 1024;
    } catch (const std::exception&) {
      return 0;
    }
  }
  return 0;
}

// What the device reports, or on a GPU its datasheet's last-level cache when larger: NVIDIA
// reported 4.1 MiB on an H100 (50 MB of L2), and half of that gives too few work-items to load
// all 132 SMs. A CPU device (PoCL reports 0) runs on this host, whose caches the kernel then uses:
// sysfs's last-level cache, else /proc/cpuinfo's.
CacheSize cacheSize(const Bench& bench, std::uint64_t datasheet_cache_bytes) {
  const DeviceInfo& info = bench.device.info;
  if (!bench.cpu && datasheet_cache_bytes > info.global_mem_cache_bytes)
    return {datasheet_cache_bytes, CacheSizeSource::datasheet, info.global_mem_cache_bytes};
  if (info.global_mem_cache_bytes > 0) return {info.global_mem_cache_bytes, CacheSizeSource::device};
  if (!bench.cpu) return {};
  if (const auto host_cache = readLastLevelCacheBytes()) return {*host_cache, CacheSizeSource::host_sysfs};
  if (const std::uint64_t bytes = cpuinfoCacheBytes()) return {bytes, CacheSizeSource::host_cpuinfo};
  return {};
}

std::vector<int> l2Widths(const Bench& bench) {
  const cl_uint native = bench.device.device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
  std::vector<int> widths = {4};
  if (bench.cpu && native > 4) widths.push_back(native >= 16 ? 16 : 8);
  return widths;
}

std::string floatTypeOf(int width) { return width == 1 ? "float" : "float" + formatNumber(width); }

CeilingBenchmark measureWidth(Bench& bench, int width, std::uint64_t buffer_bytes, const CacheSize& cache,
                              const cl::Buffer& src, const cl::Buffer& sink) {
  CeilingBenchmark result;
  result.name = "l2_read";
  result.unit = "GB/s";
  result.kernel = "l2_read_" + floatTypeOf(width);
  result.vector_width = width;
  runGuarded(bench, result, [&] {
    const DeviceInfo& info = bench.device.info;
    cl::Program program = buildProgram(bench, embedded::ceilings_l2_bandwidth,
                                       std::string(bench.cpu ? "-D RL_CONTIGUOUS_CHUNKS " : "") +
                                           "-cl-fast-relaxed-math -D RL_L2_TYPE=" + floatTypeOf(width) +
                                           " -D RL_L2_WIDTH=" + formatNumber(width),
                                       "l2_bandwidth.cl");
    cl::Kernel kernel(program, "l2_read");
    const std::size_t vector_bytes = std::size_t(width) * sizeof(float);
    const std::uint64_t elements = buffer_bytes / vector_bytes;
    std::size_t local = fitGroupSize(kernel, bench.device.device,
                                     std::min<std::size_t>(bench.cpu ? 16 : 256, info.max_work_group_size));
    const std::size_t groups_per_cu = bench.cpu ? 4 : 8;
    std::size_t global = floorPowerOfTwo(local * groups_per_cu * std::max<std::uint32_t>(1, info.compute_units));
    // At least kLoadsPerIteration elements a work-item, so that every load of the unrolled loop is real.
    global = std::min<std::size_t>(global, floorPowerOfTwo(std::max<std::uint64_t>(1, elements / kLoadsPerIteration)));
    local = std::min(local, global);
    const auto per_item = static_cast<std::uint32_t>(elements / global);
    if (per_item < kLoadsPerIteration) throw std::runtime_error("the cache is too small for one load per lane");
    kernel.setArg(0, src);
    kernel.setArg(1, sink);
    kernel.setArg(2, static_cast<cl_uint>(per_item));
    kernel.setArg(4, static_cast<cl_uint>(kShiftGroups * local));
    kernel.setArg(5, -1.0f);  // a sum of 1.0s never equals it: the sink is never written
    // One pass first: a CPU compiles the kernel for its group size at the first launch, which
    // calibration would otherwise take for a long kernel.
    kernel.setArg(3, cl_uint(1));
    launchNs(bench, kernel, global, local);
    const std::uint32_t passes = calibrateIterations(bench, kernel, 3, global, local);
    kernel.setArg(3, static_cast<cl_uint>(passes));
    BenchmarkShape& shape = result.shape;
    shape.global_items = global;
    shape.local_items = local;
    shape.element_type = floatTypeOf(width);
    shape.buffers = 1;
    shape.buffer_bytes = buffer_bytes;
    shape.elements_per_item = per_item;
    shape.iterations = passes;
    shape.cache_bytes = cache.bytes;
    shape.cache_source = cache.source;
    shape.device_cache_bytes = cache.device_bytes;
    timeRepetitions(bench, kernel, global, local, double(passes) * double(elements * vector_bytes), result,
                    Warmed::by_calibration);
  });
  return result;
}

}  // namespace

void measureL2(Bench& bench, std::uint64_t datasheet_cache_bytes, CeilingsReport& report) {
  const CacheSize cache = cacheSize(bench, datasheet_cache_bytes);
  if (cache.bytes == 0) {
    report.l2_not_measured = "the device reports no global memory cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is 0)" +
                             std::string(bench.cpu ? " and the host's cache size is unknown" : "") +
                             ": no buffer size is known to stay resident in it";
    return;
  }
  // A power of two: every vector width and power-of-two global size divide it evenly.
  const std::uint64_t buffer_bytes = floorPowerOfTwo(cache.bytes / kCacheFractionDivisor);
  CeilingBenchmark best;
  best.name = "l2_read";
  best.unit = "GB/s";
  cl::Buffer src, sink;
  runGuarded(bench, best, [&] {
    src = cl::Buffer(bench.context, CL_MEM_READ_ONLY, buffer_bytes);
    sink = cl::Buffer(bench.context, CL_MEM_WRITE_ONLY, sizeof(float));
    bench.queue.enqueueFillBuffer(src, 1.0f, 0, buffer_bytes);
    bench.queue.finish();
  });
  if (!best.error)
    for (int width : l2Widths(bench)) {
      const CeilingBenchmark candidate = measureWidth(bench, width, buffer_bytes, cache, src, sink);
      report.candidates.push_back(candidate);
      if (candidate.best_rate ? !best.best_rate || *candidate.best_rate > *best.best_rate
                              : !best.best_rate && !best.error)
        best = candidate;
    }
  report.l2_read = best;
}

}  // namespace rooflab::ceiling_bench
