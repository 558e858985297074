// The charts of a family (family_charts.hpp).
#include "reports/chart/family_charts.hpp"

#include "reports/chart/instruction_roofline.hpp"

namespace rooflab::reports {

FamilyCharts buildFamilyCharts(const AnalysedResults& results, std::string_view family, const ChartOptions& options) {
  FamilyCharts charts;
  charts.bandwidth = buildBandwidthChart(results, family);
  charts.instructions = buildInstructionRoofline(results, family);
  RooflineChart roofline = buildRooflineChart(results, family, options);
  if (!roofline.points.empty() || !charts.bandwidth) charts.roofline = std::move(roofline);
  return charts;
}

std::string chartPngFileName(std::string_view kind, const std::string& family, const std::string& suffix) {
  std::string safe;
  for (char c : family + suffix) {
    const bool allowed =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    safe += allowed ? c : '_';
  }
  if (safe.empty() || safe.find_first_not_of('.') == std::string::npos) safe = "_" + safe;
  return std::string(kind) + "-" + safe + ".png";
}

}  // namespace rooflab::reports
