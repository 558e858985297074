#pragma once
// A diagnosis in words, as the reports show it: its bound, its evidence and its disagreements. An
// item read from a schema-1 results file is said as that file saved it.
#include <string>

#include "analyzer/data/diagnosis.hpp"

namespace rooflab::reports {

// "memory (DRAM)", "compute", "latency", "undetermined", "launch (7.0 us of launches)".
std::string boundText(const Diagnosis& diagnosis);
// "memory (DRAM), high confidence".
std::string summaryText(const Diagnosis& diagnosis);

// "roofline, DRAM level: 46% of the DRAM roof at 0.25 FLOP/byte (latency)", with the placement's
// above-roof sentence appended where it stands above its roof.
std::string evidenceText(const DiagnosisEvidence& evidence);

// One sentence: what each signal says and why the trusted one is trusted.
std::string disagreementText(const DiagnosisDisagreement& disagreement);

}  // namespace rooflab::reports
