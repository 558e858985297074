#pragma once
// NVIDIA hardware counters for OpenCL kernels, through the PTX bridge (docs/cost.md, "Counters"): the OpenCL program's
// PTX is rewritten for the CUDA driver, launched with cuLaunchKernel under CUDA events for timing and
// under CUPTI's range profiler for the metric table below.
//
// Nothing here throws and nothing needs an NVIDIA machine to link or start: libcuda and libcupti are
// loaded at run time. Every failure becomes `available = false` with a reason.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/counter_metrics.hpp"
#include "analyzer/counters/device_match.hpp"
#include "analyzer/data/counter_set.hpp"
#include "analyzer/support/host_buffer.hpp"

namespace rooflab {
struct DeviceInfo;
}

namespace rooflab::counters {

// The metrics a ROOFLAB_EXTRA_METRICS value names (comma- or space-separated), collected for originals
// beside the table; names already in the table are dropped. The command line reads the variable.
std::vector<std::string> parseExtraMetrics(std::string_view list);

// One argument of a bridged launch, in OpenCL argument order.
struct BridgeArg {
  enum class Kind { buffer, scalar, local };
  Kind kind = Kind::scalar;
  std::string buffer_name;              // Kind::buffer: a key of the buffers map
  std::vector<std::byte> scalar_bytes;  // Kind::scalar: the bytes clSetKernelArg would get
  std::size_t local_bytes = 0;          // Kind::local: size of the __local argument

