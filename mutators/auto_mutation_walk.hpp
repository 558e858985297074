#pragma once
// The AST walk of the automatic mutants (libclang builds only): one walk over a parsed kernel
// source counts its global accesses and floating-point operations and, for the mutant asked for,
// records the textual edits that make it, or the problems that forbid it.
#include "mutators/libclang_api.hpp"

#include <optional>
#include <string>
#include <vector>

#include "mutators/auto_mutation.hpp"

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
  std::vector<SourceEdit> edits;      // empty unless a kind was asked for
  std::vector<std::string> problems;  // why the asked-for mutant cannot be made ("file:line: ...")
};

// Walks every function defined in `unit`. `main_text` is the main file's text; `skip_files` are
// included files that are rooflab's own (the preludes) and not the kernel's.
WalkResult walkKernelSource(CXTranslationUnit unit, const std::string& main_text,
                            std::optional<AutoMutantKind> kind, const std::vector<std::string>& skip_files);

// The main file's text with the edits applied (nested edits inside the pieces of outer ones).
std::string applyEdits(const std::string& text, const std::vector<SourceEdit>& edits);

}  // namespace rooflab::auto_mutation
