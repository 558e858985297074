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

// The variant's files as SourceFileText names them: the listed files by their paths relative to the
// family folder (as joinSourceFiles writes them), then the headers they include with `#include "x"`,
// found beside the including file or in the family folder, relative to it (else by file name), each
// once. A file that cannot be read is left out: the build says why.
std::vector<SourceFileText> annotatedSourceFiles(const VariantSpec& variant);

// The changed lines of the mutant of `mode` (compute-only or memory-only; none for any other), each
// line once and sorted, from the files' text with comments skipped.
std::vector<MutantLineChange> annotatedLineChanges(const std::vector<SourceFileText>& files, RunMode mode);

}  // namespace rooflab
