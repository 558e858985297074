#pragma once
// A what-if record's outcome in words, one text for the HTML report and the terminal alike.
#include <string>

#include "analyzer/data/run_record.hpp"

namespace rooflab::reports {

// "expectation met: shared_bank_conflicts 2.10 M (original) -> 0 (what-if), expected ...",
// "expectation not checked: no counters on the what-if: ..." or "... failed: ...".
std::string whatIfCheckText(const WhatIfRun& run, const WhatIfOutcome& outcome);

// "predicted gain: up to 1.85× faster", "predicted gain: none (0.97×)", "predicted gain: not measured".
std::string whatIfPredictedText(const WhatIfOutcome& outcome);

// "tiled_padded (the real optimisation) measured: 1.62× faster"; empty when the manifest names none.
std::string whatIfRealisedText(const WhatIfRun& run, const WhatIfOutcome& outcome);

}  // namespace rooflab::reports
