#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/roofline_chart.hpp"

namespace rooflab::reports {

// The formats writeReports knows: "html", "png", "json", "csv".
std::vector<std::string> knownReportFormats();

// Renders `results` (docs/results-schema.md), each record beside its conclusions, into `out_dir`, creating it:
//   html -> report.html, png -> roofline-<family>.png per family, json -> results.json (the
//   results file, written atomically: rewriting the file a report was read from is safe),
//   csv -> results.csv.
// Throws std::invalid_argument for an unknown format (naming it), before anything is written;
// std::runtime_error when a file cannot be written.
// `chart_options` adds what a reader asked the charts to draw (the mutants' markers).
void writeReports(const ResultsDocument& results, const std::filesystem::path& out_dir,
                  const std::vector<std::string>& formats, const ChartOptions& chart_options = {});

}  // namespace rooflab::reports
