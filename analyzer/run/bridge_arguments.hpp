#pragma once
// A point's OpenCL launches replayed through the PTX bridge: its launches and buffers
// marshalled for the CUDA driver, its counters measured, and the bridged run checked against the
// OpenCL one.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/metric_selection.hpp"
#include "analyzer/support/host_buffer.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab::counters {

// The bridge's launches for a point's launches as OpenCL ran them (occupancy pad included).
// Throws std::invalid_argument, with the reason, for a launch without a local size.
std::vector<BridgeLaunch> bridgeLaunches(const std::vector<ResolvedLaunch>& launches);
// The point's launches as set up (`launches`, rooflab's own arguments appended), each repetition of a
// repeated one in its place: the bridge replays the run launch by launch.
std::vector<ResolvedLaunch> everyRepetition(const ResolvedPoint& point, const std::vector<ResolvedLaunch>& launches);

// The bridged run's own buffers, those a launch may write: each input the point writes as the OpenCL
// run got it, every other buffer poisoned. The inputs it only reads are not copied: the bridge
// uploads them from `inputs` (BridgeOptions::read_only_inputs).
std::map<std::string, HostBuffer> bridgeBuffers(const ResolvedPoint& point,
                                                const std::map<std::string, HostBuffer>& inputs);

struct PointCounterOptions {
  BridgeDevice device;  // the OpenCL device (BridgeOptions::device)
  int timing_repetitions = 3;
  // The registers per kernel of OpenCL's compile of this PTX (NVIDIA's build log), when known.
  const std::map<std::string, int>* opencl_registers = nullptr;
  std::vector<std::string> extra_metrics;  // collected for originals beside the table, and for mutants
  std::string original_jit_mode;       // a mutant's: how its original's bridged PTX was compiled (CounterSet::jit_mode)
  std::string inputs_key;              // what `inputs` hold (BridgeOptions::read_only_inputs_key)
  bool keep_profiler_enabled = false;  // BridgeOptions::keep_profiler_enabled
  PcSampling* line_samples = nullptr;  // the records [run] line_sampling names: BridgeOptions::line_samples
};

// What the record needs of the bridge (metric_selection.hpp): an original's or what-if's whole table,
// a mutant's validation.
CounterNeed counterNeedOf(RunMode mode);

// Starts compiling the point's bridged modules ahead of measurePointCounters (counters.hpp,
// prefetchBridged), so that the driver's JIT overlaps the OpenCL run. Never throws.
void prefetchPointCounters(const std::string& ptx, const ResolvedPoint& point,
                           const std::vector<ResolvedLaunch>& launches, const PointCounterOptions& options);

// Runs the point's launches (OpenCL's PTX, `ptx`) through the bridge under the range profiler, with
// what the record needs (counterNeedOf). For an original, compares the bridged outputs with OpenCL's
// and the bridged time with OpenCL's median. Never throws.
CounterSet measurePointCounters(const std::string& ptx, const ResolvedPoint& point,
                                const std::vector<ResolvedLaunch>& launches,
                                const std::map<std::string, HostBuffer>& inputs,
                                const std::map<std::string, HostBuffer>& opencl_outputs,
                                const std::optional<EventTimings>& opencl_timings, const PointCounterOptions& options);

}  // namespace rooflab::counters
