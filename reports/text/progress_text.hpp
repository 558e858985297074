#pragma once
// The numbers the batch says while it runs, in words: its estimate, before it starts and on the
// progress line. The batch gets them from the command line, as analyzer/ writes no sentence.
#include <string>

#include "analyzer/data/run_cost.hpp"

namespace rooflab::reports {

// "about 40 s", "about 3.5 min", "about 2.1 h".
std::string estimateText(double seconds);

// The line a batch starts with: "rooflab: 84 points (5 families) on <device>; 1 warm-up + at least 5
// timed runs each, to ±2% noise within 1 s; estimated about 49 s; results in <file>".
std::string batchStartText(const BatchStart& start);

}  // namespace rooflab::reports
