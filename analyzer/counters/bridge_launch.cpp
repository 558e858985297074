// measureBridged: NVIDIA's OpenCL PTX, rewritten (ptx_rewrite.hpp), loaded (bridge_module.hpp) and
// launched through the CUDA driver, timed with CUDA events and profiled with CUPTI's range profiler.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <set>

#include "analyzer/counters/bridge_cache.hpp"
#include "analyzer/counters/bridge_context.hpp"
#include "analyzer/counters/bridge_device_memory.hpp"
#include "analyzer/counters/bridge_inputs.hpp"
#include "analyzer/counters/bridge_module.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/cuda_driver.hpp"
#include "analyzer/counters/l2_flush.hpp"
#include "analyzer/counters/pc_sampling.hpp"
#include "analyzer/counters/ptx/ptx_rewrite.hpp"
#include "analyzer/counters/range_profiler.hpp"
#include "analyzer/support/wall_clock.hpp"

namespace rooflab::counters {

using namespace bridge_detail;

namespace {

std::string launchContext(std::size_t index, const BridgeLaunch& launch) {
  return "launch #" + std::to_string(index) + " (kernel " + launch.kernel + ")";
}

// What one launch needs, checked against the kernel's PTX signature.
struct LaunchPlan {
  const PtxKernelSignature* signature = nullptr;
  std::vector<std::size_t> local_arg_bytes;  // one per __local argument
  std::size_t module_index = 0;
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
};

// `buffers`: the buffers the launches name, checked; nullptr: not checked (a compile ahead of the run).
LaunchPlan planLaunch(std::size_t index, const BridgeLaunch& launch, const std::vector<PtxKernelSignature>& kernels,
                      const std::map<std::string, const HostBuffer*>* buffers) {
  const std::string where = launchContext(index, launch);
  LaunchPlan plan;
  const auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                   [&](const PtxKernelSignature& k) { return k.name == launch.kernel; });
  if (kernel == kernels.end())
    throw BridgeError(where + ": no such kernel in the program's PTX (it has: " + kernelNames(kernels) + ")");
  plan.signature = &*kernel;

  if (launch.args.size() != kernel->params.size())
    throw BridgeError(where + ": " + std::to_string(launch.args.size()) + " arguments given, the kernel takes " +
                      std::to_string(kernel->params.size()));
  for (std::size_t i = 0; i < launch.args.size(); ++i) {
    const BridgeArg& arg = launch.args[i];
    const PtxParam& param = kernel->params[i];
    const std::string arg_where = where + ", argument " + std::to_string(i) + " (" + param.name + ")";
    switch (param.kind) {
      case PtxParamKind::global_pointer:
      case PtxParamKind::constant_pointer:
        if (arg.kind != BridgeArg::Kind::buffer)
          throw BridgeError(arg_where + ": the kernel expects a " +
                            (param.kind == PtxParamKind::global_pointer ? "__global" : "__constant") + " buffer");
        if (buffers && buffers->count(arg.buffer_name) == 0)
          throw BridgeError(arg_where + ": no buffer named " + arg.buffer_name);
        break;
      case PtxParamKind::local_pointer:
        if (arg.kind != BridgeArg::Kind::local) throw BridgeError(arg_where + ": the kernel expects a __local size");
        plan.local_arg_bytes.push_back(arg.local_bytes);
        break;
      case PtxParamKind::scalar:
        if (arg.kind != BridgeArg::Kind::scalar) throw BridgeError(arg_where + ": the kernel expects a value");
        if (arg.scalar_bytes.size() != param.size_bytes)
          throw BridgeError(arg_where + ": " + std::to_string(arg.scalar_bytes.size()) +
                            " bytes given, the PTX parameter takes " + std::to_string(param.size_bytes));
        break;
    }
  }

