#include "reports/html/html_devices.hpp"

#include "reports/html/html_report.hpp"
#include "reports/html/html_text.hpp"
#include "reports/text/device_comparison.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

// Every id and in-page link of a device's part made its own ("d1-family-0"), so that the parts of
// two devices never share an anchor.
std::string withIdPrefix(std::string html, const std::string& prefix) {
  for (const std::string attribute : {" id=\"", " href=\"#"}) {
    for (std::size_t at = html.find(attribute); at != std::string::npos; at = html.find(attribute, at)) {
      at += attribute.size();
      html.insert(at, prefix);
    }
  }
  return html;
}

std::string cellsHtml(const DeviceCell& cell, bool rate_is_flops) {
  if (!cell.status.empty()) return "<td colspan=\"4\" class=\"muted\">" + escapeHtml(cell.status) + "</td>";
  std::string html = tdNumber(cell.median_ns, &formatDurationNs);
  html += cell.rate ? td(escapeHtml(formatRate(*cell.rate) + (rate_is_flops ? " GFLOP/s" : " GB/s")), "num")
                    : tdNumber(std::nullopt, &formatRate);
  html += tdNumber(cell.fraction_of_roof, &formatPercent);
  std::string diagnosis = escapeHtml(cell.diagnosis.empty() ? "–" : cell.diagnosis);
  if (cell.verification_failed) diagnosis = "<span class=\"bad\">failed verification</span> " + diagnosis;
  return html + td(diagnosis);
}

std::string sideBySideHtml(const AnalysedResults& results) {
  const DeviceComparison comparison = compareDevices(results);
  std::string html = "<section id=\"devices-side-by-side\">\n<h2>Devices side by side</h2>\n";
  html += "<p class=\"muted\">Every point on each device: its median time, its rate, the fraction of its own "
          "device's roof (each device against the ceilings measured on it) and its diagnosis; then how many "
          "times faster each device ran it than " +
          escapeHtml(comparison.devices.front()) + ".</p>\n";
  html += "<table class=\"devices\">\n<thead><tr>" + th("Variant") + th("Params");
  for (const std::string& device : comparison.devices)
    html += th(device + " time") + th(device + " rate") + th(device + " % of its roof") + th(device + " diagnosis");
  for (std::size_t d = 1; d < comparison.devices.size(); ++d)
    html += th(comparison.devices[d] + " over " + comparison.devices.front());
  html += "</tr></thead>\n<tbody>\n";
  std::string family;
  for (const DeviceComparisonRow& row : comparison.rows) {
    if (row.family != family) {
      family = row.family;
      html += "<tr class=\"group-start\"><th colspan=\"" +
              std::to_string(2 + 4 * row.cells.size() + row.speedups.size()) + "\">" + escapeHtml(family) +
              "</th></tr>\n";
    }
    html += "<tr>" + tdText(row.variant) + tdText(row.params);
    for (const DeviceCell& cell : row.cells) html += cellsHtml(cell, row.rate_is_flops);
    for (const auto& speedup : row.speedups) html += tdNumber(speedup, &formatSpeedup);
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n</section>\n";
}

}  // namespace

std::string comparedDevicesTitle(const AnalysedResults& results) {
  std::string title;
  for (const DeviceRun& run : results.device_runs) title += (title.empty() ? "" : " vs ") + run.info.name;
  return title;
}

std::string devicesComparedHtml(const AnalysedResults& results, const ChartStyle& chart_style,
                                const ChartOptions& chart_options) {
  const std::vector<AnalysedResults> documents = documentsPerDevice(results);
  std::string html = "<nav><p><a href=\"#devices-side-by-side\">devices side by side</a>";
  for (std::size_t d = 0; d < results.device_runs.size(); ++d)
    html += "<a href=\"#device-run-" + std::to_string(d) + "\">on " +
            escapeHtml(deviceShortName(results, results.device_runs[d])) + "</a>";
  html += "<a href=\"#config\">config</a></p></nav>\n" + sideBySideHtml(results);
  for (std::size_t d = 0; d < documents.size() && d < results.device_runs.size(); ++d) {
    const DeviceRun& run = results.device_runs[d];
    html += "<section class=\"device-run\" id=\"device-run-" + std::to_string(d) + "\">\n<h2>On " +
            escapeHtml(deviceShortName(results, run)) + ": " + escapeHtml(run.info.name) + " [" +
            escapeHtml(run.info.platform) + "]</h2>\n";
    html += withIdPrefix(renderHtmlReportBody(documents[d], chart_style, chart_options), "d" + std::to_string(d) + "-");
    html += "</section>\n";
  }
  return html;
}

}  // namespace rooflab::reports
