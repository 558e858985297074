#pragma once
// A diagnosis's evidence as the reports show it.
#include <string>

#include "analyzer/data/diagnosis.hpp"

namespace rooflab::reports {

// "roofline, DRAM level: 46% of the DRAM roof at 0.25 FLOP/byte (latency)", with the placement's
// above-roof sentence appended where it stands above its roof.
std::string evidenceText(const DiagnosisEvidence& evidence);

}  // namespace rooflab::reports
