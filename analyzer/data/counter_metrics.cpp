// The metric table and the derived values' table. Its JSON is written at the results edge
// (json/results_json_counters.cpp).
#include "analyzer/data/counter_metrics.hpp"

namespace rooflab::counters {

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
      {kGlobalLoadRequests, "Global load requests", "requests", "Warp-level global load instructions seen by L1TEX."},
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
      {kSharedStoreInstructions, "Shared store instructions", "inst",
       "Warp-level __local store instructions executed."},
      {kIntegerInstructions, "Integer instructions (thread)", "inst",
       "Predicated-on integer and logical instructions executed, counted per thread: a kernel's integer operations."},
  };
  return table;
}

const std::vector<std::string>& mutantValidationMetrics() {
  static const std::vector<std::string> metrics = {
      kFadd, kFmul, kFfma, kGlobalLoadSectors, kGlobalStoreSectors, kAchievedOccupancy};
  return metrics;
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
      // The instruction roofline (docs/charts.md): a rate, the x of each level, the walls' markers.
      {"integer_ops", "Integer operations (counters)", "op",
       "Integer and logical thread instructions: the work of a kernel without floating-point work."},
      {"warp_gips", "Warp GIPS (counters)", "warp GIPS", "Warp instructions executed over the median bridged time."},
      {"warp_instructions_per_l1_transaction", "Instructions per L1 transaction", "inst/sector",
       "Warp instructions per 32-byte global sector through L1 (loads plus stores)."},
      {"warp_instructions_per_l2_transaction", "Instructions per L2 transaction", "inst/sector",
       "Warp instructions per 32-byte L2 sector (lts__t_bytes / 32)."},
      {"warp_instructions_per_shared_transaction", "Instructions per shared transaction", "inst/wavefront",
       "Warp instructions per shared-memory wavefront (loads plus stores)."},
      {"shared_load_wavefronts_per_request", "Wavefronts per shared load", "wavefronts/inst",
       "Bank conflicts of __local loads: 1 is conflict-free, 32 a 32-way conflict."},
      {"shared_store_wavefronts_per_request", "Wavefronts per shared store", "wavefronts/inst",
       "Bank conflicts of __local stores: 1 is conflict-free, 32 a 32-way conflict."},
      {"global_load_gips", "Global load GIPS", "warp GIPS", "Global load requests over the median bridged time."},
      {"global_store_gips", "Global store GIPS", "warp GIPS", "Global store requests over the median bridged time."},
      {"shared_load_gips", "Shared load GIPS", "warp GIPS", "__local load instructions over the median bridged time."},
      {"shared_store_gips", "Shared store GIPS", "warp GIPS",
       "__local store instructions over the median bridged time."},
  };
  return table;
}

const std::vector<std::string>& profilerReadingKeys() {
  static const std::vector<std::string> keys = {"branch_divergence_pct",
                                                "instruction_replay_overhead",
                                                "global_load_efficiency_pct",
                                                "global_store_efficiency_pct",
                                                "l1_hit_rate_pct",
                                                "l2_hit_rate_pct",
                                                "shared_bank_conflicts_per_access",
                                                "warp_instructions_per_dram_transaction"};
  return keys;
}

}  // namespace rooflab::counters