  static BridgeArg buffer(std::string name) {
    BridgeArg a;
    a.kind = Kind::buffer;
    a.buffer_name = std::move(name);
    return a;
  }
  static BridgeArg scalar(std::vector<std::byte> bytes) {
    BridgeArg a;
    a.kind = Kind::scalar;
    a.scalar_bytes = std::move(bytes);
    return a;
  }
  template <class T>
  static BridgeArg scalarOf(const T& value) {
    std::vector<std::byte> bytes(sizeof(T));
    std::memcpy(bytes.data(), &value, sizeof(T));
    return scalar(std::move(bytes));
  }
  static BridgeArg local(std::size_t bytes) {
    BridgeArg a;
    a.kind = Kind::local;
    a.local_bytes = bytes;
    return a;
  }
};

// One clEnqueueNDRangeKernel of the variant, replayed through CUDA: grid = global / local per dimension.
struct BridgeLaunch {
  std::string kernel;
  std::vector<BridgeArg> args;
  std::vector<std::size_t> global;  // 1 to 3 dimensions; each a multiple of local
  std::vector<std::size_t> local;   // same dimensions as global (the bridge needs an explicit work-group size)
};

// The warp samples at one line, as the bridged module's line info names it (the file as the OpenCL
// compiler saw it: a `#line` name or an included header's path).
struct SampledLine {
  std::string file;  // "" for instructions without line info
  int line = 0;
  std::int64_t samples = 0;
  std::map<std::string, std::int64_t> stalls;  // by CUPTI's reason name, without its common prefix
  int pcs = 0;                                 // distinct SASS instructions sampled
};

// One run of the launch sequence under CUPTI's PC sampling (docs/source-lines.md).
struct PcSampling {
  bool available = false;
  std::string reason;  // why not, when !available
  int period_log2 = 0;
  std::int64_t total_samples = 0;
  std::int64_t dropped_samples = 0;
  std::vector<SampledLine> lines;  // by file and line
  double seconds = 0;
};

struct BridgeOptions {
  // The OpenCL device the bridge counts for: the CUDA device at its PCI location, else the only one of
  // its name (device_match.hpp); no name: CUDA device 0.
  BridgeDevice device;
  int warmup_runs = 1;           // untimed runs of the sequence before the timed ones
  bool collect_counters = true;  // false: bridged timing and results only
  // Empty the L2 before each profiling pass, so DRAM counters see the inputs come from DRAM as in a
  // first run (Nsight Compute's --cache-control all). Timed runs stay warm, like the OpenCL ones.
  bool cold_l2_for_counters = true;
  // Registers per thread of each kernel as NVIDIA's OpenCL compiled it (its -cl-nv-verbose build log).
  // The driver JIT-compiles the same PTX differently from OpenCL in whole-program mode (merged shared
  // loads) and in linked mode (other register allocation); when this is given, the bridge compiles
  // linked, whole-program and whole-program for 256 work items, and keeps the compile closest to
  // OpenCL's registers. Empty: whole-program.
  std::map<std::string, int> opencl_registers;
  // When set (a CounterSet::jit_mode, e.g. "linked"): compile the bridged PTX so, without choosing.
  // A mutant is compiled as its original was, so that the instructions and sectors its validation
  // compares come from the same compiler settings.
  std::string jit_mode;
  // Raw metric names to collect; empty: the whole counterMetricTable(). Fewer metrics, fewer passes.
  std::vector<std::string> metrics;
  // Buffers copied back after the bridged run; empty: every buffer a launch names.
  std::vector<std::string> read_back_buffers;
  // One clean run copied back into the caller's buffers, for comparison with OpenCL's (originals).
  bool read_back = true;
  // The buffers a launch may write: only they are restored before each profiling pass (the others
  // still hold the inputs); empty: every buffer.
  std::vector<std::string> written_buffers;
  // Buffers the launches only read, by name, used where `buffers` has none of that name: the caller's
  // own inputs, uploaded from where they are and never copied or read back (null: none).
  const std::map<std::string, HostBuffer>* read_only_inputs = nullptr;
  // What read_only_inputs hold (the runner's name for a point's host inputs): while later calls give
  // the same key, their device copies stay uploaded from the first (empty: uploaded every call).
  std::string read_only_inputs_key;
  // Leave the range profiler enabled after this record's range, for the next record's if it collects
  // the same metric set (it saves the first pass's start, 0.1-0.2 s a record on the H100). No module
  // is unloaded while it is enabled (retainWhileProfiling).
  bool keep_profiler_enabled = false;
  // When set: after the counters, one more run of the sequence from restored inputs, from a module
  // compiled with line info, under CUPTI's PC sampling; its samples per source line land here. The
  // PTX must carry line info (NVIDIA's OpenCL built with -nv-line-info).
  PcSampling* line_samples = nullptr;
};

// "" when counters may work for this device (NVIDIA, CUDA built in, libcuda and libcupti load, a CUDA
// device exists); otherwise why they cannot. Cheap after the first call.
std::string countersUnavailableReason(const DeviceInfo& device);

// Why the bridge cannot launch anything here ("" when libcuda loads and a CUDA device exists),
// whatever the OpenCL device. Tests use it to skip.
std::string bridgeUnavailableReason();

// Runs `launches` (in order) from NVIDIA's OpenCL PTX (the CL_PROGRAM_BINARIES text) through the CUDA
// driver: uploads every buffer a launch names, runs the sequence `warmup_runs` times, then
// `timing_repetitions` times under CUDA events (bridged_kernel_ns is the median; none with 0), then
// (read_back) once more from freshly uploaded buffers and copies them back (so the caller can verify
// the bridged result), then, for each pass CUPTI needs, from restored inputs and an emptied L2
// (cold_l2_for_counters), under the range profiler with one range around the whole sequence. Timings
// survive a CUPTI failure; `cost` says where the time went. Never throws.
CounterSet measureBridged(const std::string& opencl_ptx, std::map<std::string, HostBuffer>& buffers,
                          const std::vector<BridgeLaunch>& launches, int timing_repetitions,
                          const BridgeOptions& options = {});

// Starts compiling, on threads of their own, the modules measureBridged will load for these launches
// and options, so that the driver's JIT runs while the OpenCL run is timed; returns at once. Never
// throws: a compile that fails here fails again, and is reported, in measureBridged.
void prefetchBridged(const std::string& opencl_ptx, const std::vector<BridgeLaunch>& launches,
                     const BridgeOptions& options);

// What the bridge keeps between measurements (docs/cost.md, "Counters": modules, the L2 flusher, the
// profiler session) released, while the contexts still live: a worker calls it before it exits.
void releaseKeptBridge() noexcept;

// Loads the program's PTX through the bridge (nothing is launched) and answers each query. Throws
// (with the reason) when the bridge cannot load it. device: as BridgeOptions::device.
std::vector<KernelOccupancy> bridgedOccupancy(const std::string& opencl_ptx, const std::vector<OccupancyQuery>& queries,
                                              const BridgeDevice& device);

// Fills derived and derived_reasons from values and bridged_kernel_ns.
void deriveCounterValues(CounterSet& measurement);

// A bridge that could not measure (no CUDA built in): every field reported, none measured.
CounterSet unavailableMeasurement(std::string reason);

}  // namespace rooflab::counters
