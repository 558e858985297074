#include "reports/html/html_end_to_end.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/end_to_end_chart.hpp"
#include "reports/html/html_text.hpp"
#include "reports/text/end_to_end_sentences.hpp"
#include "reports/text/end_to_end_text.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/ceilings_sentences.hpp"

namespace rooflab::reports {
namespace {

std::string cssColor(Rgb color) {
  return "rgb(" + std::to_string(color.red) + "," + std::to_string(color.green) + "," + std::to_string(color.blue) +
         ")";
}

double partNs(const EndToEndParts& parts, int part) {
  const double values[] = {parts.upload_ns, parts.launch_ns, parts.kernel_ns, parts.download_ns, parts.gaps_ns};
  return std::isfinite(values[part]) && values[part] > 0 ? values[part] : 0;
}

// The run's parts as a bar whose length is its total against the longest of the table, each part's
// share of the parts' sum filling it (overlapped parts add up to more than the total).
std::string barHtml(const EndToEndRun& run, const EndToEndRunPrediction& judged, double longest_ns) {
  double sum = 0;
  for (int part = 0; part < kEndToEndParts; ++part) sum += partNs(run.median, part);
  const double length = longest_ns > 0 ? 100 * run.median.total_ns / longest_ns : 0;
  std::string html =
      "<div style=\"position:relative;width:24em;height:1.2em\"><div style=\"display:flex;height:100%;width:" +
      formatFixed(length, 2) + "%;outline:1px solid #1a1a1a\">";
  std::string title;
  for (int part = 0; part < kEndToEndParts; ++part) {
    const double ns = partNs(run.median, part);
    title += std::string(title.empty() ? "" : ", ") + endToEndPartName(part) + " " + formatDurationNs(ns);
    if (sum > 0 && ns > 0)
      html += "<span style=\"width:" + formatFixed(100 * ns / sum, 2) +
              "%;background:" + cssColor(endToEndPartColor(part)) + "\"></span>";
  }
  html += "</div>";
  if (judged.predicted && longest_ns > 0)
    html += "<span title=\"predicted\" "
            "style=\"position:absolute;top:-0.2em;bottom:-0.2em;width:3px;background:#1a1a1a;left:" +
            formatFixed(100 * judged.predicted->total_ns / longest_ns, 2) + "%\"></span>";
  return "<td title=\"" + escapeHtml(title) + "\">" + html + "</div></td>";
}

std::string legendHtml() {
  std::string html = "<p class=\"muted\">Bars: ";
  for (int part = 0; part < kEndToEndParts; ++part)
    html +=
        "<span style=\"display:inline-block;width:1em;height:0.8em;background:" + cssColor(endToEndPartColor(part)) +
        "\"></span> " + endToEndPartName(part) + " ";
  return html + "· the black tick: the time the link and launch ceilings predict. Parts are timed with the commands' "
                "profiling events; gaps are the time no command covers (host copies, driver work).</p>\n";
}

std::string recordHtml(const AnalysedRecord& record) {
  const EndToEndResult& e = *record.end_to_end;
  const EndToEndAnalysis& concluded = record.endToEnd();
  double longest_ns = 0;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const EndToEndRun& run = e.runs[i];
    longest_ns = std::max(longest_ns, std::isfinite(run.median.total_ns) ? run.median.total_ns : 0.0);
    if (const auto& predicted = record.endToEndPrediction(i).predicted)
      longest_ns = std::max(longest_ns, predicted->total_ns);
  }
  std::string html = "<h4>" + escapeHtml(record.variant + " " + recordParamsText(record)) + "</h4>\n";
  html += "<table class=\"end-to-end\">\n<thead><tr>" + th("Strategy") + th("Where the time goes") + th("Measured") +
          th("Predicted") + th("Verification") + th("Bound of the whole") + "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const EndToEndRun& run = e.runs[i];
    const EndToEndRunPrediction& judged = record.endToEndPrediction(i);
    html += "<tr>" + tdText(endToEndRunName(run));
    if (run.error || run.repetitions.empty()) {
      html += td("<span class=\"bad\">" + escapeHtml(run.error.value_or("not run")) + "</span>") +
              "<td></td><td></td><td></td><td></td></tr>\n";
      continue;
    }
    html += barHtml(run, judged, longest_ns) + tdText(formatDurationNs(run.median.total_ns), "num");
    html += judged.predicted
                ? td("<span title=\"" + escapeHtml(endToEndPredictedFromText(judged)) + "\">" +
                         escapeHtml(formatDurationNs(judged.predicted->total_ns)) + "</span>",
                     "num")
                : td("<span class=\"muted\" title=\"" + escapeHtml(endToEndPredictedFromText(judged)) + "\">–</span>",
                     "num");
    const bool wrong = run.verification.status == VerificationStatus::failed;
    html += td(wrong ? "<span class=\"bad\">failed: " + escapeHtml(run.verification.detail) + "</span>"
                     : escapeHtml(toString(run.verification.status)));
    html += tdText(endToEndBoundText(judged)) + "</tr>\n";
  }
  html += "</tbody>\n</table>\n";
  if (const auto& verdict = concluded.verdict)
    html += "<p><strong>Best:</strong> " + escapeHtml(endToEndSummaryText(*verdict)) + ". " +
            escapeHtml(endToEndBoundText(*verdict)) + "</p>\n";
  for (const OverlapWhatIf& w : concluded.overlap)
    html += "<p><strong>Overlap what-if</strong>, " + escapeHtml(overlapWhatIfText(w)) + ".</p>\n";
  return html;
}

