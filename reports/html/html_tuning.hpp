#pragma once
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"

// A family's tuning searches in the HTML report (`rooflab tune`): what was found, the space's chart,
// the fastest configurations and the manifest entry that keeps the best.
namespace rooflab::reports {

// "" when no search of the run tuned a variant of the family.
std::string tuningSectionHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style);

}  // namespace rooflab::reports
