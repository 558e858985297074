#pragma once
#include <string>

#include "analyzer/data/analysis.hpp"

namespace rooflab::reports {

// The variants table's one bound cell: the diagnosis's bound and confidence, with its evidence and
// disagreements in the cell's tooltip; a muted dash for a record without a diagnosis.
std::string diagnosisCellHtml(const AnalysedRecord& record);

// The evidence and disagreements of a diagnosis, one line each ("roofline, DRAM level: ...").
std::string diagnosisDetailsText(const Diagnosis& diagnosis);

}  // namespace rooflab::reports
