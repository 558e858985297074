#pragma once
// What-if mutations (docs/manifest.md, "What-if mutations"): a define that switches a kernel into a
// deliberately incorrect form with one inefficiency removed. Its time against the original's is the
// most that removing the inefficiency can win; its counters, where there are any, confirm that the
// mutation removed what it claims. Works on typed records: a batch's, or a results file's read back.
#include <vector>

#include "analyzer/data/what_if.hpp"

namespace rooflab {

struct RunRecord;

// A what-if record's outcome (`record` has a what_if), from the normal records among `records` of the
// same parameters: its own variant's (the original) and its realised_by variant's.
WhatIfOutcome whatIfOutcome(const std::vector<RunRecord>& records, const RunRecord& record);

}  // namespace rooflab
