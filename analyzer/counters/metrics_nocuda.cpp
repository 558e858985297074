// The metric table and derived values of the counters module. Named *_nocuda because it needs no
// CUDA headers: CMake builds it with and without the CUDA Toolkit, so reports and tests see the same
// table either way. Its JSON is written at the results edge (analyzer/results_json_counters.cpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "analyzer/counters/counters.hpp"

namespace rooflab::counters {
namespace {

// Raw metric names (sm_90), as Nsight Compute's sections use them: FP32 operations as in
// SpeedOfLight_RooflineChart (fadd + fmul + 2 x ffma), shared memory as in SharedMemoryConflicts,
// achieved occupancy as in Occupancy.
constexpr const char* kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
constexpr const char* kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
constexpr const char* kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
constexpr const char* kDramRead = "dram__bytes_read.sum";
constexpr const char* kDramWrite = "dram__bytes_write.sum";
constexpr const char* kL2Bytes = "lts__t_bytes.sum";
constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr const char* kAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kWarpInstructions = "smsp__inst_executed.sum";
// A kernel that issues an instruction in most cycles is issue-bound whatever its FLOP count: the
// share of busy issue slots, with the SM clock it ran at, says how far an instruction-bound kernel
// is from its own limit (SchedulerStats and SpeedOfLight's "SM Frequency" in Nsight Compute).
constexpr const char* kIssueActive = "smsp__issue_active.avg.pct_of_peak_sustained_active";
constexpr const char* kSmClock = "sm__cycles_elapsed.avg.per_second";

}  // namespace

const std::vector<CounterMetric>& counterMetricTable() {
  static const std::vector<CounterMetric> table = {
      {kFadd, "FP32 add instructions (thread)", "inst",
       "Predicated-on FADD instructions executed, counted per thread: 1 FLOP each."},
      {kFmul, "FP32 multiply instructions (thread)", "inst",
       "Predicated-on FMUL instructions executed, counted per thread: 1 FLOP each."},
      {kFfma, "FP32 fused multiply-add instructions (thread)", "inst",
       "Predicated-on FFMA instructions executed, counted per thread: 2 FLOPs each."},
      {kDramRead, "DRAM bytes read", "bytes", "Bytes read from device memory (HBM/GDDR)."},
      {kDramWrite, "DRAM bytes written", "bytes", "Bytes written to device memory (HBM/GDDR)."},
      {kL2Bytes, "L2 bytes", "bytes", "Bytes requested from the L2 cache by all units (loads, stores, atomics)."},
      {kGlobalLoadRequests, "Global load requests", "requests",
       "Warp-level global load instructions seen by L1TEX."},
      {kGlobalStoreRequests, "Global store requests", "requests",
       "Warp-level global store instructions seen by L1TEX."},
      {kGlobalLoadSectors, "Global load sectors", "sectors",
       "32-byte sectors the global loads touched; sectors per request shows coalescing (4 for a warp reading "
       "consecutive 4-byte words)."},
      {kGlobalStoreSectors, "Global store sectors", "sectors", "32-byte sectors the global stores touched."},
      {kSharedLoadWavefronts, "Shared load wavefronts", "wavefronts",
       "Passes through the shared-memory data path that __local loads needed; more than one per request "
       "means bank conflicts."},
      {kSharedStoreWavefronts, "Shared store wavefronts", "wavefronts",
       "Passes through the shared-memory data path that __local stores needed."},
      {kSharedLoadConflicts, "Shared load bank conflicts", "conflicts", "Bank conflicts of __local loads."},
      {kSharedStoreConflicts, "Shared store bank conflicts", "conflicts", "Bank conflicts of __local stores."},
      {kAchievedOccupancy, "Achieved occupancy", "%",
       "Average active warps per active cycle, as a percentage of the SM's maximum."},
      {kWarpInstructions, "Warp instructions executed", "inst", "Instructions executed, counted per warp."},
      {kIssueActive, "Issue slots busy", "%",
       "Share of active cycles in which a scheduler issued an instruction (one per scheduler per cycle)."},
      {kSmClock, "SM clock", "cycles/s", "SM cycles per second while the kernel ran."},
  };
  return table;
}

const std::vector<std::string>& mutantValidationMetrics() {
  static const std::vector<std::string> metrics = {kFadd, kFmul, kFfma, kGlobalLoadSectors, kGlobalStoreSectors,
                                                   kAchievedOccupancy};
  return metrics;
}

std::vector<std::string> parseExtraMetrics(std::string_view list) {
  std::vector<std::string> names;
  std::string name;
  auto flush = [&] {
    if (name.empty()) return;
    const auto& table = counterMetricTable();
    const bool in_table = std::any_of(table.begin(), table.end(), [&](const CounterMetric& m) { return name == m.raw_name; });
    if (!in_table && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    name.clear();
  };
  for (const char c : list) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) flush();
    else name.push_back(c);
  }
  flush();
  return names;
}

