#pragma once
#include <filesystem>
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

namespace rooflab::reports {

// One self-contained HTML page for a run: inline CSS and SVG, no script and nothing fetched. Per
// family: a roofline chart (reference and device models), the variants table with each rung's step
// and gain, the mutants, the mutation verdicts and the counters; then device, models and config.
std::string renderHtmlReport(const AnalysedResults& results, const ChartStyle& chart_style = {},
                             const ChartOptions& chart_options = {});

// A one-device document's families, device, models and ceilings sections, as the page shows them:
// the part of the page that a document comparing devices (html_devices.hpp) has once per device.
std::string renderHtmlReportBody(const AnalysedResults& results, const ChartStyle& chart_style,
                                 const ChartOptions& chart_options);

// renderHtmlReport written atomically to `file`.
void writeHtmlReport(const AnalysedResults& results, const std::filesystem::path& file,
                     const ChartOptions& chart_options = {});

}  // namespace rooflab::reports
