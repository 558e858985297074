#pragma once
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

// The profiler readings in the HTML report: a compact table per family (one row per original), and
// the one-line explanation of each reading once per report.
namespace rooflab::reports {

// "" when no record of `normal_records` carries readings.
std::string profilerReadingsTableHtml(const std::vector<const AnalysedRecord*>& normal_records);

// The section that explains each reading (id "profiler-readings"); "" when no record carries readings.
std::string profilerReadingsLegendHtml(const AnalysedResults& results);

}  // namespace rooflab::reports
