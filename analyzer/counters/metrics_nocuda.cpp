// The metric table and derived values of the counters module. Named *_nocuda because it needs no
// CUDA headers: CMake builds it with and without the CUDA Toolkit, so reports and tests see the same
// table either way. Its JSON is written at the results edge (analyzer/results_json_counters.cpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/profiler_readings.hpp"

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
// The course's profiler readings (nvprof's branch_efficiency, inst_replay_overhead, gld/gst_efficiency,
// hit rates, shared transactions per request), in the names Nsight Compute's sections read them by:
// SourceCounters (branch targets), InstructionStats (issued and executed), MemoryWorkloadAnalysis
// (L1/TEX and L2 hit rates), the SharedMemoryConflicts rule (shared instructions); global efficiency as
// NVIDIA's nvbench collects it through CUPTI (nvbench/detail/measure_cupti.cu).
constexpr const char* kBranchTargets = "smsp__sass_branch_targets.sum";
constexpr const char* kDivergentBranchTargets = "smsp__sass_branch_targets_threads_divergent.sum";
constexpr const char* kWarpInstructionsIssued = "smsp__inst_issued.sum";
constexpr const char* kGlobalLoadEfficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
constexpr const char* kGlobalStoreEfficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
constexpr const char* kL1HitRate = "l1tex__t_sector_hit_rate.pct";
constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
constexpr const char* kSharedLoadInstructions = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr const char* kSharedStoreInstructions = "smsp__sass_inst_executed_op_shared_st.sum";
// A DRAM transaction in the course's sense: one 32-byte sector (dram__bytes = dram__sectors x 32).
constexpr double kDramSectorBytes = 32;

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
      {kBranchTargets, "Branch targets", "branches", "Branch targets taken by warps (a divergent branch counts each)."},
      {kDivergentBranchTargets, "Divergent branch targets", "branches",
       "Branch targets where the threads of a warp went different ways."},
      {kWarpInstructionsIssued, "Warp instructions issued", "inst",
       "Instructions issued, counted per warp; more than executed means replays."},
      {kGlobalLoadEfficiency, "Global load efficiency", "%",
       "Bytes the global loads requested per 32-byte sector they transferred, as a percentage of 32."},
      {kGlobalStoreEfficiency, "Global store efficiency", "%",
       "Bytes the global stores requested per 32-byte sector they transferred, as a percentage of 32."},
      {kL1HitRate, "L1/TEX hit rate", "%", "Sector lookups in L1/TEX that hit."},
      {kL2HitRate, "L2 hit rate", "%", "Sector lookups in L2 that hit."},
      {kSharedLoadInstructions, "Shared load instructions", "inst", "Warp-level __local load instructions executed."},
      {kSharedStoreInstructions, "Shared store instructions", "inst", "Warp-level __local store instructions executed."},
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
      {"branch_divergence_pct", "Branch divergence", "%",
       "Divergent branch targets per branch target: where the threads of a warp took different paths, which "
       "then run one after the other."},
      {"instruction_replay_overhead", "Instruction replays", "replays/inst",
       "Warp instructions issued per instruction executed, minus 1: the issue slots spent replaying."},
      {"global_load_efficiency_pct", "Global load efficiency", "%",
       "Bytes the global loads requested per byte transferred (32-byte sectors); below 100, uncoalesced; above "
       "100, threads of a warp read the same words."},
      {"global_store_efficiency_pct", "Global store efficiency", "%",
       "Bytes the global stores requested per byte transferred (32-byte sectors)."},
      {"l1_hit_rate_pct", "L1 hit rate", "%", "Share of L1/TEX sector lookups that hit."},
      {"l2_hit_rate_pct", "L2 hit rate", "%",
       "Share of L2 sector lookups that hit; the L2 is emptied before profiling, so inputs read once miss."},
      {"shared_bank_conflicts_per_access", "Bank conflicts per shared access", "conflicts/inst",
       "Shared-memory bank conflicts per warp-level __local load or store: 0 is conflict-free, 31 the worst."},
      {"warp_instructions_per_dram_transaction", "Instructions per DRAM transaction", "inst/sector",
       "Warp instructions executed per 32-byte DRAM sector moved: low, the kernel waits on memory."},
  };
  return table;
}

