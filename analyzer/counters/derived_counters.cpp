// The derived values of a counter set, computed from the raw metrics of the table
// (data/counter_metrics.hpp). Needs no CUDA headers: CMake builds it with and without the CUDA
// Toolkit, so reports and tests see the same values either way.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "analyzer/counters/counters.hpp"

namespace rooflab::counters {

std::vector<std::string> parseExtraMetrics(std::string_view list) {
  std::vector<std::string> names;
  std::string name;
  auto flush = [&] {
    if (name.empty()) return;
    const auto& table = counterMetricTable();
    const bool in_table =
        std::any_of(table.begin(), table.end(), [&](const CounterMetric& m) { return name == m.raw_name; });
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

namespace {

// The instruction roofline's values (docs/charts.md): warp instructions per second, per transaction at
// each level (32-byte sectors; shared wavefronts), and the load and store instructions of the walls.
template <class Value>
void deriveInstructionRoofline(CounterSet& m, const Value& value, std::optional<double> ns) {
  auto ratio = [&](const std::string& key, std::optional<double> num, std::optional<double> den,
                   const std::string& why) {
    m.derived[key] = num && den && *den > 0 ? std::optional<double>(*num / *den) : std::nullopt;
    if (!m.derived[key]) m.derived_reasons[key] = !num || !den ? why : "none of these transactions (or a zero time)";
  };
  auto sum = [&](const char* a, const char* b) -> std::optional<double> {
    return value(a) && value(b) ? std::optional<double>(*value(a) + *value(b)) : std::nullopt;
  };
  m.derived["integer_ops"] = value(kIntegerInstructions);
  if (!value(kIntegerInstructions))
    m.derived_reasons["integer_ops"] = std::string(kIntegerInstructions) + " was not collected";
  const std::string no_time = "a counter or the bridged time is missing";
  ratio("warp_gips", value(kWarpInstructions), ns, no_time);
  const std::optional<double> l2_sectors =
      value(kL2Bytes) ? std::optional<double>(*value(kL2Bytes) / kDramSectorBytes) : std::nullopt;
  const std::string missing = "a counter of instructions or transactions was not collected";
  ratio("warp_instructions_per_l1_transaction", value(kWarpInstructions), sum(kGlobalLoadSectors, kGlobalStoreSectors),
        missing);
  ratio("warp_instructions_per_l2_transaction", value(kWarpInstructions), l2_sectors, missing);
  ratio("warp_instructions_per_shared_transaction", value(kWarpInstructions),
        sum(kSharedLoadWavefronts, kSharedStoreWavefronts), missing);
  ratio("shared_load_wavefronts_per_request", value(kSharedLoadWavefronts), value(kSharedLoadInstructions), missing);
  ratio("shared_store_wavefronts_per_request", value(kSharedStoreWavefronts), value(kSharedStoreInstructions), missing);
  ratio("global_load_gips", value(kGlobalLoadRequests), ns, no_time);
  ratio("global_store_gips", value(kGlobalStoreRequests), ns, no_time);
  ratio("shared_load_gips", value(kSharedLoadInstructions), ns, no_time);
  ratio("shared_store_gips", value(kSharedStoreInstructions), ns, no_time);
}

// The bookkeeping every derived value shares: each is set with the reason it is null, when it is.
class Deriver {
 public:
  explicit Deriver(CounterSet& m) : m_(m) {}

  std::optional<double> value(const char* raw) const {
    const auto it = m_.values.find(raw);
    if (it == m_.values.end()) return std::nullopt;
    return it->second;
  }

  // Sets `key` when every input exists, else null with the first missing input as the reason.
  void set(const std::string& key, std::optional<double> result, const std::string& missing_reason) {
    m_.derived[key] = result;
    if (!result) m_.derived_reasons[key] = missing_reason;
  }

  // The profiler's own reason when it refused the metric (CounterSet::missing), so a reading that a
  // device lacks says which metric and why.
  std::string notCollected(const char* raw) const {
    const auto why = m_.missing.find(raw);
    return std::string(raw) + " was not collected" + (why != m_.missing.end() ? ": " + why->second : "");
  }

  // The reason names the first input missing.
  std::string firstNotCollected(const char* a, const char* b) const { return notCollected(value(a) ? b : a); }

  std::optional<double> sum(const char* a, const char* b) const {
    if (!value(a) || !value(b)) return std::nullopt;
    return *value(a) + *value(b);
  }

  void ratio(const std::string& key, std::optional<double> num, std::optional<double> den,
             const std::string& missing_reason, const std::string& zero_reason) {
    if (!num || !den) return set(key, std::nullopt, missing_reason);
    if (*den == 0) return set(key, std::nullopt, zero_reason);
    set(key, *num / *den, "");
  }

  // A percentage the profiler computed is null when the access it measures never happened (CUPTI
  // then divides 0 by 0).
  void percentage(const std::string& key, const char* raw, std::optional<double> accesses,
                  const std::string& no_access_reason) {
    if (!value(raw)) return set(key, std::nullopt, notCollected(raw));
    if ((accesses && *accesses == 0) || !std::isfinite(*value(raw))) return set(key, std::nullopt, no_access_reason);
    set(key, value(raw), "");
  }

 private:
  CounterSet& m_;
};

// The work and traffic the roofline places a kernel by, with the rates over the bridged time `ns`.
void deriveWorkAndTraffic(Deriver& d, std::optional<double> ns) {
  std::optional<double> flops;
  if (d.value(kFadd) && d.value(kFmul) && d.value(kFfma))
    flops = *d.value(kFadd) + *d.value(kFmul) + 2 * *d.value(kFfma);
  d.set("fp32_flops", flops, "an FP32 instruction counter was not collected");
  d.set("dram_bytes_read", d.value(kDramRead), d.notCollected(kDramRead));
  d.set("dram_bytes_write", d.value(kDramWrite), d.notCollected(kDramWrite));
  const std::optional<double> dram_bytes = d.sum(kDramRead, kDramWrite);
  d.set("dram_bytes", dram_bytes, "a DRAM byte counter was not collected");
  d.set("l2_bytes", d.value(kL2Bytes), d.notCollected(kL2Bytes));
  d.ratio("fp32_flops_per_dram_byte", flops, dram_bytes, "FP32 FLOPs or DRAM bytes were not collected",
          "no DRAM traffic: the data stayed in cache");
  d.ratio("warp_instructions_per_dram_byte", d.value(kWarpInstructions), dram_bytes,
          "instructions or DRAM bytes were not collected", "no DRAM traffic: the data stayed in cache");
  d.ratio("global_load_sectors_per_request", d.value(kGlobalLoadSectors), d.value(kGlobalLoadRequests),
          "global load sectors or requests were not collected", "no global loads");
  d.ratio("global_store_sectors_per_request", d.value(kGlobalStoreSectors), d.value(kGlobalStoreRequests),
          "global store sectors or requests were not collected", "no global stores");
  d.set("shared_wavefronts", d.sum(kSharedLoadWavefronts, kSharedStoreWavefronts),
        "a shared-memory wavefront counter was not collected");
  // A sector is 32 bytes; a shared-memory wavefront one pass of the 32 four-byte banks (128 bytes):
  // the bytes each data path carried, for the L1 and local levels of the hierarchical roofline.
  const std::optional<double> global_sectors = d.sum(kGlobalLoadSectors, kGlobalStoreSectors);
  d.set("l1_global_bytes", global_sectors ? std::optional<double>(*global_sectors * 32) : std::nullopt,
        "global load or store sectors were not collected");
  const std::optional<double> shared_wavefronts = d.sum(kSharedLoadWavefronts, kSharedStoreWavefronts);
  d.set("shared_bytes",
        shared_wavefronts ? std::optional<double>(*shared_wavefronts * kSharedWavefrontBytes) : std::nullopt,
        "a shared-memory wavefront counter was not collected");
  d.set("shared_bank_conflicts", d.sum(kSharedLoadConflicts, kSharedStoreConflicts),
        "a shared-memory bank conflict counter was not collected");
  d.set("achieved_occupancy_pct", d.value(kAchievedOccupancy), d.notCollected(kAchievedOccupancy));
  d.set("issue_slots_busy_pct", d.value(kIssueActive), d.notCollected(kIssueActive));
  std::optional<double> clock_mhz;
  if (d.value(kSmClock)) clock_mhz = *d.value(kSmClock) / 1e6;
  d.set("sm_clock_mhz", clock_mhz, d.notCollected(kSmClock));

  // FLOP per ns is GFLOP/s; byte per ns is GB/s.
  d.ratio("fp32_gflops", flops, ns, "FP32 FLOPs or the bridged time are missing", "the bridged time was 0 ns");
  d.ratio("dram_gbps", dram_bytes, ns, "DRAM bytes or the bridged time are missing", "the bridged time was 0 ns");
}

// The course's profiler readings.
void deriveProfilerReadings(Deriver& d) {
  std::optional<double> divergent_pct;
  if (d.value(kDivergentBranchTargets)) divergent_pct = 100 * *d.value(kDivergentBranchTargets);
  d.ratio("branch_divergence_pct", divergent_pct, d.value(kBranchTargets),
          d.firstNotCollected(kBranchTargets, kDivergentBranchTargets), "no branches");
  std::optional<double> replays;  // issued - executed
  if (d.value(kWarpInstructionsIssued) && d.value(kWarpInstructions))
    replays = *d.value(kWarpInstructionsIssued) - *d.value(kWarpInstructions);
  d.ratio("instruction_replay_overhead", replays, d.value(kWarpInstructions),
          d.firstNotCollected(kWarpInstructions, kWarpInstructionsIssued), "no instructions executed");
  d.percentage("global_load_efficiency_pct", kGlobalLoadEfficiency, d.value(kGlobalLoadRequests), "no global loads");
  d.percentage("global_store_efficiency_pct", kGlobalStoreEfficiency, d.value(kGlobalStoreRequests),
               "no global stores");
  d.percentage("l1_hit_rate_pct", kL1HitRate, std::nullopt, "no L1/TEX sector lookups");
  d.percentage("l2_hit_rate_pct", kL2HitRate, d.value(kL2Bytes), "no L2 traffic");
  const std::optional<double> shared_instructions = d.sum(kSharedLoadInstructions, kSharedStoreInstructions);
  d.ratio("shared_bank_conflicts_per_access", d.sum(kSharedLoadConflicts, kSharedStoreConflicts), shared_instructions,
          shared_instructions ? "a shared-memory bank conflict counter was not collected"
                              : "a shared-memory instruction counter was not collected",
          "no shared-memory accesses");
  const std::optional<double> dram_bytes = d.sum(kDramRead, kDramWrite);
  d.ratio("warp_instructions_per_dram_transaction", d.value(kWarpInstructions),
          dram_bytes ? std::optional<double>(*dram_bytes / kDramSectorBytes) : std::nullopt,
          d.value(kWarpInstructions) ? "a DRAM byte counter was not collected" : d.notCollected(kWarpInstructions),
          "no DRAM traffic: the data stayed in cache");
}

}  // namespace

void deriveCounterValues(CounterSet& m) {
  m.derived.clear();
  m.derived_reasons.clear();
  Deriver d(m);
  std::optional<double> ns;
  if (m.bridged_kernel_ns) ns = static_cast<double>(*m.bridged_kernel_ns);
  deriveWorkAndTraffic(d, ns);
  deriveProfilerReadings(d);
  deriveInstructionRoofline(
      m, [&](const char* raw) { return d.value(raw); }, ns);
}

CounterSet unavailableMeasurement(std::string reason) {
  CounterSet m;
  m.reason = std::move(reason);
  return m;
}

}  // namespace rooflab::counters
