#pragma once
// The metric table (nvbench's measure_cupti keeps one like it): every raw metric rooflab collects
// through CUPTI and every value derived from them, with the name and unit reports show. The counters
// module collects by it; reports label by it.
#include <string>
#include <vector>

namespace rooflab::counters {

// Raw metric names (sm_90), as Nsight Compute's sections use them: FP32 operations as in
// SpeedOfLight_RooflineChart (fadd + fmul + 2 x ffma), shared memory as in SharedMemoryConflicts,
// achieved occupancy as in Occupancy.
inline constexpr const char* kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
// Not in the table: asked for through ROOFLAB_EXTRA_METRICS, they extend a compute-only mutant's validation.
inline constexpr const char* kDadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
inline constexpr const char* kDmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";
inline constexpr const char* kDfma = "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum";
// Integer and logical instructions per thread, as Nsight Compute's instruction statistics and the
// NERSC roofline scripts count integer work: in the table, the operations of a kernel without
// floating-point work, placed under the int32 roof.
inline constexpr const char* kIntegerInstructions = "smsp__sass_thread_inst_executed_op_integer_pred_on.sum";
inline constexpr const char* kDramRead = "dram__bytes_read.sum";
inline constexpr const char* kDramWrite = "dram__bytes_write.sum";
inline constexpr const char* kL2Bytes = "lts__t_bytes.sum";
inline constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* kAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kWarpInstructions = "smsp__inst_executed.sum";
// A kernel that issues an instruction in most cycles is issue-bound whatever its FLOP count: the
// share of busy issue slots, with the SM clock it ran at, says how far an instruction-bound kernel
// is from its own limit (SchedulerStats and SpeedOfLight's "SM Frequency" in Nsight Compute).
inline constexpr const char* kIssueActive = "smsp__issue_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kSmClock = "sm__cycles_elapsed.avg.per_second";
// The course's profiler readings (nvprof's branch_efficiency, inst_replay_overhead, gld/gst_efficiency,
// hit rates, shared transactions per request), in the names Nsight Compute's sections read them by:
// SourceCounters (branch targets), InstructionStats (issued and executed), MemoryWorkloadAnalysis
// (L1/TEX and L2 hit rates), the SharedMemoryConflicts rule (shared instructions); global efficiency as
// NVIDIA's nvbench collects it through CUPTI (nvbench/detail/measure_cupti.cu).
inline constexpr const char* kBranchTargets = "smsp__sass_branch_targets.sum";
inline constexpr const char* kDivergentBranchTargets = "smsp__sass_branch_targets_threads_divergent.sum";
inline constexpr const char* kWarpInstructionsIssued = "smsp__inst_issued.sum";
inline constexpr const char* kGlobalLoadEfficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
inline constexpr const char* kGlobalStoreEfficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
inline constexpr const char* kL1HitRate = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
inline constexpr const char* kSharedLoadInstructions = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr const char* kSharedStoreInstructions = "smsp__sass_inst_executed_op_shared_st.sum";
// A DRAM transaction in the course's sense: one 32-byte sector (dram__bytes = dram__sectors x 32).
// The instruction roofline counts L1 and L2 transactions in the same sectors, and a shared-memory
// transaction as one wavefront, a pass of the 32 four-byte banks.
inline constexpr double kDramSectorBytes = 32;
inline constexpr double kSharedWavefrontBytes = 128;

// One counter of the metric table: the raw metric name CUPTI collects (sm_90 names), and what reports show.
struct CounterMetric {
  const char* raw_name;
  const char* display_name;
  const char* unit;  // bytes, inst, requests, sectors, wavefronts, conflicts, %
  const char* description;
};

// The raw metrics collected in one range around the bridged launch sequence.
const std::vector<CounterMetric>& counterMetricTable();

// The raw metrics a mutant's validation reads (FP32 instructions, global sectors) and its achieved
// occupancy: what rooflab collects for compute-only and memory-only records (one or two passes
// instead of the whole table's).
const std::vector<std::string>& mutantValidationMetrics();

// Values computed from the raw metrics (and the bridged time); keys of CounterSet::derived.
// raw_name holds the derived key (fp32_flops, dram_bytes, ...).
const std::vector<CounterMetric>& derivedCounterTable();

// The course's profiler readings among the derived values: branch divergence, replays, global load
// and store efficiency, L1 and L2 hit rates, bank conflicts per shared access, instructions per DRAM
// transaction. Collected for originals only (the full metric table; mutants collect their validation
// subset). docs/results-schema.md lists them. Their derived keys, in the order reports show them.
const std::vector<std::string>& profilerReadingKeys();

}  // namespace rooflab::counters
