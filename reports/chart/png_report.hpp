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

// "roofline-<family>.png"; characters that do not belong in a file name become '_', so a doctored
// results file cannot write outside the output folder.
std::string rooflinePngFileName(const std::string& family);

// Each family's charts in `out_dir` (which must exist): roofline-<family>.png, and where the family has
// them bandwidth-<family>.png and instructions-<family>.png (family_charts.hpp); returns the files written.
std::vector<std::filesystem::path> writePngReports(const ResultsDocument& results,
                                                   const std::filesystem::path& out_dir,
                                                   const ChartStyle& style = {},
                                                   const ChartOptions& chart_options = {});

}  // namespace rooflab::reports