const std::vector<CounterMetric>& derivedCounterTable() {
  static const std::vector<CounterMetric> table = {
      {"fp32_flops", "FP32 FLOPs", "FLOP", "FADD + FMUL + 2 x FFMA thread instructions."},
      {"dram_bytes_read", "DRAM bytes read", "bytes", "dram__bytes_read.sum."},
      {"dram_bytes_write", "DRAM bytes written", "bytes", "dram__bytes_write.sum."},
      {"dram_bytes", "DRAM bytes", "bytes", "Bytes read plus bytes written."},
      {"l2_bytes", "L2 bytes", "bytes", "lts__t_bytes.sum."},
      {"l1_global_bytes", "L1 global bytes", "bytes", "Global load plus store sectors x 32 bytes: what L1 served."},
      {"shared_bytes", "Shared-memory bytes", "bytes", "Shared load plus store wavefronts x 128 bytes."},
      {"fp32_flops_per_dram_byte", "Arithmetic intensity (counters)", "FLOP/byte",
       "FP32 FLOPs per DRAM byte: the roofline's x from measured traffic."},
      {"warp_instructions_per_dram_byte", "Instruction-to-byte ratio", "inst/byte",
       "Warp instructions executed per DRAM byte."},
      {"global_load_sectors_per_request", "Sectors per global load request", "sectors/request",
       "Coalescing of global loads: 4 is ideal for 4-byte words, 32 is fully scattered."},
      {"global_store_sectors_per_request", "Sectors per global store request", "sectors/request",
       "Coalescing of global stores."},
      {"shared_wavefronts", "Shared-memory wavefronts", "wavefronts", "Load plus store wavefronts."},
      {"shared_bank_conflicts", "Shared-memory bank conflicts", "conflicts", "Load plus store bank conflicts."},
      {"achieved_occupancy_pct", "Achieved occupancy", "%", "sm__warps_active.avg.pct_of_peak_sustained_active."},
      {"issue_slots_busy_pct", "Issue slots busy", "%",
       "smsp__issue_active.avg.pct_of_peak_sustained_active: near 100, the kernel is bound by instruction issue."},
      {"sm_clock_mhz", "SM clock", "MHz", "sm__cycles_elapsed.avg.per_second, in MHz."},
      {"fp32_gflops", "FP32 GFLOP/s (counters)", "GFLOP/s", "FP32 FLOPs over the median bridged time."},
      {"dram_gbps", "DRAM GB/s (counters)", "GB/s", "DRAM bytes over the median bridged time."},
  };
  return table;
}