  if (launch.global.empty() || launch.global.size() > 3 || launch.local.size() != launch.global.size())
    throw BridgeError(where + ": the bridge needs 1 to 3 global dimensions and an explicit local size for each");
  for (std::size_t d = 0; d < launch.global.size(); ++d) {
    const std::size_t global = launch.global[d], local = launch.local[d];
    if (local == 0 || global % local != 0)
      throw BridgeError(where + ": global size " + std::to_string(global) + " is not a multiple of local size " +
                        std::to_string(local) + " in dimension " + std::to_string(d) +
                        " (CUDA grids have whole blocks only)");
    if (global / local > std::numeric_limits<unsigned>::max())
      throw BridgeError(where + ": " + std::to_string(global / local) + " work-groups in dimension " +
                        std::to_string(d) + ", more than a CUDA grid has");
    plan.grid[d] = static_cast<unsigned>(global / local);
    plan.block[d] = static_cast<unsigned>(local);
  }
  return plan;
}

// CUDA's grid and block are narrower than OpenCL's NDRange (on every GPU since compute capability
// 3.0: at most 65535 blocks in y and z, 1024 threads in x and y, 64 in z): cuLaunchKernel refuses a
// launch past them with CUDA_ERROR_INVALID_VALUE, which names no dimension. Said here instead.
void checkCudaGridLimits(CUdevice device, const LaunchPlan& plan, const std::string& where) {
  static constexpr CUdevice_attribute kGridLimits[3] = {
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  static constexpr CUdevice_attribute kBlockLimits[3] = {
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  for (int d = 0; d < 3; ++d) {
    int grid_limit = 0, block_limit = 0;
    checkCuda(driver().deviceGetAttribute(&grid_limit, kGridLimits[d], device), "cuDeviceGetAttribute(MAX_GRID_DIM)");
    checkCuda(driver().deviceGetAttribute(&block_limit, kBlockLimits[d], device),
              "cuDeviceGetAttribute(MAX_BLOCK_DIM)");
    if (grid_limit > 0 && plan.grid[d] > static_cast<unsigned>(grid_limit))
      throw BridgeError(where + ": " + std::to_string(plan.grid[d]) + " work-groups in dimension " + std::to_string(d) +
                        " (global / local), more than a CUDA grid has there (" + std::to_string(grid_limit) +
                        "); OpenCL launches it, the bridge cannot: put the long dimension first (x takes 2147483647) "
                        "or run a smaller size");
    if (block_limit > 0 && plan.block[d] > static_cast<unsigned>(block_limit))
      throw BridgeError(where + ": local size " + std::to_string(plan.block[d]) + " in dimension " + std::to_string(d) +
                        ", more than a CUDA block has there (" + std::to_string(block_limit) + ")");
  }
}

// The offsets of __local arguments are baked into the PTX. Launches of one kernel whose offsets differ
// need different modules; everything else shares the first. Returns the sizes each module is rewritten with.
std::vector<LocalArgBytesByKernel> assignModules(std::vector<LaunchPlan>& plans,
                                                 const std::vector<PtxKernelSignature>& kernels) {
  std::vector<LocalArgBytesByKernel> modules(1);
  for (LaunchPlan& plan : plans) {
    const PtxKernelSignature& kernel = *plan.signature;
    if (kernel.localPointerCount() < 2) continue;  // offset 0 in every module
    const std::vector<std::size_t> offsets = layoutDynamicLocal(kernel, plan.local_arg_bytes).offsets_bytes;
    std::size_t m = 0;
    for (; m < modules.size(); ++m) {
      const auto placed = modules[m].find(kernel.name);
      if (placed == modules[m].end()) {
        modules[m][kernel.name] = plan.local_arg_bytes;
        break;
      }
      if (layoutDynamicLocal(kernel, placed->second).offsets_bytes == offsets) break;
    }
    if (m == modules.size()) modules.push_back({{kernel.name, plan.local_arg_bytes}});
    plan.module_index = m;
  }
  // Kernels not launched still need sizes to be rewritten; they never run, so zeros do.
  for (LocalArgBytesByKernel& module : modules)
    for (const PtxKernelSignature& kernel : kernels)
      if (kernel.localPointerCount() >= 2 && module.count(kernel.name) == 0)
        module[kernel.name] = std::vector<std::size_t>(kernel.localPointerCount(), 0);
  return modules;
}

// Launch-ready form of one launch: the function and the parameter values cuLaunchKernel reads.
struct PreparedLaunch {
  CUfunction function = nullptr;
  LaunchPlan plan;
  unsigned dynamic_shared_bytes = 0;
  std::vector<std::vector<std::byte>> values;  // one per remaining PTX parameter
  std::vector<void*> params;                   // pointers into values
  std::string call;  // "cuLaunchKernel (launch #0 (kernel k): grid ..., block ...)": what a failure names
};

std::string launchCall(std::size_t index, const BridgeLaunch& launch, const PreparedLaunch& p) {
  auto dims = [](const std::array<unsigned, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  };
  return "cuLaunchKernel (" + launchContext(index, launch) + ": grid " + dims(p.plan.grid) + ", block " +
         dims(p.plan.block) + ", " + std::to_string(p.dynamic_shared_bytes) + " bytes of dynamic shared memory, " +
         std::to_string(p.params.size()) + " parameters)";
}

std::int64_t medianNs(std::vector<std::int64_t> samples) {
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

using Clock = std::chrono::steady_clock;

// The program's PTX as the CUDA driver takes it, one text per module the launches need, with each
// launch's plan. Throws BridgeError or PtxRewriteError.
struct BridgedProgram {
  std::vector<PtxKernelSignature> kernels;
  std::vector<LaunchPlan> plans;
  std::vector<std::string> module_ptx;
};
BridgedProgram bridgedProgram(const std::string& opencl_ptx, const std::vector<BridgeLaunch>& launches,
                              const std::map<std::string, const HostBuffer*>* buffers) {
  if (launches.empty()) throw BridgeError("no launches to bridge");
  BridgedProgram program;
  const std::string ptx = ptxTextFromProgramBinary(opencl_ptx);
  program.kernels = parseKernelSignatures(ptx);
  for (std::size_t i = 0; i < launches.size(); ++i)
    program.plans.push_back(planLaunch(i, launches[i], program.kernels, buffers));
  std::set<std::string> launched;
  for (const BridgeLaunch& launch : launches) launched.insert(launch.kernel);
  for (const LocalArgBytesByKernel& sizes : assignModules(program.plans, program.kernels))
    program.module_ptx.push_back(rewriteForCuda(ptx, sizes, launched).ptx);
  return program;
}

// The warm-up runs, then the timed ones under CUDA events: bridged_kernel_ns is their median.
void timeSequence(int warmup_runs, int repetitions, const std::function<void()>& run_sequence, CounterSet& m) {
  for (int w = 0; w < warmup_runs; ++w) run_sequence();
  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (after the warm-up runs)");
  Event start, stop;
  for (int r = 0; r < repetitions; ++r) {
    checkCuda(driver().eventRecord(start.get(), nullptr), "cuEventRecord");
    run_sequence();
    checkCuda(driver().eventRecord(stop.get(), nullptr), "cuEventRecord");
    checkCuda(driver().eventSynchronize(stop.get()), "cuEventSynchronize (after a timed run)");
    float ms = 0;
    checkCuda(driver().eventElapsedTime(&ms, start.get(), stop.get()), "cuEventElapsedTime");
    m.bridged_repetitions_ns.push_back(static_cast<std::int64_t>(static_cast<double>(ms) * 1e6 + 0.5));
  }
  m.bridged_kernel_ns = medianNs(m.bridged_repetitions_ns);
}

// One run from the caller's inputs, copied back for verification.
void readBack(const std::function<void()>& restore, const std::function<void()>& run_sequence,
              const DeviceBuffers& device_buffers, const BridgeOptions& options,
              std::map<std::string, HostBuffer>& buffers, CounterSet& m) {
  restore();
  run_sequence();
  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (after the verification run)");
  std::set<std::string> read_back(options.read_back_buffers.begin(), options.read_back_buffers.end());
  for (const auto& [name, device_buffer] : device_buffers) {
    if (!read_back.empty() && read_back.count(name) == 0) continue;
    const auto own = buffers.find(name);
    if (own == buffers.end()) continue;  // one of the caller's read-only inputs: it still holds them
    HostBuffer& host = own->second;
    if (host.sizeBytes() > 0)
      checkCuda(driver().memcpyDtoH(host.bytes.data(), device_buffer->pointer(), host.sizeBytes()),
                "cuMemcpyDtoH (buffer " + name + ")");
  }
  m.buffers_read_back = true;
}

// Every pass from the inputs restored and, when it can be flushed, an emptied L2.
void profile(CUcontext context, int ordinal, CUdevice device, const BridgeOptions& options,
             const std::function<void()>& restore, const std::function<void()>& run_sequence, CounterSet& m) {
  L2Flusher* flusher = nullptr;
  if (options.cold_l2_for_counters) {
    try {
      flusher = &keptL2Flusher(device);
    } catch (const std::exception& e) {
      m.l2_flush_error = e.what();  // counters still come, taken with a warm L2
    }
  }
  auto preparePass = [&] {
    restore();
    if (flusher) flusher->flush();
  };
  m.l2_flushed_before_profiling = flusher != nullptr;

  std::vector<std::string> metric_names;
  // The caller's list (the runner's choice for the record: metric_selection.hpp); else the table.
  if (!options.metrics.empty()) metric_names = options.metrics;
  else
    for (const CounterMetric& metric : counterMetricTable()) metric_names.emplace_back(metric.raw_name);
  // A candidate JIT compile of this record's PTX may still be loading its module on another thread:
  // no module loads while the profiler counts (a suspect in the crashes of a kept profiler).
  waitForModuleCompiles();
  try {
    RangeProfile profile =
        profileOneRange(context, ordinal, metric_names, preparePass, run_sequence, options.keep_profiler_enabled);
    m.values = std::move(profile.values);
    m.missing = std::move(profile.missing);
    m.profiler_passes = profile.passes;
    m.available = true;
    CountersCost& cost = *m.cost;
    cost.config_seconds = profile.config_seconds;
    cost.session_reused = profile.session_reused;
    cost.pass_seconds = std::move(profile.pass_seconds);
    cost.decode_seconds = profile.decode_seconds;
  } catch (const CudaError&) {
    throw;  // the work failed: the context is to be reset
  } catch (const std::exception& e) {
    m.reason = std::string("CUPTI range profiler: ") + e.what();
  }
}

void launchAll(std::vector<PreparedLaunch>& prepared) {
  for (PreparedLaunch& p : prepared)
    checkCuda(driver().launchKernel(p.function, p.plan.grid[0], p.plan.grid[1], p.plan.grid[2], p.plan.block[0],
                                    p.plan.block[1], p.plan.block[2], p.dynamic_shared_bytes, nullptr,
                                    p.params.empty() ? nullptr : p.params.data(), nullptr),
              p.call);
}

// The limits are checked here because cuLaunchKernel's refusal would not say which one was passed.
PreparedLaunch prepareLaunch(std::size_t index, const BridgeLaunch& launch, const LaunchPlan& plan,
                             const LoadedModule& module, CUdevice device, int shared_optin_bytes,
                             const DeviceBuffers& device_buffers, CounterSet& m) {
  const std::string where = launchContext(index, launch);
  PreparedLaunch p;
  p.plan = plan;
  checkCuda(driver().moduleGetFunction(&p.function, module.get(), launch.kernel.c_str()),
            "cuModuleGetFunction (" + where + ")");
  const PtxKernelSignature& kernel = *p.plan.signature;
  std::size_t dynamic_bytes = 0;
  if (!p.plan.local_arg_bytes.empty()) dynamic_bytes = layoutDynamicLocal(kernel, p.plan.local_arg_bytes).total_bytes;
  p.dynamic_shared_bytes = static_cast<unsigned>(dynamic_bytes);

  const BridgedKernelResources resources = kernelResources(p.function, dynamic_bytes);
  m.kernels[launch.kernel] = resources;

  checkCudaGridLimits(device, p.plan, where);
  const std::size_t threads = std::size_t{p.plan.block[0]} * p.plan.block[1] * p.plan.block[2];
  if (threads > static_cast<std::size_t>(resources.max_threads_per_block))
    throw BridgeError(where + ": " + std::to_string(threads) +
                      " work-items per work-group, the bridged kernel "
                      "allows " +
                      std::to_string(resources.max_threads_per_block));
  const std::int64_t shared_total = resources.static_shared_bytes + resources.dynamic_shared_bytes;
  if (shared_total > shared_optin_bytes)
    throw BridgeError(where + ": " + std::to_string(shared_total) + " bytes of local memory, the device allows " +
                      std::to_string(shared_optin_bytes));
  if (shared_total > 48 * 1024)
    optInToAllDynamicShared(p.function, shared_optin_bytes, resources.static_shared_bytes, where);

  for (std::size_t a = 0; a < launch.args.size(); ++a) {
    const BridgeArg& arg = launch.args[a];
    if (kernel.params[a].kind == PtxParamKind::local_pointer) continue;  // removed by the rewrite
    if (arg.kind == BridgeArg::Kind::buffer) {
      const CUdeviceptr pointer = device_buffers.at(arg.buffer_name)->pointer();
      std::vector<std::byte> bytes(sizeof pointer);
      std::memcpy(bytes.data(), &pointer, sizeof pointer);
      p.values.push_back(std::move(bytes));
    } else {
      p.values.push_back(arg.scalar_bytes);
    }
  }
  for (std::vector<std::byte>& v : p.values) p.params.push_back(v.data());
  p.call = launchCall(index, launch, p);
  return p;
}

// The sampling pass: the program compiled again, the same way, with line info (its cubins caught as
// the driver loads them), the launches prepared against it, and one run from restored inputs under
// PC sampling. The kept profiler is off first: neither a module load nor PC sampling meets it.
struct SamplingSetup {
  CUcontext context = nullptr;
  CUdevice device = 0;
  int shared_optin_bytes = 0;
};
PcSampling sampleLines(const BridgedProgram& program, const std::vector<BridgeLaunch>& launches,
                       const SamplingSetup& setup, const DeviceBuffers& device_buffers,
                       const std::function<void()>& restore, CounterSet& m) {
  PcSampling sampling;
  try {
    disableKeptProfilers();
    waitForModuleCompiles();
    const JitMode mode = candidateJitModes(false, m.jit_mode).front();
    std::vector<std::unique_ptr<LoadedModule>> modules;
    std::vector<std::string> cubins;
    {
      CubinCapture capture;
      for (const std::string& module_ptx : program.module_ptx)
        modules.push_back(std::make_unique<LoadedModule>(module_ptx, mode, /*line_info=*/true));
      cubins = capture.cubins();
    }
    const auto resources = m.kernels;  // the timed modules' resources stay the record's
    std::vector<PreparedLaunch> prepared;
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const LaunchPlan& plan = program.plans[i];
      prepared.push_back(prepareLaunch(i, launches[i], plan, *modules[plan.module_index], setup.device,
                                       setup.shared_optin_bytes, device_buffers, m));
    }
    m.kernels = resources;
    restore();
    sampling = samplePcs(setup.context, cubins, [&] { launchAll(prepared); });
  } catch (const CudaError&) {
    throw;  // the work failed: the context is to be reset
  } catch (const std::exception& e) {
    sampling.available = false;
    sampling.reason = std::string("CUPTI PC sampling: ") + e.what();
  }
  return sampling;
}

void measure(const std::string& opencl_ptx, std::map<std::string, HostBuffer>& buffers,
             const std::vector<BridgeLaunch>& launches, int timing_repetitions, const BridgeOptions& options,
             CounterSet& m) {
  CountersCost& cost = m.cost.emplace();
  const Clock::time_point module_started = Clock::now();
  // Every buffer by name: the caller's own (written, read back) and its read-only inputs.
  std::map<std::string, const HostBuffer*> hosts;
  if (options.read_only_inputs)
    for (const auto& [name, host] : *options.read_only_inputs) hosts[name] = &host;
  for (const auto& [name, host] : buffers) hosts[name] = &host;
  // Check the PTX and the launches first: their errors say more than "no GPU here", and need none.
  const BridgedProgram program = bridgedProgram(opencl_ptx, launches, &hosts);
  if (!driver().usable()) throw BridgeError(driver().unavailable_reason);

  const int ordinal = chooseDeviceOrdinal(options.device);
  CUdevice device = 0;
  checkCuda(driver().deviceGet(&device, ordinal), "cuDeviceGet");
  CurrentPrimaryContext context(device);  // declared first: everything below is freed while it is current
  int shared_optin_bytes = 0;
  checkCuda(
      driver().deviceGetAttribute(&shared_optin_bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
      "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");

  std::vector<std::shared_ptr<LoadedModule>> modules;
  for (const std::string& module_ptx : program.module_ptx)
    modules.push_back(loadBridgedModule(context.get(), module_ptx, launches, options.opencl_registers, m.jit_mode,
                                        options.jit_mode, cost.jit_compiles));
  for (const auto& [kernel, registers] : options.opencl_registers) m.opencl_registers[kernel] = registers;
  cost.module_seconds = secondsSince(module_started);
  const Clock::time_point setup_started = Clock::now();

  const std::string inputs_key =
      options.read_only_inputs_key.empty() ? "" : std::to_string(ordinal) + "|" + options.read_only_inputs_key;
  const auto device_buffers = uploadBuffers(launches, hosts, buffers, inputs_key);
  const PristineInputs pristine = keepPristineInputs(device_buffers, hosts, options.written_buffers);
  auto restore = [&] { restorePristineInputs(pristine, device_buffers); };

  std::vector<PreparedLaunch> prepared;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const LaunchPlan& plan = program.plans[i];
    prepared.push_back(prepareLaunch(i, launches[i], plan, *modules[plan.module_index], device, shared_optin_bytes,
                                     device_buffers, m));
  }
  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (after the uploads)");
  cost.setup_seconds = secondsSince(setup_started);

  auto runSequence = [&] { launchAll(prepared); };

  // A mutant's counters validate it: it needs neither the bridged time nor the bridged results.
  const Clock::time_point timing_started = Clock::now();
  if (timing_repetitions > 0) timeSequence(options.warmup_runs, timing_repetitions, runSequence, m);
  cost.timing_seconds = secondsSince(timing_started);
  const Clock::time_point readback_started = Clock::now();
  if (options.read_back) readBack(restore, runSequence, device_buffers, options, buffers, m);
  cost.readback_seconds = secondsSince(readback_started);

  if (!options.collect_counters) {
    m.reason = "counters not requested";
    return;
  }
  profile(context.get(), ordinal, device, options, restore, runSequence, m);
  if (options.line_samples)
    *options.line_samples =
        sampleLines(program, launches, {context.get(), device, shared_optin_bytes}, device_buffers, restore, m);
}

}  // namespace

void prefetchBridged(const std::string& opencl_ptx, const std::vector<BridgeLaunch>& launches,
                     const BridgeOptions& options) {
  try {
    const BridgedProgram program = bridgedProgram(opencl_ptx, launches, nullptr);
    if (!driver().usable()) return;
    CUdevice device = 0;
    checkCuda(driver().deviceGet(&device, chooseDeviceOrdinal(options.device)), "cuDeviceGet");
    CurrentPrimaryContext context(device);
    for (const std::string& module_ptx : program.module_ptx)
      for (JitMode mode : candidateJitModes(!options.opencl_registers.empty(), options.jit_mode))
        prefetchModule(context.get(), module_ptx, mode);
  } catch (...) {
    // measureBridged meets the same problem and says it.
  }
}

CounterSet measureBridged(const std::string& opencl_ptx, std::map<std::string, HostBuffer>& buffers,
                          const std::vector<BridgeLaunch>& launches, int timing_repetitions,
                          const BridgeOptions& options) {
  CounterSet m;
  const Clock::time_point started = Clock::now();
  try {
    measure(opencl_ptx, buffers, launches, timing_repetitions, options, m);
  } catch (const PtxRewriteError& e) {
    m.reason = std::string("PTX bridge: ") + e.what();
  } catch (const CudaError& e) {
    m.reason = std::string("CUDA driver: ") + e.what();
    resetPrimaryContexts();  // a faulting kernel leaves the context unusable
  } catch (const std::exception& e) {
    m.reason = std::string("PTX bridge: ") + e.what();
  } catch (...) {
    m.reason = "PTX bridge: unknown error";
  }
  if (m.cost) m.cost->total_seconds = secondsSince(started);
  if (!m.available && m.reason.empty()) m.reason = "counters were not collected";
  if (m.available) m.reason.clear();
  try {
    deriveCounterValues(m);
  } catch (...) {
  }
  return m;
}

}  // namespace rooflab::counters
