// What a family's size rules chose, under its heading: the value, the bound that decided it and why.
#include "reports/html/html_sizes.hpp"

#include "reports/chart/rate_vs_size_chart.hpp"
#include "reports/html/html_chart_controls.hpp"
#include "reports/html/html_text.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/size_choice_text.hpp"
#include "reports/text/size_response.hpp"

namespace rooflab::reports {

std::string sizeChoicesHtml(const AnalysedResults& results, const std::string& family) {
  std::string html;
  for (const SizeChoice& choice : results.size_choices) {
    if (choice.family != family) continue;
    html += "<li>" + escapeHtml(sizeChoiceText(choice)) + "</li>";
  }
  if (html.empty()) return "";
  return "<div class=\"size-choices\"><p class=\"meta\">Sizes chosen for this device:</p><ul class=\"meta\">" + html +
         "</ul></div>\n";
}

std::string rateVsSizeHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style) {
  const std::optional<SizeResponse> response = sizeResponse(results, family);
  if (!response) return "";
  const RooflineChart chart = buildRateVsSizeChart(results, *response);
  std::string html = "<h3>Rate against size</h3>\n<figure>\n" +
                     renderSvgChart(layoutRooflineChart(chart, style), family) + chartControlsHtml(chart) +
                     "<figcaption class=\"muted\">Achieved " + escapeHtml(response->unit) +
                     " of each variant against " + escapeHtml(response->param) +
                     ", with the roofs at each size (solid: the device that ran; dashed: the "
                     "reference model) and the launch floor (dotted: each size's work in the time of an empty kernel). "
                     "A cross marks where a variant first reaches half of its plateau.</figcaption>\n</figure>\n";
  html += "<table class=\"variants\"><thead><tr>" + th("Variant") + th("Plateau (" + response->unit + ")") +
          th("Half-plateau " + response->param) + th("Note") + "</tr></thead><tbody>\n";
  for (const SizeSeries& s : response->series) {
    const std::string half =
        s.half_plateau_size ? (s.half_below_range ? "≤ " : "") + formatCount(*s.half_plateau_size) : "";
    html += "<tr>" + tdText(s.others.empty() ? s.variant : s.variant + " " + s.others) +
            tdNumber(s.plateau_rate, &formatRate) + tdText(half, "num") +
            tdText(s.still_rising ? "still rising at the largest size" : "") + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

}  // namespace rooflab::reports
