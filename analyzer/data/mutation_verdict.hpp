#pragma once
// A mutation verdict and its mutants' validation, as typed values; diagnose/mutation_verdict.hpp
// reads them from the records.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// Margins of the verdict, as fractions of t. Named so the report can state them.
struct VerdictMargins {
  double near = 0.80;                        // a mutant "takes about as long as the whole" when t_x >= near x t
  double sum_tolerance = 0.20;               // latency-bound: |t - (t_mem + t_comp)| <= sum_tolerance x t
  double min_kernel_ns_per_resolution = 20;  // under this many timer ticks, overhead dominates
  double min_kernel_ns = 10000;              // or under 10 us: launch ramp-up and tail dominate the kernel time
  double counter_tolerance = 0.05;           // a mutant's FLOPs / memory sectors within 5% of the original's
  // A mutant removes a part of the kernel's work: it may take about as long as the whole (a bound)
  // or a little longer from noise and small differences in the code the compiler makes (over 1.2x
  // is noted as doubtful), but over 1.5x the original's time a part would cost half the whole again,
  // which no removal explains: the mutant is another program, whose time says how the rewrite changed
  // the compiled code (vectorisation on a CPU, registers and occupancy on a GPU), not what bounds the
  // kernel, and it gives no verdict.
  double far_slower = 1.5;
};

// The mutant whose time is far outside what removing a part of the kernel can explain
// (VerdictMargins::far_slower): the reason a verdict was not given.
struct SlowerMutant {
  std::string mode;           // "memory-only" | "compute-only"
  double times_original = 0;  // its median time over the original's
};

// The reading of t, t_mem and t_comp (docs/results-schema.md, the record's `mutation`).
enum class MutationReading {
  memory_bound,        // t_mem ~ t
  compute_bound,       // t_comp ~ t
  balanced,            // both ~ t: optimise both
  latency_bound,       // t ~ t_mem + t_comp: traffic and computation do not overlap
  memory_leaning,      // neither ~ t, t_mem the larger
  compute_leaning,     // neither ~ t, t_comp the larger
  overhead_dominated,  // too short for any reading
  unknown,             // a time is missing or a mutant failed validation
};
std::string toString(MutationReading reading);  // "memory-bound", ...
std::optional<MutationReading> parseMutationReading(std::string_view text);

// How a mutant was made: from the kernel's RL_LOAD / RL_STORE annotations, or by rewriting its
// unannotated source (mutators/auto_mutation.hpp). Annotations win where a kernel has them.
enum class MutantOrigin { annotated, automatic };
std::string toString(MutantOrigin origin);  // "annotated" | "automatic"
std::optional<MutantOrigin> parseMutantOrigin(std::string_view text);

// Global bytes per run of a point, from the buffers a program's accesses reach: each element of a
// buffer counted once per launch that reads (or writes) it, so at most the compulsory traffic.
struct TrafficBytes {
  std::string kernel;  // a launch's kernel; empty for the point's total
  double loads = 0;    // the buffers the original's global loads read
  double kept_loads =
      0;              // of those, the buffers the mutant's loads read (compute-only: its kept loads; memory-only: all)
  double stores = 0;  // the buffers its global stores and atomics write
};

// An automatic mutant's check on its source: the quantity it must keep, counted once per access or
// operation as written, in the original's source and in the mutant's.
struct MutantSourceCheck {
  std::string quantity;  // "global loads, stores and atomics" (memory-only), "floating-point and integer operations"
                         // (compute-only)
  int original = 0;
  int mutant = 0;
  // compute-only: the global loads it keeps because their values decide addresses, branches, loop
  // bounds or divisors (a made-up value may not steer them), of all the original's global loads.
  int kept_global_loads = 0;
  int global_loads = 0;
  // The bytes behind the accesses at the point's sizes: the total and each launch's; absent where
  // an access reaches memory through a pointer the rewriter did not trace to a kernel argument
  // (`bytes_unknown` says which) and in files written before they were recorded.
  std::optional<TrafficBytes> bytes;
  std::vector<TrafficBytes> launch_bytes;
  std::string bytes_unknown;
  // memory-only: why the mutant is the kernel as written (nothing to remove); empty otherwise.
  std::string same_as_original;
};

// A count taken on the original and on its mutant.
struct CountedPair {
  double original = 0;
  double mutant = 0;
};

// An automatic compute-only mutant's kept global loads (MutantSourceCheck): how many of the
// original's, and the bytes their buffers hold, each element counted once a launch, when known.
struct KeptGlobalLoads {
  int kept = 0;
  int of = 0;
  std::optional<double> bytes;     // the buffers the kept loads read
  std::optional<double> of_bytes;  // the buffers all the original's loads read
};

// What vouches for a mutant that no counter confirmed (no counters on the device).
enum class ConstructionBasis {
  annotations,    // made from the kernel's annotations: every annotated access or operation kept by construction
  source_counts,  // made by rewriting the source: its rewriter counted the accesses or operations in both sources
};
std::string toString(ConstructionBasis basis);  // "annotations" | "source-counts"
std::optional<ConstructionBasis> parseConstructionBasis(std::string_view text);

