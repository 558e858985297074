#pragma once
// A what-if's findings in words: its expectation, what its check rests on, and why a gain is not
// given. An item read from a schema-1 results file is said as that file saved it.
#include <string>

#include "analyzer/data/run_record.hpp"

namespace rooflab::reports {

// "shared_bank_conflicts to 0", "... below 0.1 x the original's".
std::string whatIfExpectationText(const WhatIfExpectation& expectation);

// What the check rests on: "shared_bank_conflicts 2.1e+06 (original) -> 0 (what-if); expected
// shared_bank_conflicts to 0", "no counters on the what-if: ...", "the manifest states no expected
// counter change".
std::string whatIfCheckDetailText(const WhatIfRun& run, const WhatIfOutcome& outcome);

// Which record kept a gain from being given, in what state: "the original (tiled) crashed: ...",
// "tiled_padded failed verification (...)".
std::string whatIfGainWithheldText(const WhatIfGainWithheld& withheld);

}  // namespace rooflab::reports
