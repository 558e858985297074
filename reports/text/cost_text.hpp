#pragma once
// The phase table of a run (docs/cost.md): where its wall time went, what its counters cost per
// record and per pass, and how its estimate compared with what it took. `rooflab run --phases` prints
// it at the end of a run, `rooflab report RESULTS --phases` from a saved one.
#include <ostream>
#include <string>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// What a phase of the table holds, in words: "12 programs, 3.4 s of compiler time on 8 background
// threads while earlier records ran"; the detail as saved for a phase read from an older file.
std::string phaseDetailText(const PhaseCost& phase);

// Says so in a line when the results hold no cost (written before it was recorded).
void printPhaseTable(const ResultsDocument& results, std::ostream& out);

}  // namespace rooflab::reports
