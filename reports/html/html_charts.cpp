// A family's charts on the page (html_charts.hpp).
#include "reports/html/html_charts.hpp"

#include "reports/chart/family_charts.hpp"
#include "reports/html/html_chart_controls.hpp"
#include "reports/html/html_text.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

std::string unplacedHtml(const std::vector<UnplacedRecord>& unplaced) {
  if (unplaced.empty()) return "";
  std::string html = " Not on the chart:<ul class=\"unplaced\">";
  for (const UnplacedRecord& record : unplaced)
    html += "<li>" + escapeHtml(record.variant) + " " + escapeHtml(record.params_text) + ": " +
            escapeHtml(record.reason) + "</li>";
  return html + "</ul>";
}

std::string rooflineFigure(const RooflineChart& chart, const std::string& family, const ChartStyle& style) {
  std::string html = "<figure>\n" + renderSvgChart(layoutRooflineChart(chart, style), family);
  html += chartControlsHtml(chart);
  html += "<figcaption class=\"muted\">Normal-mode variants at (FLOP per DRAM byte, achieved GFLOP/s). "
          "Solid: the device that ran; dashed: the reference model; dotted: local-memory roofs. "
          "Hover a point for its details.";
  if (!chart.caption_note.empty()) html += " " + escapeHtml(chart.caption_note);
  return html + unplacedHtml(chart.unplaced) + "</figcaption>\n</figure>\n";
}

std::string bandwidthFigure(const BandwidthChart& chart, const std::string& family, const ChartStyle& style) {
  std::string html =
      "<figure class=\"bandwidth\">\n" + renderSvgChart(layoutBandwidthChart(chart, style), family, "bandwidth");
  html += chartControlsHtml(chart.series);
  html +=
      "<figcaption class=\"muted\">The variants that do no arithmetic work (the manifest declares 0 FLOPs), which a "
      "FLOP roofline cannot place: the bandwidth each achieved at each memory level, as a share of that level's "
      "measured roof. Global: the bytes the manifest's global_accesses ask of global memory; DRAM: the counters' "
      "bytes, else the compulsory ones; L2 and L1: the counters'; local: the counters' shared wavefronts, else the "
      "declared local accesses. Above the dashed half of a roof, that level bounds the kernel. Hover a dot for its "
      "figures and diagnosis.";
  return html + unplacedHtml(chart.unplaced) + "</figcaption>\n</figure>\n";
}

std::optional<double> derived(const AnalysedRecord& record, const char* key) {
  const auto found = record.counters.derived.find(key);
  if (!record.counters.available || found == record.counters.derived.end()) return std::nullopt;
  return known(found->second);
}

std::string significant(double value) { return formatSignificant(value, 3); }

// Each variant's coordinates, so that the figures can be read without hovering.
std::string instructionTable(const AnalysedResults& results, const std::string& family) {
  const char* const columns[][2] = {{"warp_gips", "Warp GIPS"},
                                    {"warp_instructions_per_l1_transaction", "L1 inst/sector"},
                                    {"warp_instructions_per_l2_transaction", "L2 inst/sector"},
                                    {"warp_instructions_per_dram_transaction", "DRAM inst/sector"},
                                    {"warp_instructions_per_shared_transaction", "Shared inst/wavefront"},
                                    {"global_load_sectors_per_request", "Sectors per global load"},
                                    {"global_store_sectors_per_request", "Sectors per global store"},
                                    {"shared_load_wavefronts_per_request", "Wavefronts per shared load"},
                                    {"shared_store_wavefronts_per_request", "Wavefronts per shared store"}};
  std::string html = "<table class=\"instruction-roofline\">\n<thead><tr>" + th("Variant") + th("Params");
  for (const auto& column : columns) html += th(column[1]);
  html += "</tr></thead>\n<tbody>\n";
  for (const AnalysedRecord* record : recordsOfFamily(results, family)) {
    if (record->mode != RunMode::normal || !derived(*record, "warp_gips")) continue;
    html += "<tr>" + tdText(record->variant) + tdText(recordParamsText(*record));
    for (const auto& column : columns) html += tdNumber(derived(*record, column[0]), &significant);
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

std::string instructionFigure(const AnalysedResults& results, const RooflineChart& chart, const std::string& family,
                              const ChartStyle& style) {
  std::string html =
      "<figure class=\"instructions\">\n" + renderSvgChart(layoutRooflineChart(chart, style), family, "instructions");
  html += chartControlsHtml(chart);
  html += "<figcaption class=\"muted\">The instruction roofline (NVIDIA counters): each variant's warp instructions "
          "per second against its warp instructions per transaction at L1 (32-byte global sectors), L2 and DRAM "
          "(sectors) and shared memory (wavefronts), joined at its rate; under the issue rate and each level's "
          "transaction rate (its bandwidth roof over 32 bytes, 128 for a wavefront). The dashed walls are where an "
          "access pattern puts its loads or stores: one instruction per transaction (stride 0, no bank conflict), "
          "one per 4 sectors (unit stride), one per 32 (a sector per thread, a 32-way bank conflict); each "
          "variant's loads and stores stand at their own instructions per transaction and rate. The x at DRAM is "
          "the course's instructions per DRAM transaction.";
  html += unplacedHtml(chart.unplaced) + "</figcaption>\n</figure>\n";
  return html + instructionTable(results, family);
}

}  // namespace

std::string familyChartsHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style,
                             const ChartOptions& options) {
  const FamilyCharts charts = buildFamilyCharts(results, family, options);
  std::string html;
  if (charts.roofline) html += rooflineFigure(*charts.roofline, family, style);
  if (charts.bandwidth) html += bandwidthFigure(*charts.bandwidth, family, style);
  if (charts.instructions) html += instructionFigure(results, *charts.instructions, family, style);
  return html;
}

}  // namespace rooflab::reports
