#include "reports/html/html_capture_timeline.hpp"

#include "reports/chart/capture_timeline_chart.hpp"
#include "reports/html/html_text.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/text/capture_timeline_text.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string partsTableHtml(const CaptureTimeline& t) {
  std::string html = "<table class=\"timeline-parts\"><thead><tr>" + th("Part") + th("Time") + th("Share of the span") +
                     th("Own time, summed") + th("Commands") + "</tr></thead><tbody>\n";
  for (const TimelinePartTime& part : t.parts) {
    if (part.commands == 0 && part.exclusive_ns <= 0) continue;
    const bool host = part.part == TimelinePart::host;
    std::string commands = host ? "" : std::to_string(part.commands);
    if (!host && part.timed_commands < part.commands)
      commands += " (" + std::to_string(part.timed_commands) + " timed)";
    html += "<tr>" + tdText(timelinePartName(part.part)) + tdNumber(part.exclusive_ns, &formatDurationNs) +
            tdNumber(t.span_ns > 0 ? part.exclusive_ns / t.span_ns : 0, &formatPercent) +
            (host ? tdText("") : tdNumber(part.sum_ns, &formatDurationNs)) + tdText(commands, "num") + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

std::string transfersTableHtml(const CaptureTimeline& t) {
  if (t.transfers.empty()) return "";
  std::string html = "<h3>Transfers</h3>\n<table class=\"timeline-transfers\"><thead><tr>" + th("Transfer") +
                     th("Rate and ceiling") + th("Another strategy (end-to-end model)") + "</tr></thead><tbody>\n";
  for (const TimelineTransferPattern& pattern : t.transfers)
    html += "<tr>" + tdText(transferPatternName(pattern)) + tdText(transferRateText(pattern)) +
            tdText(transferWhatIfText(pattern)) + "</tr>\n";
  return html + "</tbody></table>\n";
}

std::string hotspotsTableHtml(const CaptureTimeline& t) {
  if (t.kernels.empty()) return "";
  std::string html = "<h3>Hotspots</h3>\n<table class=\"timeline-hotspots\"><thead><tr>" + th("Kernel or launch") +
                     th("Launches") + th("Time") + th("Share of kernel time") + th("Share of the span") +
                     "</tr></thead><tbody>\n";
  auto row = [&](const TimelineHotspot& spot, const std::string& name) {
    html += "<tr>" + tdText(name) + tdText(std::to_string(spot.commands), "num") +
            tdNumber(spot.sum_ns, &formatDurationNs) + tdNumber(spot.share_of_kernels, &formatPercent) +
            tdNumber(spot.share_of_span, &formatPercent) + "</tr>\n";
  };
  for (const TimelineHotspot& spot : t.kernels) row(spot, hotspotName(spot));
  for (const TimelineHotspot& spot : t.launches)
    row(spot, "launch " + std::to_string(*spot.launch_id) + ": " + hotspotName(spot));
  return html + "</tbody></table>\n";
}

}  // namespace

std::string captureTimelineSectionHtml(const AnalysedResults& results, const ChartStyle& style) {
  if (!results.capture_timeline) return "";
  const CaptureTimeline& t = *results.capture_timeline;
  std::string html = "<section class=\"capture\" id=\"capture-timeline\">\n<h2>" + escapeHtml(captureHeadline(t)) +
                     "</h2>\n<p>" + escapeHtml(captureSpanText(t)) + ".</p>\n";
  if (const std::optional<ChartScene> scene = layoutCaptureTimelineChart(t, style))
    html += "<figure>\n" + renderSvgChart(*scene, "capture", "timeline") +
            "<figcaption class=\"muted\">One lane per queue; a box per command from its start to its end, by its "
            "profiling events; the thin bar before a kernel is its launch overhead (ready to "
            "start).</figcaption>\n</figure>\n";
  if (t.span_ns > 0) html += partsTableHtml(t);
  html += "<p>" + escapeHtml(linkUseText(t.link_use)) + ".</p>\n";
  html += transfersTableHtml(t) + hotspotsTableHtml(t);
  if (!t.application_what_ifs.empty()) {
    html += "<h3>The application's kernels and transfers another way</h3>\n<ul>";
    for (const TimelineApplicationWhatIf& what_if : t.application_what_ifs)
      html += "<li>" + escapeHtml(applicationWhatIfText(what_if)) + "</li>";
    html += "</ul>\n";
  }
  for (const std::string& note : captureNotes(t)) html += "<p class=\"muted\">Note: " + escapeHtml(note) + ".</p>\n";
  return html + "</section>\n";
}

}  // namespace rooflab::reports
