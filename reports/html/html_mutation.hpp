#pragma once
#include <string>
#include <vector>

#include "analyzer/data/analysis.hpp"

namespace rooflab::reports {

struct ReadingGuide;

// A normal record's mutation verdict as the HTML report shows it, folded under its verdict: t, t_mem
// and t_comp as bars, what removing memory traffic or arithmetic could win, the margins (unless
// `guide` states them for the whole report), how each mutant was validated (a note the guide states
// once linked to it), and the notes.
std::string mutationCardHtml(const AnalysedRecord& record, const MutationVerdict& mutation, const ReadingGuide& guide);

// A family's what-if records (mode "what-if"): per what-if, the original's and the what-if's time as
// bars, whether the counters show the expected change, the predicted gain and, beside it, the measured
// gain of the variant the manifest names as the real optimisation.
std::string whatIfSectionHtml(const std::vector<const AnalysedRecord*>& what_if_records);

}  // namespace rooflab::reports