const std::vector<std::string>& profilerReadingKeys() {
  static const std::vector<std::string> keys = {
      "branch_divergence_pct",       "instruction_replay_overhead", "global_load_efficiency_pct",
      "global_store_efficiency_pct", "l1_hit_rate_pct",             "l2_hit_rate_pct",
      "shared_bank_conflicts_per_access", "warp_instructions_per_dram_transaction"};
  return keys;
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
  // The profiler's own reason when it refused the metric (CounterSet::missing), so a reading that a
  // device lacks says which metric and why.
  auto notCollected = [&](const char* raw) {
    const auto why = m.missing.find(raw);
    return std::string(raw) + " was not collected" + (why != m.missing.end() ? ": " + why->second : "");
  };
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

  // The course's profiler readings. A percentage the profiler computed is null when the access it
  // measures never happened (CUPTI then divides 0 by 0).
  auto percentage = [&](const std::string& key, const char* raw, std::optional<double> accesses,
                        const std::string& no_access_reason) {
    if (!value(raw)) return set(key, std::nullopt, notCollected(raw));
    if ((accesses && *accesses == 0) || !std::isfinite(*value(raw))) return set(key, std::nullopt, no_access_reason);
    set(key, value(raw), "");
  };
  // The reason names the first input missing.
  auto firstNotCollected = [&](const char* a, const char* b) { return notCollected(value(a) ? b : a); };
  std::optional<double> divergent_pct;
  if (value(kDivergentBranchTargets)) divergent_pct = 100 * *value(kDivergentBranchTargets);
  ratio("branch_divergence_pct", divergent_pct, value(kBranchTargets),
        firstNotCollected(kBranchTargets, kDivergentBranchTargets), "no branches");
  std::optional<double> replays;  // issued - executed
  if (value(kWarpInstructionsIssued) && value(kWarpInstructions))
    replays = *value(kWarpInstructionsIssued) - *value(kWarpInstructions);
  ratio("instruction_replay_overhead", replays, value(kWarpInstructions),
        firstNotCollected(kWarpInstructions, kWarpInstructionsIssued), "no instructions executed");
  percentage("global_load_efficiency_pct", kGlobalLoadEfficiency, value(kGlobalLoadRequests), "no global loads");
  percentage("global_store_efficiency_pct", kGlobalStoreEfficiency, value(kGlobalStoreRequests), "no global stores");
  percentage("l1_hit_rate_pct", kL1HitRate, std::nullopt, "no L1/TEX sector lookups");
  percentage("l2_hit_rate_pct", kL2HitRate, value(kL2Bytes), "no L2 traffic");
  const std::optional<double> shared_instructions = sum(kSharedLoadInstructions, kSharedStoreInstructions);
  ratio("shared_bank_conflicts_per_access", sum(kSharedLoadConflicts, kSharedStoreConflicts), shared_instructions,
        shared_instructions ? "a shared-memory bank conflict counter was not collected"
                            : "a shared-memory instruction counter was not collected",
        "no shared-memory accesses");
  ratio("warp_instructions_per_dram_transaction", value(kWarpInstructions),
        dram_bytes ? std::optional<double>(*dram_bytes / kDramSectorBytes) : std::nullopt,
        value(kWarpInstructions) ? "a DRAM byte counter was not collected" : notCollected(kWarpInstructions),
        "no DRAM traffic: the data stayed in cache");
}

CounterSet unavailableMeasurement(std::string reason) {
  CounterSet m;
  m.reason = std::move(reason);
  return m;
}

}  // namespace rooflab::counters
