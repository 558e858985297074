#pragma once
// The phase table of a run (docs/cost.md): where its wall time went, what its counters cost per
// record and per pass, and how its estimate compared with what it took. `rooflab run --phases` prints
// it at the end of a run, `rooflab report RESULTS --phases` from a saved one.
#include <ostream>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// Says so in a line when the results hold no cost (written before it was recorded).
void printPhaseTable(const ResultsDocument& results, std::ostream& out);

}  // namespace rooflab::reports
