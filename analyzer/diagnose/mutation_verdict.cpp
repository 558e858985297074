#include "analyzer/diagnose/mutation_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "analyzer/data/counter_metrics.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

namespace {

// A value the results would write as null (not finite) is no measurement.
std::optional<double> finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<double> medianNs(const RunRecord* record) {
  if (!record || record->status != RecordStatus::ok || !record->timings) return std::nullopt;
  return finite(record->timings->kernel_ns.median);
}

std::optional<double> derivedCounter(const RunRecord& record, const char* key) {
  const counters::CounterSet& c = record.counters;
  if (!c.available) return std::nullopt;
  const auto found = c.derived.find(key);
  if (found == c.derived.end() || !found->second) return std::nullopt;
  return finite(*found->second);
}

std::optional<double> rawCounterSum(const RunRecord& record, std::initializer_list<const char*> keys) {
  const counters::CounterSet& c = record.counters;
  if (!c.available) return std::nullopt;
  double sum = 0;
  for (const char* key : keys) {
    const auto found = c.values.find(key);
    if (found == c.values.end() || !std::isfinite(found->second)) return std::nullopt;
    sum += found->second;
  }
  return sum;
}

// The loads an automatic compute-only mutant keeps, as its validation quotes them.
KeptGlobalLoads keptGlobalLoads(const MutantSourceCheck& check) {
  KeptGlobalLoads kept;
  kept.kept = check.kept_global_loads;
  kept.of = check.global_loads;
  if (check.bytes) {
    kept.bytes = check.bytes->kept_loads;
    kept.of_bytes = check.bytes->loads;
  }
  return kept;
}

bool within(double a, double b, double tolerance) {
  if (a == b) return true;
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

// A mutant is used only when the counters confirm it does what it should (or, without counters,
// when it was built from annotations, which keep every annotated load/store or FLOP by construction).
MutantValidation validate(const RunRecord& normal, const RunRecord& mutant, bool memory_only, const VerdictMargins& m) {
  MutantValidation v;
  std::optional<double> original, mutated;
  if (memory_only) {
    // L1-level global sectors, not DRAM bytes: DRAM traffic of a small working set depends on what
    // the previous run left in L2, while the sectors a kernel requests do not.
    const std::initializer_list<const char*> sectors = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
    original = rawCounterSum(normal, sectors);
    mutated = rawCounterSum(mutant, sectors);
    v.quantity = "global memory sectors (load + store)";
  } else {
    original = derivedCounter(normal, "fp32_flops");
    mutated = derivedCounter(mutant, "fp32_flops");
    v.quantity = "FP32 FLOPs";
  }
  if (original && mutated) {
    v.by = MutantValidation::Method::counters;
    v.original = original;
    v.mutant = mutated;
    v.valid = within(*original, *mutated, m.counter_tolerance);
    if (!memory_only) {
      // Where the run also counted them (ROOFLAB_EXTRA_METRICS): FP64 instructions kept within the
      // tolerance, and, in a kernel without floating-point work (its work is integer), integer
      // instructions not fewer (the made-up values add a few of their own). With floating-point work
      // the integer count is mostly addressing, part of which a guarded store rightly skips.
      const std::initializer_list<const char*> fp64 = {counters::kDadd, counters::kDmul, counters::kDfma};
      const auto fp64_original = rawCounterSum(normal, fp64), fp64_mutant = rawCounterSum(mutant, fp64);
      if (fp64_original && fp64_mutant && (*fp64_original > 0 || *fp64_mutant > 0)) {
        v.fp64_instructions = CountedPair{*fp64_original, *fp64_mutant};
        v.valid = v.valid && within(*fp64_original, *fp64_mutant, m.counter_tolerance);
      }
      const std::initializer_list<const char*> integer = {counters::kIntegerInstructions};
      const auto int_original = rawCounterSum(normal, integer), int_mutant = rawCounterSum(mutant, integer);
      const bool floating_work = *original > 0 || (fp64_original && *fp64_original > 0);
      if (int_original && int_mutant && *int_original > 0 && !floating_work) {
        v.integer_instructions = CountedPair{*int_original, *int_mutant};
        v.valid = v.valid && *int_mutant >= (1 - m.counter_tolerance) * *int_original;
      }
      // An automatic mutant reads only the loads it keeps (their values decide addresses, branches,
      // bounds or divisors): its global load sectors are at most the original's, and about none
      // when it keeps no load; more is traffic a made-up load should have removed.
      if (mutant.mutant_source_check) {
        const auto& check = *mutant.mutant_source_check;
        const std::initializer_list<const char*> loads = {counters::kGlobalLoadSectors};
        const auto ld_original = rawCounterSum(normal, loads), ld_mutant = rawCounterSum(mutant, loads);
        if (ld_original && ld_mutant) {
          v.global_load_sectors = CountedPair{*ld_original, *ld_mutant};
          v.kept_global_loads = keptGlobalLoads(check);
          const double allowed =
              (check.kept_global_loads > 0 ? 1 + m.counter_tolerance : m.counter_tolerance) * *ld_original;
          v.valid = v.valid && *ld_mutant <= allowed;
        }
      }
    }
    return v;
  }
  v.by = MutantValidation::Method::construction;
  if (mutant.mutant_source_check) {
    // An automatic mutant: its rewriter counted the quantity in both sources and made it only when they agree.
    const MutantSourceCheck& check = *mutant.mutant_source_check;
    v.quantity = check.quantity + " in the source";
    v.original = check.original;
    v.mutant = check.mutant;
    v.valid = check.original == check.mutant;
    v.construction = ConstructionBasis::source_counts;
    if (check.kept_global_loads > 0) v.kept_global_loads = keptGlobalLoads(check);
    return v;
  }
  v.quantity = memory_only ? "annotated global loads and stores" : "annotated arithmetic";
  v.valid = true;
  v.construction = ConstructionBasis::annotations;
  return v;
}

// What occupancy padding did for a mutant (OccupancyMatch), in one line per mutant.
MutantOccupancy summarise(const OccupancyMatch& padding) {
  MutantOccupancy summary;
  summary.padded = padding.padded;
  for (const LaunchOccupancyMatch& launch : padding.launches) {
    summary.matched = summary.matched && launch.matched;
    summary.pad_bytes += launch.pad_bytes;
  }
  return summary;
}

// The bytes a memory-only mutant must move at least: the family's declared (compulsory) bytes, or
// the bytes of the buffers its accesses reach when those are fewer (a declaration can be wrong).
std::optional<double> bytesToMove(const RunRecord& normal, const RunRecord& memory_only) {
  std::optional<double> bytes;
  if (std::isfinite(normal.work.bytes) && normal.work.bytes > 0) bytes = normal.work.bytes;
  if (const auto& check = memory_only.mutant_source_check; check && check->bytes) {
    const double reached = check->bytes->loads + check->bytes->stores;
    if (reached > 0) bytes = bytes ? std::min(*bytes, reached) : reached;
  }
  return bytes;
}

// The memory-only collapse check, on any device: the mutant keeps every global access, so it moves
// at least the bytes it must move, and no faster than the device's fastest memory level allows. A
// mutant is judged collapsed only when it beats both that roof and the original's own rate by 4x:
// the bytes are an estimate, a CPU's timings and measured roofs vary 2-4x between runs (a roof
// measured while other processes ran can sit below what the original itself achieved), while a
// compiler that drops the traffic leaves a kernel that runs at launch overhead. A memory-bound
// kernel's mutant runs about as fast as the original, so it is never judged collapsed.
std::optional<MutationNote> memoryCollapse(const RunRecord& normal, const RunRecord& memory_only, double t_ns,
                                           double t_mem_ns, const MemoryRoof& roof) {
  constexpr double kAbove = 4;
  const auto bytes = bytesToMove(normal, memory_only);
  if (!bytes || roof.gbps <= 0 || t_mem_ns <= 0 || t_ns <= 0) return std::nullopt;
  const double gbps = *bytes / t_mem_ns, original_gbps = *bytes / t_ns;
  if (gbps <= kAbove * roof.gbps || gbps <= kAbove * original_gbps) return std::nullopt;
  MutationNote note;
  note.kind = MutationNoteKind::above_memory_roof;
  note.mutant = "memory-only";
  note.bytes = *bytes;
  note.mutant_gbps = gbps;
  note.roof_gbps = roof.gbps;
  note.roof_level = roof.level;
  note.original_gbps = original_gbps;
  return note;
}

MutationNote noteOf(MutationNoteKind kind, std::string mutant = "", std::string quoted = "") {
  MutationNote note;
  note.kind = kind;
  note.mutant = std::move(mutant);
  note.quoted = std::move(quoted);
  return note;
}

}  // namespace

std::optional<MemoryRoof> fastestMemoryRoof(const DeviceModel& model) {
  std::optional<MemoryRoof> fastest;
  for (const auto& [gbps, level] : {std::pair<std::optional<double>, const char*>{model.dram_gbps, "DRAM"},
                                    {model.l2_gbps, "L2"},
                                    {model.local_gbps, "local memory"}})
    if (gbps && std::isfinite(*gbps) && *gbps > 0 && (!fastest || *gbps > fastest->gbps))
      fastest = MemoryRoof{*gbps, level};
  return fastest;
}

namespace {

// What the mutants' own runs say beside their times: the parallelism they ran at, why one did not run,
// and an automatic memory-only mutant that came out the same as its original.
void noteMutantRuns(MutationVerdict& out, const RunRecord* memory_only, const RunRecord* compute_only) {
  auto& notes = out.notes;
  // A mutant left at another parallelism than the original's is still used, with the reason in the notes.
  PerMutant<MutantOccupancy>& occupancy = out.occupancy.emplace();
  for (const auto& [name, mutant, summary] :
       {std::tuple<const char*, const RunRecord*, std::optional<MutantOccupancy>*>{"memory-only", memory_only,
                                                                                   &occupancy.memory_only},
        {"compute-only", compute_only, &occupancy.compute_only}}) {
    if (!mutant || !mutant->occupancy_padding) continue;
    *summary = summarise(*mutant->occupancy_padding);
    for (const std::string& note : mutant->occupancy_padding->notes)
      notes.push_back(noteOf(MutationNoteKind::mutant_occupancy, name, note));
  }
  for (const auto& [name, mutant] :
       {std::pair<const char*, const RunRecord*>{"memory-only", memory_only}, {"compute-only", compute_only}})
    if (mutant && mutant->status != RecordStatus::ok && !mutant->status_reason.empty())
      notes.push_back(noteOf(MutationNoteKind::mutant_did_not_run, name, mutant->status_reason));
  if (memory_only && memory_only->mutant_source_check && !memory_only->mutant_source_check->same_as_original.empty())
    notes.push_back(noteOf(MutationNoteKind::mutant_same_as_original, "memory-only",
                           memory_only->mutant_source_check->same_as_original));
}

// The mutants' times that can stand in the verdict: each mutant checked against its original's work
// (counters or declared work) and against the device's roofs; a time that fails either is dropped,
// with the reason in the notes.
std::pair<std::optional<double>, std::optional<double>> usableMutantTimes(MutationVerdict& out, const RunRecord& normal,
                                                                          const RunRecord* memory_only,
                                                                          const RunRecord* compute_only, double t,
                                                                          std::optional<double> compute_roof_gflops,
                                                                          std::optional<MemoryRoof> memory_roof) {
  const VerdictMargins& m = out.margins;
  auto& notes = out.notes;
  std::optional<double> t_mem = medianNs(memory_only), t_comp = medianNs(compute_only);
  if (memory_only && t_mem) {
    out.validation.memory_only = validate(normal, *memory_only, true, m);
    if (!out.validation.memory_only->valid) {
      notes.push_back(noteOf(MutationNoteKind::traffic_differs, "memory-only"));
      t_mem.reset();
    }
  }
  if (compute_only && t_comp) {
    out.validation.compute_only = validate(normal, *compute_only, false, m);
    if (!out.validation.compute_only->valid) {
      notes.push_back(noteOf(MutationNoteKind::flops_differ, "compute-only"));
      t_comp.reset();
    }
  }
  // The collapse check, on any device: the kernel's FLOPs in the compute-only mutant's time may not
  // beat the device's compute roof (caches can explain bytes above a memory roof, nothing FLOPs).
  // Half again above it: a CPU's timings vary 2-4x between runs, and a compiler that drops work
  // drops most of it.
  constexpr double kAboveRoof = 1.5;
  if (t_comp && compute_roof_gflops && *compute_roof_gflops > 0 && normal.work.flops > 0) {
    const double gflops = normal.work.flops / *t_comp;
    if (gflops > kAboveRoof * *compute_roof_gflops) {
      MutationNote& note = notes.emplace_back(noteOf(MutationNoteKind::above_compute_roof, "compute-only"));
      note.flops = normal.work.flops;
      note.mutant_gflops = gflops;
      note.roof_gflops = *compute_roof_gflops;
      out.validation.compute_only->valid = false;
      t_comp.reset();
    }
  }
  if (t_mem && memory_roof)
    if (const auto collapse = memoryCollapse(normal, *memory_only, t, *t_mem, *memory_roof)) {
      notes.push_back(*collapse);
      out.validation.memory_only->valid = false;
      t_mem.reset();
    }
  return {t_mem, t_comp};
}

}  // namespace

MutationVerdict analyseMutation(const RunRecord& normal, const RunRecord* memory_only, const RunRecord* compute_only,
                                double timer_resolution_ns, const VerdictMargins& m,
                                std::optional<double> compute_roof_gflops, std::optional<MemoryRoof> memory_roof,
                                bool cpu_device) {
  MutationVerdict out;
  out.margins = m;
  out.cpu_device = cpu_device;
  auto& notes = out.notes;
  const auto t = medianNs(&normal);
  if (!t || *t <= 0) {
    notes.push_back(noteOf(MutationNoteKind::original_did_not_run));
    return out;
  }
  out.t_ns = *t;
  noteMutantRuns(out, memory_only, compute_only);
  auto [t_mem, t_comp] =
      usableMutantTimes(out, normal, memory_only, compute_only, *t, compute_roof_gflops, memory_roof);
  out.t_mem_ns = t_mem;
  out.t_comp_ns = t_comp;
  if (!t_mem || !t_comp) {
    notes.push_back(noteOf(MutationNoteKind::needs_both_mutants));
    return out;
  }
  out.speedup_if_memory_free = *t / *t_comp;
  out.speedup_if_compute_free = *t / *t_mem;

  for (const auto& [name, tx] : {std::pair<const char*, double>{"memory-only", *t_mem}, {"compute-only", *t_comp}}) {
    const double times = tx / *t;
    if (times > m.far_slower && (!out.slower_mutant || times > out.slower_mutant->times_original))
      out.slower_mutant = SlowerMutant{name, times};
    else if (times > 1.2) notes.emplace_back(noteOf(MutationNoteKind::mutant_slower, name)).times_original = times;
  }
  if (out.slower_mutant) {
    MutationNote& note = notes.emplace_back(noteOf(MutationNoteKind::mutant_far_slower, out.slower_mutant->mode));
    note.times_original = out.slower_mutant->times_original;
    note.far_slower = m.far_slower;
    return out;
  }
  const double floor_ns = std::max(m.min_kernel_ns, m.min_kernel_ns_per_resolution * timer_resolution_ns);
  if (*t < floor_ns) {
    out.verdict = MutationReading::overhead_dominated;
    MutationNote& note = notes.emplace_back(noteOf(MutationNoteKind::kernel_too_short));
    note.t_ns = *t;
    note.floor_ns = floor_ns;
    return out;
  }
  // The reading: both ~ total: optimise both; one ~ total: bound by it; total ~ sum:
  // latency-bound (traffic and computation do not overlap); otherwise the larger one leads.
  const bool mem_near = *t_mem >= m.near * *t, comp_near = *t_comp >= m.near * *t;
  if (mem_near && comp_near) out.verdict = MutationReading::balanced;
  else if (mem_near) out.verdict = MutationReading::memory_bound;
  else if (comp_near) out.verdict = MutationReading::compute_bound;
  else if (std::fabs(*t - (*t_mem + *t_comp)) <= m.sum_tolerance * *t) out.verdict = MutationReading::latency_bound;
  else if (*t_mem >= *t_comp) out.verdict = MutationReading::memory_leaning;
  else out.verdict = MutationReading::compute_leaning;
  if (out.verdict == MutationReading::latency_bound) notes.push_back(noteOf(MutationNoteKind::no_overlap));
  return out;
}

}  // namespace rooflab
