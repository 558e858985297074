#pragma once
// The AST walk of the automatic mutants (libclang builds only): over a parsed, preprocessed kernel
// program it finds the computation's structure (the backward slice of every address, branch
// condition, loop bound and integer divisor, through variables, arrays and helper functions), counts
// global accesses and operations, and, for the mutant asked for, records the textual edits that make
// it, or the problems that forbid it.
#include "mutators/libclang_api.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mutators/auto_mutation.hpp"
#include "mutators/mutant_lines.hpp"

namespace rooflab::auto_mutation {

// One replacement of the byte range [begin, end) of the main file. Its text is made of literal
// pieces and of ranges of the original, which are rendered with the edits nested in them.
struct SourceEdit {
  struct Piece {
    std::string text;
    unsigned begin = 0, end = 0;  // a range of the original when text is empty and end > begin
  };
  unsigned begin = 0, end = 0;
  std::vector<Piece> pieces;
};

struct WalkResult {
  SourceCensus census;
  std::vector<SourceEdit> edits;  // empty unless a kind was asked for
  // What the edits do, each at its edit's begin, and the compute-only loads kept (which no edit
  // touches): the mutant's changed lines (mutant_lines.hpp). The key's threading is no change of
  // the user's code and has none.
  std::vector<OffsetChange> changes;
  std::vector<std::string> problems;     // why the asked-for mutant cannot be made ("file:line: ...")
  bool double_helpers = false;           // the edits call the prelude's double helpers
  std::string first_structure_load;      // file:line of the first global load the structure keeps
  std::string first_structure_float_op;  // and of its first floating-point operation
  // The launched kernels' arguments the accesses reach (auto_mutation_traffic.cpp), or why not.
  std::map<std::string, KernelArgumentTraffic> traffic;
  std::string traffic_untraced;
  // The census line by line of the user's files ((file name, line) from the line directives), so
  // that a mutant whose census differs from what it must be names the first line where it does.
  std::map<std::pair<std::string, unsigned>, SourceCensus> census_by_line;
};

// Walks the functions that `kernels` reach (every function defined outside `skip_files` when
// `kernels` is empty). `main_text` is the main file's text; `skip_files` are included files that are
// rooflab's own (the preludes) and not the kernel's.
// `kernel_buffers[i]` names the buffer bound to each argument of kernels[i] (may be empty).
WalkResult walkKernelSource(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind,
                            const std::vector<std::string>& kernels,
                            const std::vector<std::vector<std::string>>& kernel_buffers,
                            const std::vector<std::string>& skip_files);

// compute-only: the key threaded through the program's own functions (auto_mutation_key.cpp): a
// last parameter on every function that is not a kernel, and the argument on every call of one.
void threadMutantKey(CXTranslationUnit unit, const std::string& main_text, const std::vector<std::string>& skip_files,
                     WalkResult& result);

// The main file's text with the edits applied (nested edits inside the pieces of outer ones).
std::string applyEdits(const std::string& text, const std::vector<SourceEdit>& edits);

}  // namespace rooflab::auto_mutation
