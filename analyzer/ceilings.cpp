#include "analyzer/ceilings.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <sstream>

#include "analyzer/cl_error.hpp"
#include "analyzer/device.hpp"
#include "analyzer/errors.hpp"
#include "embedded_ceilings_dram_bandwidth.hpp"
#include "embedded_ceilings_fp32_peak.hpp"
#include "embedded_ceilings_local_bandwidth.hpp"

namespace rooflab {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;
// A GPU's DRAM working set: at least this much and kLastLevelCacheMultiple x its last-level cache,
// so that caches hold a negligible part of it.
constexpr std::uint64_t kGpuDramFloorBytes = 512 * kMiB;
constexpr std::uint64_t kLastLevelCacheMultiple = 8;
// A CPU's: beyond the L3 of most machines, yet small enough that CI's run takes about a second.
constexpr std::uint64_t kCpuDramBufferBytes = 128 * kMiB;
constexpr std::int64_t kDefaultMinKernelNs = 10'000'000;
constexpr double kMaxIterations = 1u << 30;

// Work per iteration, as written in the kernels (analyzer/ceilings/*.cl).
constexpr int kFmaChains = 16;
constexpr int kFmaStepsPerIteration = 4;
constexpr int kLocalReadsPerIteration = 8;
constexpr std::uint64_t kLocalTileMaxBytes = 16 * 1024;

// Geometry: a CPU runs a few work-groups per core (PoCL runs each group on one thread); a GPU needs
// many resident warps per SM to hide latency, several groups of 256.
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

// Settings come from CeilingsOptions (measureCeilings), which holds their defaults.
struct Bench {
  const SelectedDevice& device;
  cl::Context context;
  cl::CommandQueue queue;
  bool cpu;
  int repetitions;
  std::int64_t min_kernel_ns;
};

std::string fixed(double value, int decimals) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  return std::string(buffer, result.ptr);
}

std::string mibText(std::uint64_t bytes) { return fixed(double(bytes) / kMiB, 1) + " MiB"; }

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::size_t floorPowerOfTwo(std::size_t value) {
  std::size_t power = 1;
  while (power * 2 <= value) power *= 2;
  return power;
}

// Benchmark errors name the device: they also reach a run's log and results, beside other devices'.
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

// The largest power-of-two group size no larger than `wanted` that the compiled kernel accepts.
std::size_t fitGroupSize(const cl::Kernel& kernel, const cl::Device& device, std::size_t wanted) {
  std::size_t limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
  return floorPowerOfTwo(std::max<std::size_t>(1, std::min(wanted, limit)));
}

// Device time of one launch, from the profiling event (host clocks would add queueing and launch).
std::int64_t launchNs(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local) {
  cl::Event event;
  bench.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &event);
  event.wait();
  const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<std::int64_t>(end - start) : 0;
}

// One warm-up launch (first-touch page faults, clock ramp-up), then the timed repetitions.
void timeRepetitions(Bench& bench, const cl::Kernel& kernel, std::size_t global, std::size_t local,
                     double work_per_run, CeilingBenchmark& result) {
  launchNs(bench, kernel, global, local);
  std::vector<std::int64_t> times_ns;
  for (int r = 0; r < bench.repetitions; ++r) times_ns.push_back(launchNs(bench, kernel, global, local));
  std::sort(times_ns.begin(), times_ns.end());
  const std::int64_t median_ns = times_ns[times_ns.size() / 2];
  result.repetitions = bench.repetitions;
  result.work_per_run = work_per_run;
  result.best_kernel_ns = times_ns.front();
  // Bytes per ns are GB/s and flops per ns GFLOP/s. A 0 ns time is below the timer's resolution.
  if (times_ns.front() > 0) result.best_rate = work_per_run / double(times_ns.front());
  if (median_ns > 0) result.median_rate = work_per_run / double(median_ns);
  if (!result.best_rate) result.error = "kernel time below the timer resolution: make the benchmark larger";
}

