// A verdict's names, as results files spell them.
#include "analyzer/data/mutation_verdict.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<MutationReading> kMutationReadingNames[] = {
    {MutationReading::memory_bound, "memory-bound"},
    {MutationReading::compute_bound, "compute-bound"},
    {MutationReading::balanced, "balanced"},
    {MutationReading::latency_bound, "latency-bound"},
    {MutationReading::memory_leaning, "memory-leaning"},
    {MutationReading::compute_leaning, "compute-leaning"},
    {MutationReading::overhead_dominated, "overhead-dominated"},
    {MutationReading::unknown, "unknown"},
};

std::string toString(MutationReading reading) { return nameOf(kMutationReadingNames, reading); }

std::optional<MutationReading> parseMutationReading(std::string_view text) {
  return valueOf(kMutationReadingNames, text);
}

constexpr EnumName<MutantOrigin> kMutantOriginNames[] = {
    {MutantOrigin::annotated, "annotated"},
    {MutantOrigin::automatic, "automatic"},
};

std::string toString(MutantOrigin origin) { return nameOf(kMutantOriginNames, origin); }

std::optional<MutantOrigin> parseMutantOrigin(std::string_view text) { return valueOf(kMutantOriginNames, text); }

constexpr EnumName<ConstructionBasis> kConstructionBasisNames[] = {
    {ConstructionBasis::annotations, "annotations"},
    {ConstructionBasis::source_counts, "source-counts"},
};

std::string toString(ConstructionBasis basis) { return nameOf(kConstructionBasisNames, basis); }

std::optional<ConstructionBasis> parseConstructionBasis(std::string_view text) {
  return valueOf(kConstructionBasisNames, text);
}

constexpr EnumName<MutationNoteKind> kMutationNoteKindNames[] = {
    {MutationNoteKind::original_did_not_run, "original-did-not-run"},
    {MutationNoteKind::mutant_occupancy, "mutant-occupancy"},
    {MutationNoteKind::mutant_did_not_run, "mutant-did-not-run"},
    {MutationNoteKind::mutant_same_as_original, "mutant-same-as-original"},
    {MutationNoteKind::traffic_differs, "traffic-differs"},
    {MutationNoteKind::flops_differ, "flops-differ"},
    {MutationNoteKind::above_compute_roof, "above-compute-roof"},
    {MutationNoteKind::above_memory_roof, "above-memory-roof"},
    {MutationNoteKind::needs_both_mutants, "needs-both-mutants"},
    {MutationNoteKind::mutant_slower, "mutant-slower"},
    {MutationNoteKind::mutant_far_slower, "mutant-far-slower"},
    {MutationNoteKind::kernel_too_short, "kernel-too-short"},
    {MutationNoteKind::no_overlap, "no-overlap"},
};

std::string toString(MutationNoteKind kind) { return nameOf(kMutationNoteKindNames, kind); }

std::optional<MutationNoteKind> parseMutationNoteKind(std::string_view text) {
  return valueOf(kMutationNoteKindNames, text);
}

}  // namespace rooflab
