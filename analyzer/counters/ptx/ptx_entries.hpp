#pragma once
// Where each `.entry` of a PTX module sits and what its parameter list declares: the parsing behind
// parseKernelSignatures and rewriteForCuda (ptx_rewrite.hpp). Internal to the ptx_*.cpp files.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/counters/ptx/ptx_rewrite.hpp"
#include "analyzer/counters/ptx/ptx_text.hpp"

namespace rooflab::counters::ptx_detail {

// One `.param ...` of an entry's parameter list.
struct ParsedParam {
  PtxParam param;
  std::string type;  // .u64, .f32, ...
  std::string text;  // as declared, for scalars that pass through unchanged
};

// Where one `.entry` sits in the line list, and what it declares.
struct EntryLocation {
  PtxKernelSignature signature;
  std::vector<ParsedParam> params;
  std::size_t entry_line = 0;  // index into lines
  std::size_t open_col = 0;    // column of '(' on entry_line
  std::size_t close_line = 0;  // index of the line holding ')'
  std::size_t close_col = 0;
  std::optional<std::size_t> body_open_line;  // index of the line holding the body's '{' (none: a declaration)
  std::size_t body_close_line = 0;            // index of the line holding the matching '}'
};

// Every `.entry` in text order; throws PtxRewriteError on a malformed or unsupported one.
std::vector<EntryLocation> locateEntries(const std::vector<SourceLine>& lines);

// Throws PtxRewriteError unless the lines hold a `.version` directive.
void requirePtx(const std::vector<SourceLine>& lines);

}  // namespace rooflab::counters::ptx_detail
