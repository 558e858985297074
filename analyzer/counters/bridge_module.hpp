#pragma once
// The PTX bridge's modules (counters.hpp): the rewritten PTX loaded by the CUDA driver, compiled the
// way that comes closest to NVIDIA's OpenCL, and what the driver says about each compiled kernel.
// Internal to the bridge_*.cpp files, which need the CUDA Toolkit's headers.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/counters/bridge_context.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::counters::bridge_detail {

// How the bridge has the driver compile the rewritten PTX (BridgeOptions::opencl_registers says why it
// matters).
enum class JitMode { whole_program, whole_program_256, linked };

class LoadedModule {
 public:
  // whole_program: cuModuleLoadDataEx. linked: through the JIT linker, which compiles the PTX as
  // relocatable code: ptxas then knows no __local array's address, so it merges no scalar shared
  // loads, as under NVIDIA's OpenCL (H100: 28 LDS.128 in whole-program mm_tiled, none under OpenCL,
  // and the tiled matmuls ran up to 20% faster bridged). But relocatable code also allocates registers
  // differently elsewhere (volkov_64x16: 56 registers linked, 122 whole-program, 132 under OpenCL).
  // line_info: the SASS keeps the PTX's `.loc` lines (CU_JIT_GENERATE_LINE_INFO), for PC sampling;
  // the code is the same.
  LoadedModule(const std::string& ptx, JitMode mode, bool line_info = false);
  ~LoadedModule() { driver().moduleUnload(module_); }
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;
  CUmodule get() const { return module_; }

 private:
  CUmodule module_ = nullptr;
};

// The rewritten PTX of `launches`, loaded. Without OpenCL's registers (BridgeOptions::opencl_registers):
// whole-program. With them: the compile, of linked, whole-program and whole-program for 256 work items,
// whose registers per launched kernel come closest to OpenCL's; on a tie the earlier (linked first: it
// also leaves shared loads unmerged, as OpenCL does). jit_mode names the compile kept so far, also when
// a later candidate fails.
// `required_mode`, when not empty, names the one compile to make (as jit_mode names them).
// Modules are kept between calls (bridge_cache.hpp); the candidates compile at once, each on a thread
// of its own with `context` current. `compiles` gets the compiles this call made.
std::shared_ptr<LoadedModule> loadBridgedModule(CUcontext context, const std::string& cuda_ptx,
                                                const std::vector<BridgeLaunch>& launches,
                                                const std::map<std::string, int>& opencl_registers,
                                                std::string& jit_mode, const std::string& required_mode, int& compiles);

// The modes loadBridgedModule compiles for these options: the required one, else the three
// candidates when OpenCL's registers are known, else whole-program.
std::vector<JitMode> candidateJitModes(bool opencl_registers_known, const std::string& required_mode);

// "a, b, c" (or "none"): the kernels of a module, for messages.
std::string kernelNames(const std::vector<PtxKernelSignature>& kernels);

BridgedKernelResources kernelResources(CUfunction function, std::size_t dynamic_bytes);

// Beyond 48 KiB a kernel must opt in to larger dynamic shared memory. Opting in to all the device
// allows covers every later launch or occupancy query of the kernel, whatever its local memory.
void optInToAllDynamicShared(CUfunction function, int shared_optin_bytes, std::int64_t static_shared_bytes,
                             const std::string& what);

}  // namespace rooflab::counters::bridge_detail
