#pragma once
// The source view: each original's program as the user wrote it, with where its warp samples gather
// (NVIDIA's PC sampling) and what its compute-only and memory-only mutants changed at each line.
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// Whether the page needs the source view's style: an original of the results kept its program's
// files (the source view) or has a diagnosis that names a hot line (the variants table).
bool needsSourceViewStyle(const AnalysedResults& results);

// The source view's own style rules, which the page adds only when it shows one, so that a page
// without it is the page it has always been.
std::string_view sourceViewStyleSheet();

// A family's "Source lines" section: per original with source_files, folded under its variant, the
// sampling's summary (or why there is none), the diagnosis's hot line, the five hottest lines with
// their stall reasons in words, then each file line by line with a bar per sampled line (its width
// the line's samples against the hottest line's, its colour the line's most sampled stall reason's
// group) and, beside each line, what the mutants of the same variant and params changed there.
// Empty when no original of the family kept its files.
std::string sourceViewSectionHtml(const std::vector<const AnalysedRecord*>& normal_records,
                                  const std::vector<const AnalysedRecord*>& mutant_records);

}  // namespace rooflab::reports