// Iterations that make one launch last at least bench.min_kernel_ns, found by growing a short
// pilot run: the same kernel must take milliseconds on an H100 and on a two-core CPU.
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

std::uint64_t dramBufferBytes(const DeviceInfo& info, std::uint64_t last_level_cache_bytes, const CeilingsOptions& options) {
  std::uint64_t wanted = options.dram_buffer_bytes;
  if (wanted == 0)
    wanted = info.type == "CPU" ? kCpuDramBufferBytes
                                : std::max(kGpuDramFloorBytes, kLastLevelCacheMultiple * last_level_cache_bytes);
  std::uint64_t cap = info.global_mem_bytes / 4;
  if (info.max_alloc_bytes > 0) cap = std::min(cap, info.max_alloc_bytes);
  return cap > 0 ? std::min(wanted, cap) : wanted;
}

void measureDram(Bench& bench, const CeilingsOptions& options, std::uint64_t last_level_cache_bytes,
                 CeilingsReport& report) {
  const DeviceInfo& info = bench.device.info;
  report.dram_copy = namedBenchmark("dram_copy", "GB/s");
  report.dram_read = namedBenchmark("dram_read", "GB/s");
  cl::Program program;
  std::size_t local = 0, global = 0;
  std::uint32_t per_item = 0;
  std::uint64_t buffer_bytes = 0;
  cl::Buffer src, dst, sink;
  CeilingBenchmark setup;
  runGuarded(bench, setup, [&] {
    program = buildProgram(bench, embedded::ceilings_dram_bandwidth, bench.cpu ? "-D RL_CONTIGUOUS_CHUNKS" : "",
                           "dram_bandwidth.cl");
    const LaunchShape shape = dramShape(bench.cpu);
    cl::Kernel probe(program, "dram_read");
    local = fitGroupSize(probe, bench.device.device, std::min(shape.local_size, info.max_work_group_size));
    global = local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
    // Whole float4 elements, the same count for every work-item.
    const std::uint64_t elements = std::max<std::uint64_t>(
        global, dramBufferBytes(info, last_level_cache_bytes, options) / 16 / global * global);
    per_item = static_cast<std::uint32_t>(elements / global);
    buffer_bytes = elements * 16;
    src = cl::Buffer(bench.context, CL_MEM_READ_WRITE, buffer_bytes);
    dst = cl::Buffer(bench.context, CL_MEM_READ_WRITE, buffer_bytes);
    sink = cl::Buffer(bench.context, CL_MEM_READ_WRITE, global * sizeof(float));
    bench.queue.enqueueFillBuffer(src, 1.0f, 0, buffer_bytes);
    bench.queue.enqueueFillBuffer(dst, 0.0f, 0, buffer_bytes);
    bench.queue.finish();
  });
  if (setup.error) {
    report.dram_copy.error = report.dram_read.error = setup.error;
    return;
  }
  const std::string geometry = "global " + std::to_string(global) + " x local " + std::to_string(local) + ", " +
                               std::to_string(per_item) + " float4 per work-item" +
                               (bench.cpu ? " (contiguous chunks)" : " (interleaved)") + ", buffers of " +
                               mibText(buffer_bytes);
  report.dram_copy.geometry = "2 buffers; " + geometry;
  report.dram_read.geometry = geometry;

  runGuarded(bench, report.dram_copy, [&] {
    cl::Kernel copy(program, "dram_copy");
    copy.setArg(0, src);
    copy.setArg(1, dst);
    copy.setArg(2, static_cast<cl_uint>(per_item));
    timeRepetitions(bench, copy, global, local, 2.0 * double(buffer_bytes), report.dram_copy);
  });
  runGuarded(bench, report.dram_read, [&] {
    cl::Kernel read(program, "dram_read");
    read.setArg(0, src);
    read.setArg(1, sink);
    read.setArg(2, static_cast<cl_uint>(per_item));
    timeRepetitions(bench, read, global, local, double(buffer_bytes) + double(global * sizeof(float)), report.dram_read);
  });
}

