#pragma once
// A mutation verdict's notes and its mutants' validation in words, as the reports and the diagnosis
// quote them. An item read from a schema-1 results file is said as that file saved it.
#include <optional>
#include <string>

#include "analyzer/data/mutation_verdict.hpp"

namespace rooflab::reports {

// One note of a verdict: "the compute-only mutant runs 1.35x longer than the original: ...".
// `cpu_device`: the device that ran the mutants is a CPU (MutationVerdict::cpu_device), which says
// why a mutant runs slower than its original.
std::string mutationNoteText(const MutationNote& note, bool cpu_device);

// What a validation compared, with the extra counts it took: "FP32 FLOPs, FP64 instructions 5000 ->
// 5000, global load sectors 1000 -> 400 (it keeps 2 of the 6 global loads (...))".
std::string mutantValidationQuantityText(const MutantValidation& validation);

// Why construction had to do for a mutant (no counters on the device); nullopt when counters confirmed it.
std::optional<std::string> mutantValidationNoteText(const MutantValidation& validation);

// Why a mutant's code runs slower than its original on this kind of device: "on a CPU device,
// typically lost vectorisation across work items", or the GPU's reasons.
std::string slowerMutantCauseText(bool cpu_device);

}  // namespace rooflab::reports
