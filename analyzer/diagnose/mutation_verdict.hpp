#pragma once
// The course's "code mutilation" reading of one variant: from the times of the whole kernel (t), its
// memory-only mutant (t_mem) and its compute-only mutant (t_comp), what bounds it and what an
// optimisation could still win. Works on typed records: a batch's, or a results file's read back.
#include "analyzer/data/mutation_verdict.hpp"

namespace rooflab {

struct RunRecord;

// `normal`, `memory_only` and `compute_only` are the records of one (family, variant, params). Either
// mutant may be null (not run or not annotated). `compute_roof_gflops`, the device's roof for the
// kernel's arithmetic when known: a compute-only mutant whose FLOP rate is above it (by more than
// its margin) has lost work to the compiler, and is invalid.
MutationVerdict analyseMutation(const RunRecord& normal, const RunRecord* memory_only, const RunRecord* compute_only,
                                double timer_resolution_ns, const VerdictMargins& margins = {},
                                std::optional<double> compute_roof_gflops = std::nullopt);

}  // namespace rooflab