// How a mutant was confirmed to do what it should before its time is used.
struct MutantValidation {
  enum class Method { counters, construction };
  Method by = Method::construction;
  // What was compared ("FP32 FLOPs", "global memory sectors (load + store)", ...): a name. A file
  // written by schema 1 may carry the extra counts below in it as text.
  std::string quantity;
  std::optional<double> original;  // the quantity on the original (by counters)
  std::optional<double> mutant;    // the quantity on the mutant (by counters)
  bool valid = true;
  // By counters, compute-only, where the run counted them: FP64 instructions; integer instructions (a
  // kernel without floating-point work); global load sectors (an automatic mutant, which reads only
  // the loads it keeps: kept_global_loads says which).
  std::optional<CountedPair> fp64_instructions;
  std::optional<CountedPair> integer_instructions;
  std::optional<CountedPair> global_load_sectors;
  std::optional<KeptGlobalLoads> kept_global_loads;
  std::optional<ConstructionBasis> construction;  // by construction: what vouches for the mutant
  std::optional<std::string> note_as_saved;       // the note as a schema-1 results file wrote it
};

// A mutant's occupancy padding as the verdict summarises it (the whole story is the mutant's
// OccupancyMatch).
struct MutantOccupancy {
  bool padded = false;
  std::size_t pad_bytes = 0;  // over all of its launches
  bool matched = true;        // every launch matched the original
};

// One value per mutant; a mutant that was not run (or not looked at) has none.
template <class T>
struct PerMutant {
  std::optional<T> memory_only;
  std::optional<T> compute_only;
};

// What a verdict's note says: why a mutant's time is not used, why there is no verdict, or what to
// keep in mind reading it.
enum class MutationNoteKind {
  original_did_not_run,     // nothing to compare
  mutant_occupancy,         // quoted: what occupancy padding said about the mutant (its OccupancyMatch)
  mutant_did_not_run,       // quoted: the mutant record's status reason
  mutant_same_as_original,  // quoted: why the automatic memory-only mutant is the kernel as written
  traffic_differs,          // the memory-only mutant failed validation: its time is not used
  flops_differ,             // the compute-only mutant failed validation: its time is not used
  above_compute_roof,       // the compute-only mutant runs the kernel's FLOPs above the compute roof: work lost
  above_memory_roof,        // the memory-only mutant moves its bytes over 4x the fastest roof: traffic lost
  needs_both_mutants,       // a time is missing: no verdict
  mutant_slower,            // a mutant over 1.2x the original's time: the reading is doubtful
  mutant_far_slower,        // a mutant over far_slower x the original's time: no verdict
  kernel_too_short,         // the original runs under the floor: overhead-dominated
  no_overlap,               // latency-bound: traffic and computation do not overlap
};
std::string toString(MutationNoteKind kind);  // "original-did-not-run", ...
std::optional<MutationNoteKind> parseMutationNoteKind(std::string_view text);

// One note of a verdict: its kind and the figures and names it quotes (each only for the kinds the
// comment names); reports/text/mutation_sentences.hpp says it in words.
struct MutationNote {
  MutationNoteKind kind = MutationNoteKind::needs_both_mutants;
  std::string mutant;                        // the mutant it is about, "memory-only" | "compute-only"; empty for none
  std::string quoted;                        // mutant_occupancy, mutant_did_not_run, mutant_same_as_original
  std::optional<double> times_original;      // mutant_slower, mutant_far_slower: its median time over the original's
  std::optional<double> far_slower;          // mutant_far_slower: VerdictMargins::far_slower
  std::optional<double> flops;               // above_compute_roof: the kernel's FLOPs
  std::optional<double> mutant_gflops;       // above_compute_roof: those FLOPs in the mutant's time
  std::optional<double> roof_gflops;         // above_compute_roof: the device's compute roof
  std::optional<double> bytes;               // above_memory_roof: the bytes it must move at least
  std::optional<double> mutant_gbps;         // above_memory_roof: those bytes in the mutant's time
  std::optional<double> roof_gbps;           // above_memory_roof: the device's fastest memory roof
  std::string roof_level;                    // above_memory_roof: that roof's level ("local memory", "L2", "DRAM")
  std::optional<double> original_gbps;       // above_memory_roof: those bytes in the original's time
  std::optional<double> t_ns;                // kernel_too_short: the original's median time
  std::optional<double> floor_ns;            // kernel_too_short: the time under which overhead dominates
  std::optional<std::string> text_as_saved;  // the note as a schema-1 results file wrote it
};

// The "mutation" object of a normal record.
struct MutationVerdict {
  MutationReading verdict = MutationReading::unknown;
  std::optional<double> t_ns;                     // the original's median kernel time
  std::optional<double> t_mem_ns;                 // nullopt when the memory-only mutant did not run or is not valid
  std::optional<double> t_comp_ns;                // likewise for the compute-only mutant
  std::optional<double> speedup_if_memory_free;   // t / t_comp
  std::optional<double> speedup_if_compute_free;  // t / t_mem
  VerdictMargins margins;
  PerMutant<MutantValidation> validation;
  // Set once the original ran (nothing to compare before): what padding did for each mutant.
  std::optional<PerMutant<MutantOccupancy>> occupancy;
  // Set when a mutant ran over margins.far_slower x t: the verdict is then unknown.
  std::optional<SlowerMutant> slower_mutant;
  // The device that ran them is a CPU, whose OpenCL compiler vectorises across work items: what
  // makes a mutant slower than its original there is not what makes it slower on a GPU.
  bool cpu_device = false;
  std::vector<MutationNote> notes;
};

}  // namespace rooflab
