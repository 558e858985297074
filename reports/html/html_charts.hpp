#pragma once
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

// A family's charts on the page (reports/chart/family_charts.hpp), each a <figure> with its inline
// SVG, its zoom and variant filter and a caption that lists every record it could not draw and why;
// the instruction roofline with its readings in a table.
namespace rooflab::reports {

std::string familyChartsHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style,
                             const ChartOptions& options);

}  // namespace rooflab::reports
