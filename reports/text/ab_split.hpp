#pragma once
// An A/B run's results (`rooflab ab`: baseline and candidate interleaved in one batch) as the two
// runs they compare: each side's records, with the run's device, models and drift control, so that
// `rooflab diff` and the reports read each side as they read any run.
#include <utility>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// Throws std::invalid_argument when the document is not an A/B run's (no "ab", or no record of a side).
std::pair<ResultsDocument, ResultsDocument> splitAbRun(const ResultsDocument& ab_run);

}  // namespace rooflab::reports
