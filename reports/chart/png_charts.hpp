#pragma once
// The PNGs of the charts beside the roofline: each tuning search's chart (tune-<family>-<variant>.png)
// and each family's rate-versus-size chart (rate-vs-size-<family>.png), drawn with cairo.
#include <filesystem>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

std::vector<std::filesystem::path> writeExtraPngReports(const AnalysedResults& results,
                                                        const std::filesystem::path& out_dir,
                                                        const ChartStyle& style = {});

}  // namespace rooflab::reports
