#pragma once
// CUPTI's range profiler (CUDA 13, cupti_range_profiler.h) around one piece of GPU work: user range,
// user replay, one range. The work is replayed once per pass CUPTI needs to collect every metric.
// Each context keeps its profiler session between calls (profiler_session.hpp).
#include <cuda.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/counters/profiler_session.hpp"

namespace rooflab::counters {

// Collects `metrics` over one range around `run_work` on `context` (current on this thread) of CUDA
// device `device_ordinal`. Before each pass, outside the range, calls `prepare_pass` (e.g. to restore
// the inputs, so every pass measures the same work). A metric the chip does not know goes to `missing`;
// anything else that fails throws CuptiError, CudaError or std::runtime_error with the failing call.
// `keep_enabled`: the range profiler stays enabled on the context after the range, for the next one
// (else it is disabled; CUPTI's initialisation and the metric sets' configurations stay either way).
RangeProfile profileOneRange(CUcontext context, int device_ordinal, const std::vector<std::string>& metrics,
                             const std::function<void()>& prepare_pass, const std::function<void()>& run_work,
                             bool keep_enabled);

// Disables the range profiler of every context where a range left it enabled. Never throws.
void disableKeptProfilers() noexcept;

// Keeps `object` (a CUDA module the batch no longer needs) until no range profiler is enabled, then
// releases it; at once when none is. A module unloaded while a kept profiler is enabled is a suspect
// in the crashes of a kept profiler (docs/cost.md, "Counters"). Thread-safe.
void retainWhileProfiling(std::shared_ptr<void> object);

// Drops every context's session; before a context is reset, whose profiler would go with it.
void dropProfilerSessions() noexcept;

}  // namespace rooflab::counters
