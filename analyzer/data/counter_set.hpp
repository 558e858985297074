#pragma once
// What the counters module measured for one record (docs/results-schema.md, "Counters"): typed until
// a results file is written, so roofline placement and the mutation verdict read fields, not keys.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooflab::counters {

// What cuFuncGetAttribute reports for one bridged kernel.
struct BridgedKernelResources {
  int registers_per_thread = 0;
  std::int64_t local_bytes_per_thread = 0;  // local memory (register spills, stack), per thread
  std::int64_t static_shared_bytes = 0;     // __local arrays declared in the kernel
  std::int64_t dynamic_shared_bytes = 0;    // __local arguments of its (last) launch
  int max_threads_per_block = 0;
};

// The bridged outputs against the OpenCL outputs of the same run: the bridge replays OpenCL's own
// PTX, so a difference means the replay, and with it the counters, is not the kernel that was timed.
struct BridgeAgreement {
  std::optional<double> rel_l2_error;  // nullopt: not finite
  std::size_t non_finite = 0;          // bridged values that are NaN or Inf
};

// Where one record's counters phase went (docs/cost.md): the bridge's steps and each profiling pass,
// in wall seconds.
struct CountersCost {
  double module_seconds = 0;    // the PTX rewritten and compiled by the driver (near 0 when cached)
  int jit_compiles = 0;         // driver compiles made for this record (0: the module was cached)
  double setup_seconds = 0;     // device buffers allocated, inputs uploaded
  double timing_seconds = 0;    // bridged warm-up and timed runs (originals only)
  double readback_seconds = 0;  // one clean run copied back for comparison (originals only)
  double config_seconds = 0;    // profiler configuration (host object, config image, counter data image)
  bool session_reused =
      false;  // this metric set's configuration (host object, config image) came from an earlier record
  std::vector<double> pass_seconds;  // each pass: inputs restored, L2 emptied, the range replayed
  double decode_seconds = 0;         // counter data decoded and evaluated
  double total_seconds = 0;          // the bridge's whole measurement
};

struct CounterSet {
  bool available = false;  // the metric table was collected
  std::string reason;      // why not, when !available
  // True when the runner gave up before asking the bridge (counters off, not NVIDIA, no PTX, a launch
  // without a local size) or the record never got that far: the results then carry only `available`
  // and `reason`, as they always have.
  bool not_attempted = false;

  std::map<std::string, double> values;        // raw metric name -> value, for each metric collected
  std::map<std::string, std::string> missing;  // raw metric name -> why it was not collected
  std::map<std::string, std::optional<double>>
      derived;  // derivedCounterTable() key -> value (nullopt: see derived_reasons)
  std::map<std::string, std::string> derived_reasons;  // why a derived value is null
  std::optional<std::int64_t> bridged_kernel_ns;       // median time of the launch sequence over the timed repetitions
  std::map<std::string, BridgedKernelResources> kernels;  // by kernel name
  int profiler_passes = 0;                                // replays CUPTI needed to collect the table
  bool l2_flushed_before_profiling = false;
  std::string l2_flush_error;                   // why the L2 could not be flushed (the counters were then taken warm)
  std::string jit_mode;                         // "whole-program" or "linked": how the bridged PTX was compiled
  std::map<std::string, int> opencl_registers;  // what OpenCL's ptxas reported, when known
  std::optional<CountersCost> cost;             // absent when the bridge was not asked (and in older files)

  // Filled by the runner, which knows the OpenCL run the bridged one replays.
  std::string metric_set;  // "full table" or the mutant validation subset; empty when not attempted
  std::optional<double> bridged_to_opencl_time_ratio;  // bridged CUDA-event time / OpenCL event time
  std::optional<BridgeAgreement> bridged_vs_opencl;    // normal records whose buffers were read back

  // The bridged run's own bookkeeping for the runner; not written to the results.
  std::vector<std::int64_t> bridged_repetitions_ns;
  bool buffers_read_back = false;  // the buffers hold the results of one clean bridged run

  // Counters for a record that never reached the bridge, and why.
  static CounterSet notAttempted(std::string why) {
    CounterSet set;
    set.reason = std::move(why);
    set.not_attempted = true;
    return set;
  }
};

// One launch shape whose occupancy the CUDA driver is asked for (cuOccupancyMaxActiveBlocksPerMultiprocessor).
struct OccupancyQuery {
  std::string kernel;
  std::size_t threads_per_block = 0;
  std::size_t dynamic_local_bytes = 0;  // the launch's __local arguments
  // When set: also find the fewest extra dynamic bytes that bring blocks per SM down to at most this.
  std::optional<int> pad_to_blocks_per_sm;
  std::size_t pad_limit_bytes = 0;  // the most padding allowed (OpenCL's local memory limit); 0: the driver's
};

struct KernelOccupancy {
  BridgedKernelResources resources;  // dynamic_shared_bytes: the query's
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  int max_warps_per_sm = 0;
  std::optional<std::size_t> pad_bytes;  // the padding found (pad_to_blocks_per_sm set and reachable)
  int padded_blocks_per_sm = 0;          // blocks per SM with pad_bytes more
};

}  // namespace rooflab::counters