void deriveCounterValues(CounterSet& m) {
  m.derived.clear();
  m.derived_reasons.clear();
  auto value = [&](const char* raw) -> std::optional<double> {
    const auto it = m.values.find(raw);
    if (it == m.values.end()) return std::nullopt;
    return it->second;
  };
  // Sets `key` when every input exists, else null with the first missing input as the reason.
  auto set = [&](const std::string& key, std::optional<double> result, const std::string& missing_reason) {
    m.derived[key] = result;
    if (!result) m.derived_reasons[key] = missing_reason;
  };
  auto notCollected = [](const char* raw) { return std::string(raw) + " was not collected"; };
  auto sum = [&](const char* a, const char* b) -> std::optional<double> {
    if (!value(a) || !value(b)) return std::nullopt;
    return *value(a) + *value(b);
  };
  auto ratio = [&](const std::string& key, std::optional<double> num, std::optional<double> den,
                   const std::string& missing_reason, const std::string& zero_reason) {
    if (!num || !den) return set(key, std::nullopt, missing_reason);
    if (*den == 0) return set(key, std::nullopt, zero_reason);
    set(key, *num / *den, "");
  };

  std::optional<double> flops;
  if (value(kFadd) && value(kFmul) && value(kFfma)) flops = *value(kFadd) + *value(kFmul) + 2 * *value(kFfma);
  set("fp32_flops", flops, "an FP32 instruction counter was not collected");
  set("dram_bytes_read", value(kDramRead), notCollected(kDramRead));
  set("dram_bytes_write", value(kDramWrite), notCollected(kDramWrite));
  const std::optional<double> dram_bytes = sum(kDramRead, kDramWrite);
  set("dram_bytes", dram_bytes, "a DRAM byte counter was not collected");
  set("l2_bytes", value(kL2Bytes), notCollected(kL2Bytes));
  ratio("fp32_flops_per_dram_byte", flops, dram_bytes, "FP32 FLOPs or DRAM bytes were not collected",
        "no DRAM traffic: the data stayed in cache");
  ratio("warp_instructions_per_dram_byte", value(kWarpInstructions), dram_bytes,
        "instructions or DRAM bytes were not collected", "no DRAM traffic: the data stayed in cache");
  ratio("global_load_sectors_per_request", value(kGlobalLoadSectors), value(kGlobalLoadRequests),
        "global load sectors or requests were not collected", "no global loads");
  ratio("global_store_sectors_per_request", value(kGlobalStoreSectors), value(kGlobalStoreRequests),
        "global store sectors or requests were not collected", "no global stores");
  set("shared_wavefronts", sum(kSharedLoadWavefronts, kSharedStoreWavefronts),
      "a shared-memory wavefront counter was not collected");
  // A sector is 32 bytes; a shared-memory wavefront one pass of the 32 four-byte banks (128 bytes):
  // the bytes each data path carried, for the L1 and local levels of the hierarchical roofline.
  const std::optional<double> global_sectors = sum(kGlobalLoadSectors, kGlobalStoreSectors);
  set("l1_global_bytes", global_sectors ? std::optional<double>(*global_sectors * 32) : std::nullopt,
      "global load or store sectors were not collected");
  const std::optional<double> shared_wavefronts = sum(kSharedLoadWavefronts, kSharedStoreWavefronts);
  set("shared_bytes", shared_wavefronts ? std::optional<double>(*shared_wavefronts * 128) : std::nullopt,
      "a shared-memory wavefront counter was not collected");
  set("shared_bank_conflicts", sum(kSharedLoadConflicts, kSharedStoreConflicts),
      "a shared-memory bank conflict counter was not collected");
  set("achieved_occupancy_pct", value(kAchievedOccupancy), notCollected(kAchievedOccupancy));
  set("issue_slots_busy_pct", value(kIssueActive), notCollected(kIssueActive));
  std::optional<double> clock_mhz;
  if (value(kSmClock)) clock_mhz = *value(kSmClock) / 1e6;
  set("sm_clock_mhz", clock_mhz, notCollected(kSmClock));

  std::optional<double> ns;
  if (m.bridged_kernel_ns) ns = static_cast<double>(*m.bridged_kernel_ns);
  // FLOP per ns is GFLOP/s; byte per ns is GB/s.
  ratio("fp32_gflops", flops, ns, "FP32 FLOPs or the bridged time are missing", "the bridged time was 0 ns");
  ratio("dram_gbps", dram_bytes, ns, "DRAM bytes or the bridged time are missing", "the bridged time was 0 ns");
}

CounterSet unavailableMeasurement(std::string reason) {
  CounterSet m;
  m.reason = std::move(reason);
  return m;
}

}  // namespace rooflab::counters
