#pragma once
// The end-to-end chart of one kernel family (docs/end-to-end.md): a horizontal bar per end-to-end run,
// split into its upload, launch, kernel, download and gaps, with a tick at the time the ceilings
// predict, grouped by variant and parameters. Drawn as end-to-end-<family>.png (png_report.cpp).
#include <optional>
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

// The colour of each part, shared by the PNG and the HTML bars.
Rgb endToEndPartColor(int part);  // 0 upload, 1 launch, 2 kernel, 3 download, 4 gaps
const char* endToEndPartName(int part);
inline constexpr int kEndToEndParts = 5;

// nullopt when no record of `family` has end-to-end runs.
std::optional<ChartScene> layoutEndToEndChart(const AnalysedResults& results, const std::string& family,
                                              const ChartStyle& style = {});

}  // namespace rooflab::reports
