#include "analyzer/ceilings/ceilings.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "analyzer/device/host_condition.hpp"
#include "analyzer/ceilings/ceilings_timing.hpp"
#include "analyzer/support/cl_error.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "embedded_ceilings_dram_bandwidth.hpp"
#include "embedded_ceilings_fp32_peak.hpp"
#include "embedded_ceilings_local_bandwidth.hpp"

namespace rooflab {
namespace {

using namespace ceiling_bench;

constexpr std::uint64_t kMiB = 1024 * 1024;
// A GPU's DRAM working set: at least this much and kLastLevelCacheMultiple x its last-level cache,
// so that caches hold a negligible part of it. 2 GiB, because a launch's ramp-up and tail are a
// few microseconds: on an H100 a 512 MiB read (170 us) lost 1.5% to them, and a reduction over
// 1 GiB then beat the read ceiling (3,069 against 3,024 GB/s, bench/results/2026-11-23-h100-ceilings-bound-rungs).
constexpr std::uint64_t kGpuDramFloorBytes = 2048 * kMiB;
constexpr std::uint64_t kLastLevelCacheMultiple = 8;
// A CPU's: at least this much (beyond the L3 that most machines give a few cores, yet small enough
// that CI's run stays short) and kLastLevelCacheMultiple x the host's last-level cache.
constexpr std::uint64_t kCpuDramBufferBytes = 128 * kMiB;
constexpr std::int64_t kDefaultMinKernelNs = 10'000'000;

// Work per iteration, as written in the kernels (analyzer/ceilings/*.cl).
constexpr int kFmaChainsPerGroup = 8;
constexpr int kFmaStepsPerIteration = 8;
constexpr int kLocalReadsPerIteration = 8;
constexpr std::uint64_t kLocalTileMaxBytes = 16 * 1024;

// Geometry: a CPU runs a few work-groups per core (PoCL's pthread device has one worker thread per
// compute unit, and the workers take work-groups from a shared counter: a few groups per core keep
// every core busy and let a core that another process interrupts fall behind without idling the
// rest); a GPU needs many resident warps per SM to hide latency, several groups of 256.
struct LaunchShape {
  std::size_t local_size;
  std::size_t groups_per_cu;
};
LaunchShape dramShape(bool cpu) { return cpu ? LaunchShape{16, 4} : LaunchShape{256, 8}; }
LaunchShape fp32Shape(bool cpu) { return cpu ? LaunchShape{16, 4} : LaunchShape{256, 16}; }
LaunchShape localShape(bool cpu) { return cpu ? LaunchShape{64, 4} : LaunchShape{256, 8}; }

CeilingBenchmark namedBenchmark(const char* name, const char* unit) {
  CeilingBenchmark benchmark;
  benchmark.name = name;
  benchmark.unit = unit;
  return benchmark;
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::uint64_t dramBufferBytes(const DeviceInfo& info, std::uint64_t last_level_cache_bytes,
                              const CeilingsOptions& options) {
  std::uint64_t wanted = options.dram_buffer_bytes;
  if (wanted == 0)
    wanted = std::max(info.type == "CPU" ? kCpuDramBufferBytes : kGpuDramFloorBytes,
                      kLastLevelCacheMultiple * last_level_cache_bytes);
  std::uint64_t cap = info.global_mem_bytes / 4;
  if (info.max_alloc_bytes > 0) cap = std::min(cap, info.max_alloc_bytes);
  return cap > 0 ? std::min(wanted, cap) : wanted;
}

int nativeFloatWidth(const cl::Device& device) {
  const cl_uint width = device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
  for (int supported : {16, 8, 4, 2})
    if (width >= cl_uint(supported)) return supported;
  return 1;
}

const char* floatType(int width) {
  switch (width) {
    case 1: return "float";
    case 2: return "float2";
    case 4: return "float4";
    case 8: return "float8";
    default: return "float16";
  }
}

// The best of several kernels of one kind: the one with the highest best rate. A failure stands in
// until some kernel succeeds, so that a kind where all failed keeps an error.
void keepBest(CeilingBenchmark& best, const CeilingBenchmark& candidate) {
  if (candidate.best_rate) {
    if (!best.best_rate || *candidate.best_rate > *best.best_rate) best = candidate;
  } else if (!best.best_rate && !best.error) {
    best = candidate;
  }
}

std::vector<int> dramWidths(const Bench& bench) {
  std::vector<int> widths = {1, 2, 4};
  // A CPU's native width too: AVX-512 loads 64 bytes at once.
  if (bench.cpu && nativeFloatWidth(bench.device.device) > 4) widths.push_back(nativeFloatWidth(bench.device.device));
  return widths;
}

// A CPU's native width and half of it; 1 and 2 on a GPU.
std::vector<int> fp32Widths(const Bench& bench) {
  const int native = nativeFloatWidth(bench.device.device);
  return native == 1 ? std::vector<int>{1, 2} : std::vector<int>{native, native / 2};
}

// The local-memory benchmark's compile-time shape; the group size shrinks if the kernel cannot take it.
struct LocalPlan {
  int width;
  std::size_t tile_vectors;
  std::size_t group_size;
};

LocalPlan localPlan(const Bench& bench) {
  const DeviceInfo& info = bench.device.info;
  const int width = bench.cpu ? std::max(4, nativeFloatWidth(bench.device.device)) : 4;
  const std::uint64_t tile_bytes_wanted =
      std::min<std::uint64_t>(kLocalTileMaxBytes, std::max<std::uint64_t>(1024, info.local_mem_bytes / 2));
  return {width, floorPowerOfTwo(static_cast<std::size_t>(tile_bytes_wanted / (std::size_t(width) * sizeof(float)))),
          floorPowerOfTwo(std::min(localShape(bench.cpu).local_size, info.max_work_group_size))};
}

cl::Program buildLocalProgram(Bench& bench, const LocalPlan& plan) {
  return buildProgram(bench, embedded::ceilings_local_bandwidth,
                      "-D RL_VECTOR_WIDTH=" + formatNumber(plan.width) + " -D RL_TILE_VECTORS=" +
                          formatNumber(plan.tile_vectors) + " -D RL_GROUP_SIZE=" + formatNumber(plan.group_size) + "u",
                      "local_bandwidth.cl");
}

// Every benchmark's program, built concurrently before anything is timed: NVIDIA's compiler took
// 0.1 to 0.7 s a program on an H100, and one build after another cost more than all the timed runs.
// measureCeilings waits for every build before the first timed launch, so compiles never compete
// with a measurement (on a CPU device they would share its cores). get() rethrows a failed build's
// error inside the benchmark's guard.
struct ProgramsInFlight {
  std::map<int, std::shared_future<cl::Program>> dram;  // by vector width
  std::map<int, std::shared_future<cl::Program>> fp32;  // by vector width
  std::shared_future<cl::Program> local;

  ProgramsInFlight(Bench& bench, const LocalPlan& local_plan) {
    auto start = [&bench](auto build) { return std::async(std::launch::async, build).share(); };
    const std::string dram_options =
        bench.cpu ? "-D RL_CONTIGUOUS_CHUNKS -cl-fast-relaxed-math" : "-cl-fast-relaxed-math";
    for (int width : dramWidths(bench))
      dram[width] = start([&bench, dram_options, width] {
        return buildProgram(bench, embedded::ceilings_dram_bandwidth,
                            dram_options + " -D RL_DRAM_TYPE=" + floatType(width), "dram_bandwidth.cl");
      });
    for (int width : fp32Widths(bench))
      fp32[width] = start([&bench, width] {
        return buildProgram(bench, embedded::ceilings_fp32_peak, "-D RL_VECTOR_WIDTH=" + formatNumber(width),
                            "fp32_peak.cl");
      });
    local = start([&bench, local_plan] { return buildLocalProgram(bench, local_plan); });
  }
  ProgramsInFlight(const ProgramsInFlight&) = delete;
  ProgramsInFlight& operator=(const ProgramsInFlight&) = delete;
  // Every build has ended before the context they use goes.
  ~ProgramsInFlight() { waitAll(); }

  void waitAll() const {
    for (const auto* programs : {&dram, &fp32})
      for (const auto& [width, program] : *programs) program.wait();
    if (local.valid()) local.wait();
  }
};

// One pair of buffers (and a sink) for every DRAM kernel: the largest allocations of the ceilings are
// made once, whatever the number of candidates.
struct DramSetup {
  std::map<int, cl::Program> programs;  // by vector width
  std::size_t local = 0, resident_global = 0;
  std::uint64_t buffer_bytes = 0;
  cl::Buffer src, dst, sink;
};

DramSetup setUpDram(Bench& bench, const ProgramsInFlight& builds, const std::vector<int>& widths,
                    std::uint64_t wanted_buffer_bytes) {
  const DeviceInfo& info = bench.device.info;
  DramSetup dram;
  const LaunchShape shape = dramShape(bench.cpu);
  dram.local = std::min(shape.local_size, info.max_work_group_size);
  for (int width : widths) {
    dram.programs[width] = builds.dram.at(width).get();
    for (const char* kind : {"read", "copy", "write"})
      dram.local =
          fitGroupSize(cl::Kernel(dram.programs[width], ("dram_" + std::string(kind) + "_" + floatType(width)).c_str()),
                       bench.device.device, dram.local);
  }
  dram.resident_global = dram.local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
  // Whole 64-byte chunks (a float16), the same count for every work-item of the resident grid, so
  // that every width divides the buffer evenly.
  const std::uint64_t chunks_per_item = std::max<std::uint64_t>(1, wanted_buffer_bytes / 64 / dram.resident_global);
  dram.buffer_bytes = chunks_per_item * dram.resident_global * 64;
  dram.src = cl::Buffer(bench.context, CL_MEM_READ_WRITE, dram.buffer_bytes);
  dram.dst = cl::Buffer(bench.context, CL_MEM_READ_WRITE, dram.buffer_bytes);
  dram.sink = cl::Buffer(bench.context, CL_MEM_READ_WRITE, sizeof(float));
  bench.queue.enqueueFillBuffer(dram.src, 1.0f, 0, dram.buffer_bytes);
  bench.queue.enqueueFillBuffer(dram.dst, 0.0f, 0, dram.buffer_bytes);
  bench.queue.finish();
  return dram;
}

void setDramArgs(cl::Kernel& kernel, const std::string& name, const DramSetup& dram, std::uint32_t per_item) {
  if (name == "dram_read") {
    kernel.setArg(0, dram.src);
    kernel.setArg(1, dram.sink);
    kernel.setArg(2, static_cast<cl_uint>(per_item));
    kernel.setArg(3, -1.0f);  // a sum of 1.0s never equals it: the sink is never written
  } else if (name == "dram_copy") {
    kernel.setArg(0, dram.src);
    kernel.setArg(1, dram.dst);
    kernel.setArg(2, static_cast<cl_uint>(per_item));
  } else {
    kernel.setArg(0, dram.dst);
    kernel.setArg(1, 2.0f);
    kernel.setArg(2, static_cast<cl_uint>(per_item));
  }
}

// DRAM: read, copy and write kernels over float, float2, float4 (and the native width on a CPU:
// AVX-512 loads 64 bytes at once). On a GPU each also runs in two geometries: a resident grid whose
// work-items loop over the buffer, and one element per work-item over a grid of many waves (the way
// most kernels, and torch's copy, are launched). Every kernel moves the whole buffer.
void measureDram(Bench& bench, const ProgramsInFlight& builds, const CeilingsOptions& options,
                 std::uint64_t last_level_cache_bytes, CeilingsReport& report) {
  report.dram_copy = namedBenchmark("dram_copy", "GB/s");
  report.dram_read = namedBenchmark("dram_read", "GB/s");
  CeilingBenchmark dram_write = namedBenchmark("dram_write", "GB/s");
  const std::vector<int> widths = dramWidths(bench);
  DramSetup dram;
  CeilingBenchmark setup;
  runGuarded(bench, setup, [&] {
    dram = setUpDram(bench, builds, widths, dramBufferBytes(bench.device.info, last_level_cache_bytes, options));
  });
  if (setup.error) {
    report.dram_copy.error = report.dram_read.error = dram_write.error = setup.error;
    report.dram_write = dram_write;
    return;
  }

  const bool geometries[] = {true, false};  // resident grid; one element per work-item (GPU only)
  for (bool resident : geometries) {
    if (!resident && bench.cpu) continue;
    for (int width : widths) {
      const std::uint64_t elements = dram.buffer_bytes / (sizeof(float) * std::uint64_t(width));
      const std::size_t global = resident ? dram.resident_global : static_cast<std::size_t>(elements);
      const auto per_item = static_cast<std::uint32_t>(elements / global);
      const std::string type = floatType(width);
      BenchmarkShape shape;
      shape.global_items = global;
      shape.local_items = dram.local;
      shape.element_type = type;
      shape.buffer_bytes = dram.buffer_bytes;
      shape.elements_per_item = resident ? per_item : 0;
      shape.contiguous_chunks = resident && bench.cpu;
      for (const char* kind : {"read", "copy", "write"}) {
        CeilingBenchmark candidate = namedBenchmark(("dram_" + std::string(kind)).c_str(), "GB/s");
        const std::string function = candidate.name + "_" + type;
        // The launch shape is part of what set a roof: on a GPU each function runs in both.
        candidate.kernel = function + (resident ? "" : ", one per work-item");
        candidate.vector_width = width;
        const bool copy = candidate.name == "dram_copy";
        candidate.shape = shape;
        candidate.shape.buffers = copy ? 2 : 1;
        runGuarded(bench, candidate, [&] {
          cl::Kernel kernel(dram.programs.at(width), function.c_str());
          setDramArgs(kernel, candidate.name, dram, per_item);
          timeRepetitions(bench, kernel, global, dram.local, (copy ? 2.0 : 1.0) * double(dram.buffer_bytes), candidate);
        });
        report.candidates.push_back(candidate);
        keepBest(candidate.name == "dram_read" ? report.dram_read : copy ? report.dram_copy : dram_write, candidate);
      }
    }
  }
  report.dram_write = dram_write;
}

// FP32: 8, 16 and 32 independent chains per work-item, each at two vector widths (a CPU's native
// width and half of it; 1 and 2 on a GPU), each calibrated to run min_kernel_ns. One program per
// width holds the three chain counts, and one output buffer serves every kernel: builds and
// allocations do not grow with the candidates.
void measureFp32(Bench& bench, const ProgramsInFlight& builds, CeilingsReport& report) {
  report.fp32_fma = namedBenchmark("fp32_fma", "GFLOP/s");
  const DeviceInfo& info = bench.device.info;
  const std::vector<int> widths = fp32Widths(bench);
  const LaunchShape shape = fp32Shape(bench.cpu);
  // The largest grid any kernel gets (fitGroupSize only shrinks the group) at the widest vector.
  const int widest = *std::max_element(widths.begin(), widths.end());
  const std::size_t out_bytes = std::min(shape.local_size, info.max_work_group_size) * shape.groups_per_cu *
                                std::max<std::uint32_t>(1, info.compute_units) * std::size_t(widest) * sizeof(float);
  cl::Buffer out;
  CeilingBenchmark allocation;
  runGuarded(bench, allocation, [&] { out = cl::Buffer(bench.context, CL_MEM_WRITE_ONLY, out_bytes); });
  for (int width : widths) {
    cl::Program program;
    CeilingBenchmark setup;
    setup.error = allocation.error;
    if (!setup.error) runGuarded(bench, setup, [&] { program = builds.fp32.at(width).get(); });
    for (int chain_groups : {1, 2, 4}) {
      const int chains = chain_groups * kFmaChainsPerGroup;
      CeilingBenchmark result = namedBenchmark("fp32_fma", "GFLOP/s");
      result.kernel = "fp32_fma_chains " + formatNumber(chains) + " x " + floatType(width);
      result.vector_width = width;
      result.error = setup.error;
      if (!setup.error)
        runGuarded(bench, result, [&] {
          cl::Kernel kernel(program, ("fp32_fma_chains_" + formatNumber(chains)).c_str());
          const std::size_t local =
              fitGroupSize(kernel, bench.device.device, std::min(shape.local_size, info.max_work_group_size));
          const std::size_t global = local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
          kernel.setArg(0, out);
          kernel.setArg(1, 0.9999f);  // x -> 0.9999 x + 0.0001 converges to 1: finite, never denormal
          kernel.setArg(2, 0.0001f);
          const std::uint32_t iterations = calibrateIterations(bench, kernel, 3, global, local);
          kernel.setArg(3, static_cast<cl_uint>(iterations));
          const double flops = double(global) * iterations * chains * kFmaStepsPerIteration * width * 2.0;
          result.shape.global_items = global;
          result.shape.local_items = local;
          result.shape.element_type = floatType(width);
          result.shape.chains = chains;
          result.shape.iterations = iterations;
          result.shape.steps_per_iteration = kFmaStepsPerIteration;
          timeRepetitions(bench, kernel, global, local, flops, result, Warmed::by_calibration);
        });
      report.candidates.push_back(result);
      keepBest(report.fp32_fma, result);
    }
  }
}

void measureLocal(Bench& bench, const ProgramsInFlight& builds, const LocalPlan& plan, CeilingsReport& report) {
  CeilingBenchmark& result = report.local_read;
  result = namedBenchmark("local_read", "GB/s");
  runGuarded(bench, result, [&] {
    const DeviceInfo& info = bench.device.info;
    const int width = plan.width;
    result.kernel = std::string("local_read ") + floatType(width);
    result.vector_width = width;
    const std::size_t vector_bytes = std::size_t(width) * sizeof(float);
    const std::size_t tile_vectors = plan.tile_vectors;
    const LaunchShape shape = localShape(bench.cpu);
    std::size_t local = plan.group_size;
    // The group size is compiled in; rebuild smaller if the compiled kernel cannot take it.
    cl::Program program = builds.local.get();
    cl::Kernel kernel(program, "local_read");
    for (std::size_t fitting = fitGroupSize(kernel, bench.device.device, local); fitting != local;
         fitting = fitGroupSize(kernel, bench.device.device, local)) {
      local = fitting;
      program = buildLocalProgram(bench, LocalPlan{width, tile_vectors, local});
      kernel = cl::Kernel(program, "local_read");
    }
    const std::size_t global = local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
    cl::Buffer out(bench.context, CL_MEM_WRITE_ONLY, global * vector_bytes);
    kernel.setArg(0, out);
    const std::uint32_t iterations = calibrateIterations(bench, kernel, 1, global, local);
    kernel.setArg(1, static_cast<cl_uint>(iterations));
    const double bytes = double(global) * iterations * kLocalReadsPerIteration * double(vector_bytes);
    result.shape.global_items = global;
    result.shape.local_items = local;
    result.shape.element_type = floatType(width);
    result.shape.tile_bytes = tile_vectors * vector_bytes;
    result.shape.iterations = iterations;
    result.shape.steps_per_iteration = kLocalReadsPerIteration;
    timeRepetitions(bench, kernel, global, local, bytes, result, Warmed::by_calibration);
  });
}

}  // namespace

CeilingsReport measureCeilings(const SelectedDevice& device, const CeilingsOptions& options) {
  CeilingsReport report;
  report.device = device.info;
  report.measured_at = utcNow();

  const int repetitions = std::max(1, options.repetitions);
  NoiseTarget target;
  target.min_repetitions = static_cast<std::size_t>(repetitions);
  target.max_repetitions = static_cast<std::size_t>(std::max(repetitions, options.max_repetitions));
  target.max_noise = std::max(0.0, options.max_noise);
  target.max_time_s = std::max(0.0, options.max_seconds_per_benchmark);
  Bench bench{device,      {},
              {},          device.info.type == "CPU",
              repetitions, options.min_kernel_ns > 0 ? options.min_kernel_ns : kDefaultMinKernelNs,
              target};
  try {
    bench.context = cl::Context(device.device);
    bench.queue = cl::CommandQueue(bench.context, device.device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& error) {
    throw DeviceError("ceilings on '" + device.info.name +
                      "': cannot create a profiling queue: " + describeClError(error));
  }

  report.repetition_rule = bench.target;

  // Read before the benchmarks load the host themselves.
  report.host = readHostCondition();
  report.noisy_host = noisyHost(*report.host);

  const std::optional<DeviceModel>& datasheet = options.datasheet;
  std::uint64_t last_level_cache_bytes =
      datasheet && datasheet->last_level_cache_bytes ? *datasheet->last_level_cache_bytes : 0;
  // A CPU device runs on this host: sysfs knows its caches better than a datasheet model would.
  if (bench.cpu)
    if (const auto host_cache = readLastLevelCacheBytes()) last_level_cache_bytes = *host_cache;
  if (options.roofs) {
    const LocalPlan local_plan = localPlan(bench);
    const ProgramsInFlight builds(bench, local_plan);
    builds.waitAll();  // before anything is timed
    measureDram(bench, builds, options, last_level_cache_bytes, report);
    measureFp32(bench, builds, report);
    measureLocal(bench, builds, local_plan, report);
    measureL2(bench, datasheet && datasheet->last_level_cache_bytes ? *datasheet->last_level_cache_bytes : 0, report);
    for (Arithmetic arithmetic : options.typed_peaks) measureTypedPeak(bench, arithmetic, report);
    if (options.warp_issue_rate) measureWarpIssue(bench, report);
  }
  if (options.link_and_launch) {
    measureLaunch(bench, report);
    measureLink(bench, options.link_max_bytes, report);
  }
  if (options.roofs) report.model = measuredModel(report, datasheet, options.roof_source);
  return report;
}

}  // namespace rooflab
