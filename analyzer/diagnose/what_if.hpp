#pragma once
// What-if mutations (docs/manifest.md, "What-if mutations"): a define that switches a kernel into a
// deliberately incorrect form with one inefficiency removed. Its time against the original's is the
// most that removing the inefficiency can win; its counters, where there are any, confirm that the
// mutation removed what it claims. Works on typed records: a batch's, or a results file's read back.
#include <vector>

#include "analyzer/data/what_if.hpp"

namespace rooflab {

struct RunRecord;

// Fills every what-if record's result from the normal records of the same parameters: its own
// variant's (the original) and its realised_by variant's. Records without a what-if are untouched.
void analyseWhatIfs(std::vector<RunRecord>& records);

}  // namespace rooflab
