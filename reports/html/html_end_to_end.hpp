#pragma once
// The end-to-end view of the HTML report (docs/end-to-end.md): per variant, each strategy's time split
// as a bar beside its measured and predicted time and its bound, the best strategy and what it wins,
// the overlap what-if; and the measured link and launch ceilings.
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// "" when no record has end-to-end runs.
std::string endToEndSectionHtml(const std::vector<const AnalysedRecord*>& normal_records);

// The host link and launch ceilings measured at the start of the run; "" when none were.
std::string linkCeilingsHtml(const AnalysedResults& results);

}  // namespace rooflab::reports
