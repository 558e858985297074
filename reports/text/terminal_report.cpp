#include "reports/text/terminal_report.hpp"
#include "analyzer/support/terminal_text.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "reports/text/device_comparison.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/part_text.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/source_lines_text.hpp"
#include "reports/text/capture_timeline_text.hpp"
#include "reports/text/end_to_end_text.hpp"
#include "reports/text/what_if_text.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

// An error message can be a whole build log; the table keeps one line of it.
constexpr std::size_t kMaxErrorColumnChars = 56;

std::string shortened(const std::string& text, std::size_t max_chars) {
  if (screenColumns(text) <= max_chars) return text;
  std::string result;
  std::size_t code_points = 0;
  for (unsigned char byte : text) {
    const bool starts_code_point = (byte & 0xC0) != 0x80;
    if (starts_code_point && ++code_points > max_chars - 1) break;
    result += static_cast<char>(byte);
  }
  return result + "…";
}

enum class Align { left, right };

struct Column {
  std::string title;
  Align align;
};

std::string optionalText(const std::optional<double>& value, std::string (*format)(double)) {
  return value ? format(*value) : "-";
}

// One line per what-if record, under the table: its check, its predicted gain and the real
// optimisation's measured gain.
void printWhatIfs(const AnalysedResults& results, std::ostream& out) {
  for (const AnalysedRecord& record : results.records) {
    if (record.mode != RunMode::what_if || !record.what_if) continue;
    const WhatIfRun& run = *record.what_if;
    const WhatIfOutcome w = record.what_if_outcome.value_or(WhatIfOutcome{});
    std::string line =
        "what-if " + record.family + "/" + record.variant + " " + run.name + " " + recordParamsText(record) + ": ";
    if (record.status != RecordStatus::ok) {
      line += toString(record.status) + ": " + firstLine(record.status_reason);
    } else {
      line += whatIfPredictedText(w);
      if (!run.realised_by.empty()) line += "; " + whatIfRealisedText(run, w);
      line += "; " + whatIfCheckText(run, w);
    }
    out << terminalText(line) << '\n';
  }
}

// A record with no position on the roofline says so first: its diagnosis cannot name a roof.
std::string diagnosisCell(const AnalysedRecord& record) {
  const std::string diagnosis = record.diagnosis ? summaryText(*record.diagnosis) : "-";
  if (const auto unplaced = unplacedText(record)) return *unplaced + (record.diagnosis ? "; " + diagnosis : "");
  return diagnosis;
}

}  // namespace

void printTerminalSummary(const AnalysedResults& results, std::ostream& out) {
  const std::vector<Column> columns = {{"family/variant", Align::left}, {"params", Align::left},
                                       {"mode", Align::left},           {"median", Align::right},
                                       {"GFLOP/s", Align::right},       {"GB/s", Align::right},
                                       {"verification", Align::left},   {"diagnosis", Align::left}};
  std::vector<std::vector<std::string>> rows;
  std::size_t ok = 0, errors = 0, skipped = 0, verification_failed = 0;
  for (const AnalysedRecord& record : results.records) {
    std::vector<std::string> row = {record.family + "/" + record.variant, recordParamsText(record),
                                    modeName(record.mode)};
    if (record.device) row.front() += " @" + *record.device;  // a batch on several devices
    if (record.status == RecordStatus::ok) {
      ++ok;
      if (record.verification.status == VerificationStatus::failed) ++verification_failed;
      row.insert(row.end(),
                 {optionalText(record.medianKernelNs(), &formatDurationNs),
                  optionalText(record.achievedGflops(), &formatRate), optionalText(record.achievedGbps(), &formatRate),
                  verificationText(record), diagnosisCell(record)});
    } else {
      (isFault(record.status) ? errors : skipped) += 1;
      const std::string error = firstLine(record.status_reason);
      row.insert(row.end(),
                 {"-", "-", "-",
                  shortened(toString(record.status) + (error.empty() ? "" : ": " + error), kMaxErrorColumnChars), "-"});
    }
    rows.push_back(std::move(row));
  }

  std::vector<std::size_t> widths;
  for (const Column& column : columns) widths.push_back(screenColumns(column.title));
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], screenColumns(row[i]));
  }
  auto printRow = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string padding(widths[i] - screenColumns(cells[i]), ' ');
      const bool last = i + 1 == cells.size();
      line += columns[i].align == Align::right ? padding + cells[i] : cells[i] + (last ? "" : padding);
      if (!last) line += "  ";
    }
    out << terminalText(line) << '\n';
  };
  std::vector<std::string> titles;
  for (const Column& column : columns) titles.push_back(column.title);
  printRow(titles);
  std::vector<std::string> rules;
  for (std::size_t width : widths) rules.push_back(std::string(width, '-'));
  printRow(rules);
  for (const auto& row : rows) printRow(row);
  // std::to_string, not operator<<: a stream imbued with a grouping locale would print "1.234".
  out << std::to_string(rows.size()) + (rows.size() == 1 ? " record: " : " records: ") + std::to_string(ok) + " ok, " +
             std::to_string(errors) + " error, " + std::to_string(skipped) + " skipped, " +
             std::to_string(verification_failed) + " failed verification\n";
  if (const std::string part = batchPartText(results); !part.empty()) out << terminalText(part) << '\n';
  printHottestLines(results, out);
  printWhatIfs(results, out);
  printEndToEnd(results, out);
  if (results.capture_timeline) printCaptureTimeline(*results.capture_timeline, out);
  if (comparesDevices(results)) printDeviceComparison(results, out);
}

}  // namespace rooflab::reports
