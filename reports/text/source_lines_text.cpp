#include "reports/text/source_lines_text.hpp"

#include <algorithm>

#include "analyzer/support/terminal_text.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/stall_reason_text.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

constexpr std::size_t kTerminalHotLines = 3;

// Whole percents: a line's share of samples is a sampled estimate, and its tenths would be noise.
std::string wholePercent(double fraction) { return formatFixed(fraction * 100, 0) + "%"; }

std::string sampleCount(std::int64_t count) { return formatCount(static_cast<double>(count)); }

// The rows' cells padded to their columns, two spaces apart; `right` aligns a column to the right.
std::vector<std::string> alignedRows(const std::vector<std::vector<std::string>>& rows,
                                     const std::vector<bool>& right) {
  std::vector<std::size_t> widths(right.size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], screenColumns(row[i]));
  std::vector<std::string> lines;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      const bool last = i + 1 == row.size();
      line += (i ? "  " : "") + (last && !right[i] ? row[i] : padded(row[i], widths[i], right[i]));
    }
    lines.push_back(line);
  }
  return lines;
}

std::string stallPhrase(const std::string& reason) {
  const StallReasonWords words = stallReasonWords(reason);
  return words.waiting_on.empty() ? words.name : words.name + ": " + words.waiting_on;
}

}  // namespace

std::string sourceLineText(const SourceLine& where) { return where.file + ":" + std::to_string(where.line); }

std::string hotLineText(const HotLine& hot) {
  return sourceLineText(hot.where) + ", " + wholePercent(hot.share_of_samples) + " of samples, " +
         stallPhrase(hot.stall_reason);
}

std::int64_t attributedSamples(const LineSampling& sampling) {
  std::int64_t sum = 0;
  for (const LineSamples& line : sampling.lines) sum += std::max<std::int64_t>(line.samples, 0);
  return sum;
}

std::vector<const LineSamples*> hottestLines(const LineSampling& sampling, std::size_t count) {
  std::vector<const LineSamples*> lines;
  for (const LineSamples& line : sampling.lines)
    if (line.samples > 0) lines.push_back(&line);
  std::stable_sort(lines.begin(), lines.end(),
                   [](const LineSamples* a, const LineSamples* b) { return a->samples > b->samples; });
  if (lines.size() > count) lines.resize(count);
  return lines;
}

const StallReasonSamples* dominantStall(const LineSamples& line) {
  const StallReasonSamples* dominant = nullptr;
  for (const StallReasonSamples& stall : line.stalls)
    if (stall.samples > 0 && (dominant == nullptr || stall.samples > dominant->samples)) dominant = &stall;
  return dominant;
}

std::string lineSamplingSummaryText(const LineSampling& sampling) {
  const std::int64_t attributed = attributedSamples(sampling);
  const std::int64_t elsewhere = std::max<std::int64_t>(sampling.total_samples - attributed, 0);
  return sampleCount(sampling.total_samples) + " warp samples (one per SM every 2^" +
         std::to_string(sampling.sampling_period_log2) + " cycles): " + sampleCount(attributed) +
         " at lines of the program's files, " + sampleCount(elsewhere) + " elsewhere, " +
         sampleCount(sampling.dropped_samples) + " dropped";
}

std::string lineSamplingMissingText(const LineSampling& sampling) {
  return "No per-line samples: " + (sampling.reason.empty() ? std::string("no reason was recorded") : sampling.reason);
}

void printHottestLines(const AnalysedResults& results, std::ostream& out) {
  for (const AnalysedRecord& record : results.records) {
    if (record.mode != RunMode::normal || !record.line_sampling || !record.line_sampling->available) continue;
    const LineSampling& sampling = *record.line_sampling;
    const std::vector<const LineSamples*> hottest = hottestLines(sampling, kTerminalHotLines);
    if (hottest.empty()) continue;
    const double attributed = static_cast<double>(attributedSamples(sampling));
    std::vector<std::vector<std::string>> rows;
    for (const LineSamples* line : hottest) {
      const StallReasonSamples* stall = dominantStall(*line);
      rows.push_back({sourceLineText(line->where), wholePercent(static_cast<double>(line->samples) / attributed),
                      stall != nullptr ? stallPhrase(stall->reason) : "-"});
    }
    out << terminalText("hottest lines of " + record.family + "/" + record.variant + " " + recordParamsText(record) +
                        " (share of " + sampleCount(attributedSamples(sampling)) + " warp samples at its lines):")
        << '\n';
    for (const std::string& line : alignedRows(rows, {false, true, false})) out << terminalText("  " + line) << '\n';
    if (record.diagnosis && record.diagnosis->hot_line)
      out << terminalText("  diagnosis, hot line: " + hotLineText(*record.diagnosis->hot_line)) << '\n';
  }
}

}  // namespace rooflab::reports
