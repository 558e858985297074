#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "reports/chart/bandwidth_chart.hpp"
#include "reports/chart/roofline_chart.hpp"

// Which charts a family gets, decided once for the page and the PNGs: the roofline where it has a
// point (or where nothing else could be drawn, to say why), the bandwidth chart for records that do
// no arithmetic work, the instruction roofline for records with instruction counts. No chart is
// drawn empty when another shows the family's records.
namespace rooflab::reports {

struct FamilyCharts {
  std::optional<RooflineChart> roofline;
  std::optional<BandwidthChart> bandwidth;
  std::optional<RooflineChart> instructions;
};

FamilyCharts buildFamilyCharts(const AnalysedResults& results, std::string_view family,
                               const ChartOptions& options = {});

// "<kind>-<family><suffix>.png" ("roofline", "bandwidth", "instructions"); characters that do not
// belong in a file name become '_', so a doctored results file cannot write outside the output folder.
std::string chartPngFileName(std::string_view kind, const std::string& family, const std::string& suffix = "");

}  // namespace rooflab::reports
