#pragma once
// The HTML page of a batch that compared devices: the side-by-side table of every point on each
// device, then each device's part of the page (its charts against its own roofs, its tables, its
// device and models sections), as a run on that device alone would show them.
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

namespace rooflab::reports {

// "Intel Xeon vs NVIDIA H100": the page's title.
std::string comparedDevicesTitle(const AnalysedResults& results);

// The navigation, the side-by-side table and each device's part of the page.
std::string devicesComparedHtml(const AnalysedResults& results, const ChartStyle& chart_style,
                                const ChartOptions& chart_options);

}  // namespace rooflab::reports
