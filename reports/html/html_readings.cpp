#include "reports/html/html_readings.hpp"

#include "reports/html/html_text.hpp"
#include "reports/text/profiler_readings.hpp"
#include "reports/text/record_text.hpp"

namespace rooflab::reports {

std::string profilerReadingsTableHtml(const std::vector<const AnalysedRecord*>& normal_records) {
  std::vector<const AnalysedRecord*> with_readings;
  for (const AnalysedRecord* record : normal_records)
    if (hasProfilerReadings(*record)) with_readings.push_back(record);
  if (with_readings.empty()) return "";

  std::string html = "<h3>Profiler readings</h3>\n<p class=\"muted\">From the counters of each original; "
                     "<a href=\"#profiler-readings\">what each reading tells</a>.</p>\n";
  html += "<table class=\"readings\">\n<thead><tr>" + th("Variant") + th("Params");
  for (const ProfilerReading& reading : profilerReadings(*with_readings.front())) {
    html += "<th title=\"" + escapeHtml(reading.description) + "\">" + escapeHtml(reading.display_name) + "</th>";
  }
  html += "</tr></thead>\n<tbody>\n";
  for (const AnalysedRecord* record : with_readings) {
    html += "<tr>" + tdText(record->variant) + tdText(recordParamsText(*record));
    for (const ProfilerReading& reading : profilerReadings(*record)) {
      if (reading.value) {
        html += td(escapeHtml(formatProfilerReading(reading)), "num");
        continue;
      }
      html += "<td class=\"num muted\" title=\"" + escapeHtml(reading.reason) + "\">–</td>";
    }
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

std::string profilerReadingsLegendHtml(const AnalysedResults& results) {
  if (!anyProfilerReadings(results)) return "";
  std::string html = "<section id=\"profiler-readings\">\n<h2>Profiler readings</h2>\n"
                     "<p class=\"muted\">NVIDIA counters of each original, collected through the PTX bridge; "
                     "a dash means the reading could not be taken (hover it for the reason).</p>\n<dl>\n";
  for (const ProfilerReading& reading : profilerReadings(AnalysedRecord{})) {
    html += "<dt>" + escapeHtml(reading.display_name) + " <span class=\"muted\">(" + escapeHtml(reading.key) + ", " +
            escapeHtml(reading.unit) + ")</span></dt><dd>" + escapeHtml(reading.description) + "</dd>\n";
  }
  return html + "</dl>\n</section>\n";
}

}  // namespace rooflab::reports