int nativeFloatWidth(const cl::Device& device) {
  const cl_uint width = device.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
  for (int supported : {16, 8, 4, 2})
    if (width >= cl_uint(supported)) return supported;
  return 1;
}

void measureFp32(Bench& bench, CeilingsReport& report) {
  CeilingBenchmark& result = report.fp32_fma;
  result = namedBenchmark("fp32_fma", "GFLOP/s");
  runGuarded(bench, result, [&] {
    const DeviceInfo& info = bench.device.info;
    const int width = nativeFloatWidth(bench.device.device);
    cl::Program program =
        buildProgram(bench, embedded::ceilings_fp32_peak, "-D RL_VECTOR_WIDTH=" + std::to_string(width), "fp32_peak.cl");
    cl::Kernel kernel(program, "fp32_fma_chains");
    const LaunchShape shape = fp32Shape(bench.cpu);
    const std::size_t local =
        fitGroupSize(kernel, bench.device.device, std::min(shape.local_size, info.max_work_group_size));
    const std::size_t global = local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
    cl::Buffer out(bench.context, CL_MEM_WRITE_ONLY, global * width * sizeof(float));
    kernel.setArg(0, out);
    kernel.setArg(1, 0.9999f);  // x -> 0.9999 x + 0.0001 converges to 1: finite, never denormal
    kernel.setArg(2, 0.0001f);
    const std::uint32_t iterations = calibrateIterations(bench, kernel, 3, global, local);
    kernel.setArg(3, static_cast<cl_uint>(iterations));
    const double flops = double(global) * iterations * kFmaChains * kFmaStepsPerIteration * width * 2.0;
    result.geometry = "global " + std::to_string(global) + " x local " + std::to_string(local) + ", " +
                      std::to_string(kFmaChains) + " chains of float" + (width > 1 ? std::to_string(width) : "") +
                      ", " + std::to_string(iterations) + " iterations x " + std::to_string(kFmaStepsPerIteration) +
                      " multiply-adds per chain";
    timeRepetitions(bench, kernel, global, local, flops, result);
  });
}

void measureLocal(Bench& bench, CeilingsReport& report) {
  CeilingBenchmark& result = report.local_read;
  result = namedBenchmark("local_read", "GB/s");
  runGuarded(bench, result, [&] {
    const DeviceInfo& info = bench.device.info;
    const int width = bench.cpu ? std::max(4, nativeFloatWidth(bench.device.device)) : 4;
    const std::size_t vector_bytes = std::size_t(width) * sizeof(float);
    const std::uint64_t tile_bytes_wanted =
        std::min<std::uint64_t>(kLocalTileMaxBytes, std::max<std::uint64_t>(1024, info.local_mem_bytes / 2));
    const std::size_t tile_vectors = floorPowerOfTwo(static_cast<std::size_t>(tile_bytes_wanted / vector_bytes));
    const LaunchShape shape = localShape(bench.cpu);
    std::size_t local = floorPowerOfTwo(std::min(shape.local_size, info.max_work_group_size));
    // The group size is compiled in; rebuild smaller if the compiled kernel cannot take it.
    cl::Program program;
    cl::Kernel kernel;
    for (;;) {
      program = buildProgram(bench, embedded::ceilings_local_bandwidth,
                             "-D RL_VECTOR_WIDTH=" + std::to_string(width) + " -D RL_TILE_VECTORS=" +
                                 std::to_string(tile_vectors) + " -D RL_GROUP_SIZE=" + std::to_string(local) + "u",
                             "local_bandwidth.cl");
      kernel = cl::Kernel(program, "local_read");
      const std::size_t fitting = fitGroupSize(kernel, bench.device.device, local);
      if (fitting == local) break;
      local = fitting;
    }
    const std::size_t global = local * shape.groups_per_cu * std::max<std::uint32_t>(1, info.compute_units);
    cl::Buffer out(bench.context, CL_MEM_WRITE_ONLY, global * vector_bytes);
    kernel.setArg(0, out);
    const std::uint32_t iterations = calibrateIterations(bench, kernel, 1, global, local);
    kernel.setArg(1, static_cast<cl_uint>(iterations));
    const double bytes = double(global) * iterations * kLocalReadsPerIteration * double(vector_bytes);
    result.geometry = "global " + std::to_string(global) + " x local " + std::to_string(local) + ", tile " +
                      std::to_string(tile_vectors * vector_bytes) + " bytes, " + std::to_string(iterations) +
                      " iterations x " + std::to_string(kLocalReadsPerIteration) + " float" +
                      std::to_string(width) + " reads";
    timeRepetitions(bench, kernel, global, local, bytes, result);
  });
}

