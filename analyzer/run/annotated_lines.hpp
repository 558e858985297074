#pragma once
// The lines an annotated mutant changes (RunRecord::mutant_line_changes): where the variant's files
// use prelude.cl's annotations, which expand differently in the mutant's mode (RL_LOAD and RL_LOAD4
// made up and RL_STORE guarded in compute-only, RL_ADD, RL_MUL and RL_FMA folded in memory-only),
// and the code an `#if` on RL_MODE or RL_IS_* compiles in the original but not in the mutant (removed).
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/source_lines.hpp"

namespace rooflab {

// The changed lines of the mutant of `mode` (compute-only or memory-only; none for any other), each
// line once and sorted, from the files' text (variantSourceFiles, source_line_samples.hpp) with comments
// skipped.
std::vector<MutantLineChange> annotatedLineChanges(const std::vector<SourceFileText>& files, RunMode mode);

}  // namespace rooflab
