#pragma once
#include <string>

#include "analyzer/run_record.hpp"

namespace rooflab::reports {

struct ReadingGuide;

// A normal record's mutation verdict as the HTML report shows it, folded under its verdict: t, t_mem
// and t_comp as bars, what removing memory traffic or arithmetic could win, the margins (unless
// `guide` states them for the whole report), how each mutant was validated (a note the guide states
// once linked to it), and the notes.
std::string mutationCardHtml(const RunRecord& record, const MutationVerdict& mutation, const ReadingGuide& guide);

}  // namespace rooflab::reports
