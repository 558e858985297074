#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

namespace rooflab::reports {

// The PNG image (file bytes) of a laid-out chart, drawn with cairo. Throws std::runtime_error.
std::string renderPng(const ChartScene& scene);

// "roofline-<family><suffix>.png"; characters that do not belong in a file name become '_', so a
// doctored results file cannot write outside the output folder.
std::string rooflinePngFileName(const std::string& family, const std::string& suffix = "");

// Each family's charts in `out_dir` (which must exist): roofline-<family><name_suffix>.png, and where
// the family has them bandwidth-... and instructions-... (family_charts.hpp); returns the files
// written. A batch that compared devices writes each device's with its name as the suffix.
std::vector<std::filesystem::path> writePngReports(const AnalysedResults& results, const std::filesystem::path& out_dir,
                                                   const ChartStyle& style = {}, const ChartOptions& chart_options = {},
                                                   const std::string& name_suffix = "");

}  // namespace rooflab::reports