std::string figureText(const LatencyFigure& figure) {
  if (!figure.median_ns) return "–";
  return formatDurationNs(*figure.median_ns) + (figure.noise ? " ±" + formatPercent(*figure.noise) : "");
}

}  // namespace

std::string endToEndSectionHtml(const std::vector<const AnalysedRecord*>& normal_records) {
  std::string html;
  for (const AnalysedRecord* record : normal_records)
    if (record->end_to_end && !record->end_to_end->runs.empty()) html += recordHtml(*record);
  if (html.empty()) return "";
  return "<section class=\"end-to-end\">\n<h3>End to end</h3>\n" + legendHtml() + html + "</section>\n";
}

std::string linkCeilingsHtml(const AnalysedResults& results) {
  if (!results.models.ceilings || (!results.models.ceilings->link && !results.models.ceilings->launch)) return "";
  const CeilingsReport& ceilings = *results.models.ceilings;
  std::string html = "<section id=\"link-ceilings\">\n<h3>Host link and launch</h3>\n";
  if (ceilings.link) {
    html += "<p class=\"muted\">Each strategy timed over a sweep of sizes with profiling events, fitted as latency + "
            "bytes / "
            "bandwidth. A zero-copy strategy moves no data: its time is the map's own, not a link speed.</p>\n";
    html += "<table class=\"ceilings\">\n<thead><tr>" + th("Strategy") + th("Direction") + th("Bandwidth") +
            th("Latency") + th("Calls") + "</tr></thead>\n<tbody>\n";
    std::vector<const LinkCeiling*> rows;
    for (const LinkCeiling& ceiling : ceilings.link->transfers) rows.push_back(&ceiling);
    if (ceilings.link->host_memcpy) rows.push_back(&*ceilings.link->host_memcpy);
    for (const LinkCeiling* c : rows) {
      std::string bandwidth = c->zero_copy ? "zero-copy" : c->gbps ? formatRate(*c->gbps) + " GB/s" : "–";
      html += "<tr>" + tdText(toString(c->strategy)) + tdText(toString(c->direction));
      html += c->zero_copy ? td("<span title=\"" + escapeHtml(zeroCopyEvidenceText(*c)) + "\">zero-copy</span>")
                           : tdText(bandwidth, "num");
      html += tdText(c->latency_ns ? formatDurationNs(*c->latency_ns) : "–", "num");
      html += c->error ? td("<span class=\"bad\">" + escapeHtml(*c->error) + "</span>") : tdText(c->calls);
      html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
  }
  if (ceilings.launch) {
    const LaunchCeilings& launch = *ceilings.launch;
    html += "<p>Launch of an empty kernel: queued → start " + escapeHtml(figureText(launch.queued_to_start)) +
            " (the launch latency), submitted → end " + escapeHtml(figureText(launch.submit_to_end)) +
            ", back to back " + escapeHtml(figureText(launch.back_to_back)) + " a launch.";
    if (launch.error) html += " <span class=\"bad\">" + escapeHtml(*launch.error) + "</span>";
    html += "</p>\n";
  }
  return html + "</section>\n";
}

}  // namespace rooflab::reports
