#pragma once
#include <ostream>

#include "analyzer/data/run_comparison.hpp"

// `rooflab diff OLD.json NEW.json`: the comparison of two runs (analyzer/diagnose/run_comparison.hpp)
// as text.
namespace rooflab::reports {

// A table of the matched points (old and new median time, change, the ratio new/old with its
// interval, the test's p-value, the verdict), then added and removed points, warnings and a
// verdict line. Locale-independent like every report. A refused comparison prints why.
void printDiff(const RunComparison& comparison, std::ostream& out);

}  // namespace rooflab::reports
