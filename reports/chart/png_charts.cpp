// Writes the tuning and rate-versus-size charts as PNG files, through the roofline's cairo drawer.
#include "reports/chart/png_charts.hpp"

#include "analyzer/support/atomic_file.hpp"
#include "reports/chart/capture_timeline_chart.hpp"
#include "reports/chart/png_report.hpp"
#include "reports/chart/rate_vs_size_chart.hpp"
#include "reports/text/device_comparison.hpp"
#include "reports/text/results_order.hpp"
#include "reports/chart/tuning_chart.hpp"
#include "reports/text/tuning_text.hpp"

namespace rooflab::reports {

std::vector<std::filesystem::path> writeExtraPngReports(const AnalysedResults& results,
                                                        const std::filesystem::path& out_dir, const ChartStyle& style) {
  std::vector<std::filesystem::path> written;
  for (const TuningResult& result : results.tuning) {
    const std::filesystem::path file = out_dir / (tuningFileStem(result) + ".png");
    writeFileAtomically(file, renderPng(layoutTuningChart(result, style)));
    written.push_back(file);
  }
  // A batch that compared devices: a chart per device, each of its own records and roofs.
  const std::vector<AnalysedResults> documents = documentsPerDevice(results);
  for (std::size_t d = 0; d < documents.size(); ++d)
    for (const std::string& family : familiesInRunOrder(documents[d])) {
      const std::optional<SizeResponse> response = sizeResponse(documents[d], family);
      if (!response) continue;
      const std::string suffix = comparesDevices(results) ? "-" + deviceShortName(results, results.device_runs[d]) : "";
      const std::filesystem::path file = out_dir / (sizeResponseFileStem(family) + suffix + ".png");
      writeFileAtomically(file, renderPng(layoutRooflineChart(buildRateVsSizeChart(documents[d], *response), style)));
      written.push_back(file);
    }
  if (results.capture_timeline)
    if (const std::optional<ChartScene> scene = layoutCaptureTimelineChart(*results.capture_timeline, style)) {
      const std::filesystem::path file = out_dir / "capture-timeline.png";
      writeFileAtomically(file, renderPng(*scene));
      written.push_back(file);
    }
  return written;
}

}  // namespace rooflab::reports
