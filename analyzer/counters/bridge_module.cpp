#include "analyzer/counters/bridge_module.hpp"

#include "analyzer/counters/bridge_cache.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace rooflab::counters::bridge_detail {

LoadedModule::LoadedModule(const std::string& ptx, JitMode mode, bool line_info) {
  std::vector<char> error_log(1 << 16, '\0');
  std::vector<CUjit_option> options = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  std::vector<void*> values = {error_log.data(),
                               reinterpret_cast<void*>(static_cast<std::uintptr_t>(error_log.size()))};
  if (line_info) {
    options.push_back(CU_JIT_GENERATE_LINE_INFO);
    values.push_back(reinterpret_cast<void*>(static_cast<std::uintptr_t>(1)));
  }
  auto fail = [&](const char* call, CUresult r) {
    std::string log(error_log.data());
    throw CudaError(std::string(call) + " (the rewritten PTX): " + driver().errorText(r) +
                    (log.empty() ? "" : "; JIT log: " + log));
  };
  if (mode != JitMode::linked) {
    // whole_program_256: compiled for 256 work items per group, the CL_KERNEL_WORK_GROUP_SIZE
    // NVIDIA's OpenCL reports for every kernel (H100), which suggests its compile target.
    std::vector<CUjit_option> jit_options(options.begin(), options.end());
    std::vector<void*> jit_values(values.begin(), values.end());
    if (mode == JitMode::whole_program_256) {
      jit_options.push_back(CU_JIT_THREADS_PER_BLOCK);
      jit_values.push_back(reinterpret_cast<void*>(static_cast<std::uintptr_t>(256)));
    }
    if (const CUresult r = driver().moduleLoadDataEx(&module_, ptx.c_str(), static_cast<unsigned>(jit_options.size()),
                                                     jit_options.data(), jit_values.data());
        r != CUDA_SUCCESS)
      fail("cuModuleLoadDataEx", r);
    return;
  }
  CUlinkState link = nullptr;
  if (const CUresult r =
          driver().linkCreate(static_cast<unsigned>(options.size()), options.data(), values.data(), &link);
      r != CUDA_SUCCESS)
    fail("cuLinkCreate", r);
  struct LinkGuard {
    CUlinkState state;
    ~LinkGuard() { driver().linkDestroy(state); }
  } guard{link};
  std::string text = ptx;  // cuLinkAddData takes a non-const pointer and the size with the NUL
  if (const CUresult r = driver().linkAddData(link, CU_JIT_INPUT_PTX, text.data(), text.size() + 1,
                                              "rooflab-bridge.ptx", 0, nullptr, nullptr);
      r != CUDA_SUCCESS)
    fail("cuLinkAddData", r);
  void* cubin = nullptr;
  std::size_t cubin_bytes = 0;
  if (const CUresult r = driver().linkComplete(link, &cubin, &cubin_bytes); r != CUDA_SUCCESS)
    fail("cuLinkComplete", r);
  // The cubin belongs to the link state: load it before the guard destroys that.
  if (const CUresult r = driver().moduleLoadDataEx(&module_, cubin, 0, nullptr, nullptr); r != CUDA_SUCCESS)
    fail("cuModuleLoadDataEx (linked cubin)", r);
}

namespace {

constexpr std::array<std::pair<JitMode, const char*>, 3> kCandidates = {
    std::pair{JitMode::linked, "linked"}, std::pair{JitMode::whole_program, "whole-program"},
    std::pair{JitMode::whole_program_256, "whole-program, 256 work items"}};

const char* modeName(JitMode mode) {
  for (const auto& [candidate, name] : kCandidates)
    if (candidate == mode) return name;
  return "whole-program";
}

}  // namespace

std::vector<JitMode> candidateJitModes(bool opencl_registers_known, const std::string& required_mode) {
  for (const auto& [mode, name] : kCandidates)
    if (required_mode == name) return {mode};
  if (!opencl_registers_known) return {JitMode::whole_program};
  return {JitMode::linked, JitMode::whole_program, JitMode::whole_program_256};
}

std::shared_ptr<LoadedModule> loadBridgedModule(CUcontext context, const std::string& cuda_ptx,
                                                const std::vector<BridgeLaunch>& launches,
                                                const std::map<std::string, int>& opencl_registers,
                                                std::string& jit_mode, const std::string& required_mode,
                                                int& compiles) {
  const std::vector<JitMode> modes = candidateJitModes(!opencl_registers.empty(), required_mode);
  // Several candidates compile side by side: the driver's JIT is the host's work, one core each.
  if (modes.size() > 1)
    for (JitMode mode : modes) compiles += prefetchModule(context, cuda_ptx, mode) ? 1 : 0;
  std::shared_ptr<LoadedModule> chosen;
  long best_distance = 0;
  for (JitMode mode : modes) {
    bool compiled = false;
    std::shared_ptr<LoadedModule> module;
    try {
      module = keptModule(cuda_ptx, mode, &compiled);
    } catch (...) {
      if (modes.size() == 1 || (!chosen && mode == modes.back())) throw;
      continue;  // a candidate that fails to compile leaves the others
    }
    compiles += compiled ? 1 : 0;
    long distance = 0;
    for (const BridgeLaunch& launch : launches) {
      const auto reported = opencl_registers.find(launch.kernel);
      if (reported == opencl_registers.end()) continue;
      CUfunction f = nullptr;
      int registers = 0;
      checkCuda(driver().moduleGetFunction(&f, module->get(), launch.kernel.c_str()), "cuModuleGetFunction");
      checkCuda(driver().funcGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f), "cuFuncGetAttribute(NUM_REGS)");
      distance += std::labs(registers - reported->second);
    }
    // On a tie the earlier: linked first, which also leaves shared loads unmerged, as OpenCL does.
    if (!chosen || distance < best_distance) {
      chosen = std::move(module);
      best_distance = distance;
      jit_mode = modeName(mode);
    }
  }
  return chosen;
}

std::string kernelNames(const std::vector<PtxKernelSignature>& kernels) {
  std::string names;
  for (const PtxKernelSignature& k : kernels) names += (names.empty() ? "" : ", ") + k.name;
  return names.empty() ? "none" : names;
}

BridgedKernelResources kernelResources(CUfunction function, std::size_t dynamic_bytes) {
  BridgedKernelResources r;
  int value = 0;
  checkCuda(driver().funcGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, function), "cuFuncGetAttribute(NUM_REGS)");
  r.registers_per_thread = value;
  checkCuda(driver().funcGetAttribute(&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function),
            "cuFuncGetAttribute(LOCAL_SIZE_BYTES)");
  r.local_bytes_per_thread = value;
  checkCuda(driver().funcGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
            "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
  r.static_shared_bytes = value;
  checkCuda(driver().funcGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
            "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
  r.max_threads_per_block = value;
  r.dynamic_shared_bytes = static_cast<std::int64_t>(dynamic_bytes);
  return r;
}

void optInToAllDynamicShared(CUfunction function, int shared_optin_bytes, std::int64_t static_shared_bytes,
                             const std::string& what) {
  checkCuda(driver().funcSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      shared_optin_bytes - static_cast<int>(static_shared_bytes)),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + what + ")");
}

}  // namespace rooflab::counters::bridge_detail
