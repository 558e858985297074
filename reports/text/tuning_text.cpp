// A tuning search's summary on the terminal and its space as CSV.
#include "reports/text/tuning_text.hpp"

#include <cctype>
#include <cmath>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/format.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

std::string configurationText(const TuningResult& result, std::size_t c) {
  std::string text;
  for (std::size_t d = 0; d < result.dimensions.size(); ++d)
    text += (d ? " " : "") + result.dimensions[d].name + "=" + formatNumber(result.configurations[c].values[d]);
  return text;
}

std::string optionalNumber(const std::optional<double>& value) { return value ? formatRoundTrip(*value) : ""; }

// Four significant digits, as printf's %.4g wrote them when the search wrote this line.
std::string durationText(double ns) {
  return ns >= 1e6 ? formatGeneral(ns / 1e6, 4) + " ms" : formatGeneral(ns / 1e3, 4) + " us";
}

}  // namespace

std::string tuningFileStem(const TuningResult& result) {
  return "tune-" + fileSafe(result.family) + "-" + fileSafe(result.variant);
}

std::string bestConfigurationText(const TuningResult& result) {
  return result.best ? configurationText(result, *result.best) : "";
}

void printTuningSummary(const TuningResult& result, std::ostream& out) {
  out << "\ntune " << result.family << "/" << result.variant << ": ";
  if (!result.best) {
    out << "no configuration ran and verified (" << result.evaluations << " tried of " << result.valid << " valid)\n";
  } else {
    const TunedConfiguration& best = result.configurations[*result.best];
    out << "best " << configurationText(result, *result.best) << ": " << formatDurationNs(*best.median_ns);
    if (best.lower_ns && best.upper_ns)
      out << " (" << formatDurationNs(*best.lower_ns) << " to " << formatDurationNs(*best.upper_ns) << ", 95%)";
    if (best.rate) out << ", " << formatRate(*best.rate) << " " << result.rate_unit;
    if (best.rate && result.roof_rate) out << " (" << formatPercent(*best.rate / *result.roof_rate) << " of the roof)";
    if (result.baseline && result.configurations[*result.baseline].median_ns)
      out << "; " << formatSpeedup(*result.configurations[*result.baseline].median_ns / *best.median_ns)
          << " the variant as written";
    out << "\n";
  }
  std::size_t failed = 0;
  for (const TunedConfiguration& c : result.configurations)
    failed += c.outcome == ConfigurationOutcome::build_failed ||
              c.outcome == ConfigurationOutcome::verification_failed || c.outcome == ConfigurationOutcome::failed;
  out << "  " << toString(result.searcher) << " searcher: " << result.evaluations << " of " << result.valid
      << " valid configurations run (" << result.configurations.size() << " in the space, " << failed
      << " failed); stopped: " << result.stop_reason << "\n";
}

void writeTuningCsv(const TuningResult& result, std::ostream& out) {
  std::vector<std::string> header;
  for (const TuningDimension& d : result.dimensions) header.push_back(d.name);
  for (const char* column :
       {"outcome", "order", "resumed", "median_ns", "lower_ns", "upper_ns", "rate", "rate_unit", "best", "reason"})
    header.push_back(column);
  auto row = [&](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
    out << line << "\r\n";
  };
  row(header);
  for (std::size_t c = 0; c < result.configurations.size(); ++c) {
    const TunedConfiguration& t = result.configurations[c];
    std::vector<std::string> fields;
    for (double value : t.values) fields.push_back(formatRoundTrip(value));
    fields.push_back(toString(t.outcome));
    fields.push_back(t.order ? std::to_string(*t.order) : "");
    fields.push_back(t.resumed ? "1" : "0");
    for (const auto& value : {t.median_ns, t.lower_ns, t.upper_ns, t.rate}) fields.push_back(optionalNumber(value));
    fields.push_back(result.rate_unit);
    fields.push_back(result.best && *result.best == c ? "1" : "0");
    fields.push_back(t.reason);
    row(fields);
  }
}

std::vector<std::filesystem::path> writeTuningCsvReports(const AnalysedResults& results,
                                                         const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> files;
  for (const TuningResult& result : results.tuning) {
    std::ostringstream text;
    writeTuningCsv(result, text);
    files.push_back(out_dir / (tuningFileStem(result) + ".csv"));
    writeFileAtomically(files.back(), text.str());
  }
  return files;
}

std::string tuneProgressText(const TuningResult& result, std::size_t c, std::size_t budget) {
  const TunedConfiguration& t = result.configurations[c];
  std::string line = "rooflab: tune " + result.family + "/" + result.variant + " [" +
                     std::to_string(result.evaluations) + "/" + std::to_string(budget) + "] " +
                     configurationText(result, c) + ": ";
  if (t.outcome == ConfigurationOutcome::ok && t.median_ns) {
    line += durationText(*t.median_ns);
    if (t.rate) line += ", " + formatNumber(std::round(*t.rate * 10) / 10) + " " + result.rate_unit;
  } else {
    line += toString(t.outcome);
  }
  if (t.resumed) line += " (from the journal)";
  return line;
}

}  // namespace rooflab::reports
