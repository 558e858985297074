// The tuning section of a family: a summary, the chart (one panel per parameter), the ten fastest
// configurations and those that failed, and the manifest snippet.
#include "reports/html/html_tuning.hpp"

#include <algorithm>
#include <sstream>

#include "analyzer/support/format.hpp"
#include "reports/chart/tuning_chart.hpp"
#include "reports/html/html_text.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/tuning_text.hpp"

namespace rooflab::reports {
namespace {

constexpr std::size_t kFastestShown = 10;

std::string configurationCells(const TuningResult& result, const TunedConfiguration& c) {
  std::string cells;
  for (std::size_t d = 0; d < result.dimensions.size(); ++d) cells += td(escapeHtml(formatNumber(c.values[d])), "num");
  return cells;
}

std::string fastestTable(const TuningResult& result) {
  std::vector<std::size_t> ok;
  for (std::size_t c = 0; c < result.configurations.size(); ++c)
    if (result.configurations[c].outcome == ConfigurationOutcome::ok && result.configurations[c].median_ns)
      ok.push_back(c);
  std::sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) {
    return *result.configurations[a].median_ns < *result.configurations[b].median_ns;
  });
  if (ok.size() > kFastestShown) ok.resize(kFastestShown);
  std::string header;
  for (const TuningDimension& d : result.dimensions) header += th(d.name);
  std::string html = "<table class=\"variants\"><thead><tr>" + header + th("Time (median)") + th("95% interval") +
                     th(result.rate_unit) + th("Run") + "</tr></thead><tbody>\n";
  for (std::size_t c : ok) {
    const TunedConfiguration& t = result.configurations[c];
    std::string interval =
        t.lower_ns && t.upper_ns ? formatDurationNs(*t.lower_ns) + " – " + formatDurationNs(*t.upper_ns) : "";
    std::string note = result.best == c ? " (best)" : result.baseline == c ? " (as written)" : "";
    html += "<tr>" + configurationCells(result, t) + tdNumber(t.median_ns, &formatDurationNs) +
            tdText(interval, "num") + tdNumber(t.rate, &formatRate) +
            tdText((t.order ? std::to_string(*t.order) : std::string("")) + note) + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

std::string failuresList(const TuningResult& result) {
  std::string items;
  std::size_t count = 0;
  for (const TunedConfiguration& c : result.configurations) {
    if (c.outcome != ConfigurationOutcome::build_failed && c.outcome != ConfigurationOutcome::verification_failed &&
        c.outcome != ConfigurationOutcome::failed)
      continue;
    if (++count > kFastestShown) continue;
    std::string values;
    for (std::size_t d = 0; d < result.dimensions.size(); ++d)
      values += (d ? " " : "") + result.dimensions[d].name + "=" + formatNumber(c.values[d]);
    items += "<li>" + escapeHtml(values) + ": <span class=\"bad\">" + escapeHtml(toString(c.outcome)) + "</span> " +
             escapeHtml(c.reason.substr(0, 300)) + "</li>";
  }
  if (count == 0) return "";
  return "<p class=\"meta\">" + std::to_string(count) + " configurations failed and were skipped" +
         (count > kFastestShown ? " (the first " + std::to_string(kFastestShown) + ")" : "") +
         ":</p><ul class=\"meta\">" + items + "</ul>\n";
}

}  // namespace

std::string tuningSectionHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style) {
  std::string html;
  for (const TuningResult& result : results.tuning) {
    if (result.family != family) continue;
    std::ostringstream summary;
    printTuningSummary(result, summary);
    html += "<h3>Tuning " + escapeHtml(result.variant) + "</h3>\n<p>" + escapeHtml(summary.str()) + "</p>\n";
    html += "<figure>\n" + renderSvgChart(layoutTuningChart(result, style), family) +
            "<figcaption class=\"muted\">Each configuration that ran, at its rate, against each parameter's value; "
            "hover a point for its configuration. The whole space is in " +
            escapeHtml(tuningFileStem(result)) + ".csv.</figcaption>\n</figure>\n";
    html += fastestTable(result) + failuresList(result);
    if (!result.manifest_snippet.empty())
      html += "<p class=\"meta\">A manifest entry that keeps the best configuration as a variant (tuned-" +
              escapeHtml(result.family) + "-" + escapeHtml(result.variant) + ".toml):</p><pre>" +
              escapeHtml(result.manifest_snippet) + "</pre>\n";
  }
  return html;
}

}  // namespace rooflab::reports
