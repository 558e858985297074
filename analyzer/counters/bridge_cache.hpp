#pragma once
// What the PTX bridge keeps between records of one process (docs/cost.md, "Counters"): the compiled
// modules (an original's PTX is compiled for its occupancy query, then measured; a mutant's likewise),
// the L2 flusher's buffer, and, through range_profiler.hpp, the profiler session. All of it belongs to
// the device's primary context and is dropped before that context is reset. Internal to the
// bridge_*.cpp files.
#include <cuda.h>

#include <cstddef>
#include <memory>
#include <string>

#include "analyzer/counters/bridge_device_memory.hpp"
#include "analyzer/counters/bridge_module.hpp"
#include "analyzer/counters/l2_flush.hpp"

namespace rooflab::counters::bridge_detail {

// The module `cuda_ptx` compiles to in `mode`: kept from an earlier call (or a prefetch, waited for),
// else compiled now, on this thread, whose current context must be the device's. `compiled` tells
// which. Throws CudaError as LoadedModule does.
std::shared_ptr<LoadedModule> keptModule(const std::string& cuda_ptx, JitMode mode, bool* compiled = nullptr);

// Starts compiling `cuda_ptx` in `mode` on a thread of its own with `context` current there, unless
// it is kept or under way; returns at once, true when it started a compile. A failure is forgotten:
// the later keptModule compiles again and throws. Call it with the context current (a module the
// cache lets go is unloaded there).
bool prefetchModule(CUcontext context, const std::string& cuda_ptx, JitMode mode);

// Waits for every module compile started ahead (prefetchModule) to end: a profiling pass then runs
// with no module loading on another thread. Never throws.
void waitForModuleCompiles() noexcept;

// The device's flusher, made at its first use (the context current). Throws CudaError.
L2Flusher& keptL2Flusher(CUdevice device);

// The device copy of read-only input `name` uploaded under `inputs_key` with `bytes` bytes, or null:
// the caller then uploads it and hands it to keepInput. A new key lets every earlier copy go.
std::shared_ptr<DeviceBuffer> keptInput(const std::string& inputs_key, const std::string& name, std::size_t bytes);
void keepInput(const std::string& inputs_key, const std::string& name, std::shared_ptr<DeviceBuffer> buffer);

// Forgets the modules, the flushers, the kept inputs and the profiler sessions: before the context
// is reset.
void dropBridgeCaches() noexcept;

}  // namespace rooflab::counters::bridge_detail