std::string benchmarkSource(const std::string& at, const CeilingBenchmark& benchmark, int repetitions) {
  return "rooflab ceilings " + at + ": " + benchmark.name + ", best of " + std::to_string(repetitions) +
         " (OpenCL profiling events); " + benchmark.geometry;
}

std::optional<DeviceModel> measuredModel(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet,
                                         int repetitions) {
  const auto& copy = report.dram_copy.best_rate;
  const auto& read = report.dram_read.best_rate;
  if (!report.fp32_fma.best_rate || (!copy && !read)) return std::nullopt;
  const DeviceInfo& info = report.device;
  const std::string at = report.measured_at;
  DeviceModel model;
  model.key = "measured";
  model.display_name = info.name + " (measured)";
  model.match_names = {info.name};
  model.measured = MeasurementStamp{at, info.name, info.driver_version};
  model.peak_gflops = *report.fp32_fma.best_rate;
  model.sources["peak_gflops"] = benchmarkSource(at, report.fp32_fma, repetitions) + "; 2 flops per multiply-add";
  const bool read_is_better = read && (!copy || *read > *copy);
  const CeilingBenchmark& dram = read_is_better ? report.dram_read : report.dram_copy;
  model.dram_gbps = *dram.best_rate;
  model.sources["dram_gbps"] = benchmarkSource(at, dram, repetitions) +
                               "; the better of dram_copy (read + write bytes) and dram_read";
  if (report.local_read.best_rate) {
    model.local_gbps = *report.local_read.best_rate;
    model.sources["local_gbps"] = benchmarkSource(at, report.local_read, repetitions);
  }
  if (info.local_mem_bytes > 0) {
    model.local_mem_bytes = info.local_mem_bytes;
    model.sources["local_mem_bytes"] = "CL_DEVICE_LOCAL_MEM_SIZE (what one work-group may use)";
  }
  if (info.compute_units > 0) {
    model.compute_units = info.compute_units;
    model.sources["compute_units"] = "CL_DEVICE_MAX_COMPUTE_UNITS";
  }
  if (info.clock_mhz > 0) {
    model.clock_mhz = info.clock_mhz;
    model.sources["clock_mhz"] = "CL_DEVICE_MAX_CLOCK_FREQUENCY";
  }
  if (datasheet && datasheet->last_level_cache_bytes) {
    model.last_level_cache_bytes = datasheet->last_level_cache_bytes;
    auto source = datasheet->sources.find("last_level_cache_bytes");
    model.sources["last_level_cache_bytes"] =
        "datasheet model " + datasheet->key + (source != datasheet->sources.end() ? ": " + source->second : "");
  }
  model.notes = "Measured by `rooflab ceilings` on " + info.name + " (" + info.platform + ", driver " +
                info.driver_version + ").";
  return model;
}

}  // namespace

bool CeilingsReport::complete() const {
  for (const CeilingBenchmark* benchmark : benchmarks())
    if (!benchmark->best_rate) return false;
  return model.has_value();
}

