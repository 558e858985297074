#pragma once
#include <ostream>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// The table printed at the end of a batch: one line per record (family/variant, params, mode,
// median time, GFLOP/s, GB/s, verification, bound on the device model), then the totals. Only
// strings reach `out`, so its locale cannot change the numbers.
void printTerminalSummary(const AnalysedResults& results, std::ostream& out);

}  // namespace rooflab::reports
