#pragma once
#include <string>

#include "analyzer/run_record.hpp"

namespace rooflab::reports {

// A normal record's mutation verdict as the HTML report shows it: the verdict, t, t_mem and t_comp
// as bars, what removing memory traffic or arithmetic could win, the margins, how each mutant was
// validated, and the notes.
std::string mutationCardHtml(const RunRecord& record, const MutationVerdict& mutation);

}  // namespace rooflab::reports