CeilingsReport measureCeilings(const SelectedDevice& device, const CeilingsOptions& options) {
  CeilingsReport report;
  report.device = device.info;
  report.measured_at = utcNow();

  Bench bench{device,
              {},
              {},
              device.info.type == "CPU",
              std::max(1, options.repetitions),
              options.min_kernel_ns > 0 ? options.min_kernel_ns : kDefaultMinKernelNs};
  try {
    bench.context = cl::Context(device.device);
    bench.queue = cl::CommandQueue(bench.context, device.device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& error) {
    throw DeviceError("ceilings on '" + device.info.name + "': cannot create a profiling queue: " + describeClError(error));
  }

  const std::optional<DeviceModel>& datasheet = options.datasheet;
  const std::uint64_t last_level_cache_bytes =
      datasheet && datasheet->last_level_cache_bytes ? *datasheet->last_level_cache_bytes : 0;
  measureDram(bench, options, last_level_cache_bytes, report);
  measureFp32(bench, report);
  measureLocal(bench, report);
  report.model = measuredModel(report, datasheet, bench.repetitions);
  return report;
}

namespace {

std::string padRight(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string rateText(const std::optional<double>& rate, const std::string& unit) {
  return rate ? fixed(*rate, 1) + " " + unit : "-";
}

}  // namespace

std::string formatCeilingsReport(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet) {
  std::ostringstream out;
  const DeviceInfo& info = report.device;
  out << "Ceilings of " << info.name << " (" << info.platform << ", driver " << info.driver_version << "), measured "
      << report.measured_at << "\n";
  out << "best of " << report.fp32_fma.repetitions << " timed runs per benchmark, OpenCL profiling events\n\n";

  struct Row {
    const CeilingBenchmark& benchmark;
    const char* label;
    std::optional<double> datasheet_rate;
  };
  std::optional<double> sheet_dram, sheet_peak, sheet_local;
  if (datasheet) {
    sheet_dram = datasheet->dram_gbps;
    sheet_peak = datasheet->peak_gflops;
    sheet_local = datasheet->local_gbps;
  }
  const Row rows[] = {
      {report.dram_copy, "DRAM copy (read+write)", sheet_dram},
      {report.dram_read, "DRAM read", sheet_dram},
      {report.fp32_fma, "FP32 multiply-add", sheet_peak},
      {report.local_read, "local memory read", sheet_local},
  };
  const std::string sheet_header = datasheet ? "datasheet (" + datasheet->key + ")" : "datasheet";
  out << padRight("benchmark", 24) << padRight("measured", 20) << padRight(sheet_header, 24) << "measured/datasheet\n";
  bool above_datasheet = false;
  for (const Row& row : rows) {
    std::string ratio = "-";
    if (row.benchmark.best_rate && row.datasheet_rate && *row.datasheet_rate > 0) {
      const double value = *row.benchmark.best_rate / *row.datasheet_rate;
      ratio = fixed(value, 2);
      if (value > 1.0) {
        ratio += " (above datasheet)";
        above_datasheet = true;
      }
    }
    out << padRight(row.label, 24) << padRight(rateText(row.benchmark.best_rate, row.benchmark.unit), 20)
        << padRight(rateText(row.datasheet_rate, row.benchmark.unit), 24) << ratio << "\n";
  }
  out << "\n";
  for (const Row& row : rows) {
    out << "  " << padRight(row.benchmark.name, 11) << " ";
    if (row.benchmark.error) out << "FAILED: " << *row.benchmark.error;
    else out << row.benchmark.geometry << "; median " << rateText(row.benchmark.median_rate, row.benchmark.unit);
    out << "\n";
  }
  if (!datasheet) {
    out << "\nNo datasheet model in configs/devices matches '" << info.name << "': measured figures only.\n";
  } else {
    out << "\nDatasheet: " << datasheet->display_name << " (configs/devices/" << datasheet->key << ".toml).\n";
    if (above_datasheet)
      out << "Figures above the datasheet are reported as measured: boost clocks can run faster than the clock the "
             "datasheet figure assumes.\n";
  }
  if (!report.model) out << "No device model: the FP32 benchmark or both DRAM benchmarks failed.\n";
  return out.str();
}

}  // namespace rooflab
