#include "reports/text/diff_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analyzer/support/terminal_text.hpp"
#include "reports/text/diff_text.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string optionalFigure(const std::optional<double>& value, std::string (*format)(double)) {
  return value ? format(*value) : "-";
}

// "0.43", "0.012", "2.0e-06": small p-values in exponent form, where fixed digits would be all zeros.
std::string pValueText(double p) {
  if (!(p > 0) || p >= 1e-3) return formatSignificant(p, 2);
  int exponent = static_cast<int>(std::floor(std::log10(p)));
  double mantissa = p / std::pow(10.0, exponent);
  if (mantissa >= 9.95) {  // would round to "10.0"
    mantissa /= 10;
    ++exponent;
  }
  const std::string digits = std::to_string(-exponent);
  return formatFixed(mantissa, 1) + "e-" + (digits.size() < 2 ? "0" : "") + digits;
}

// "OLD's median is 2.40 ms but its repetitions' is 3.10 ms; NEW's ..."
std::string mismatchText(const PointComparison& point) {
  std::string text;
  for (const auto& [side, mismatch] :
       {std::pair{"OLD", &point.old_median_mismatch}, std::pair{"NEW", &point.new_median_mismatch}}) {
    if (!*mismatch) continue;
    text += std::string(text.empty() ? "" : "; ") + side + "'s median is " +
            formatDurationNs((*mismatch)->stated_median_ns) + " but its repetitions' is " +
            formatDurationNs((*mismatch)->repetitions_median_ns);
  }
  return text + ": compared on the stated medians, without the test on the repetitions";
}

// Why the verdict, when the table's numbers do not say it; "" when they do.
std::string reasonText(const PointComparison& point, const RunComparisonOptions& options) {
  switch (point.reason) {
    case VerdictReason::none: return "";
    case VerdictReason::same_fault_in_both: return toString(point.old_status) + " in both runs";
    case VerdictReason::status_changed:
      return "OLD: " + toString(point.old_status) + ", NEW: " + toString(point.new_status);
    case VerdictReason::no_timings: return "no timings";
    case VerdictReason::no_repetitions: return toString(point.side_without_repetitions) + " has no repetitions to test";
    case VerdictReason::old_median_not_positive: return "OLD's median time is not positive";
    case VerdictReason::stated_median_mismatch: return mismatchText(point);
    case VerdictReason::within_drift:
      return "the control kernel beside it moved " + signedPercent(point.drift->drift - 1) + ", " +
             signedPercent(point.drift->corrected_ratio - 1) + " once that is taken out";
    case VerdictReason::hidden_by_drift:
      return signedPercent(point.comparison->ratio.ratio - 1) + " as measured, " +
             signedPercent(point.drift->corrected_ratio - 1) + " once the control kernel's " +
             signedPercent(point.drift->drift - 1) + " is taken out";
    case VerdictReason::too_few_repetitions:
      return std::to_string(point.old_repetitions) + " + " + std::to_string(point.new_repetitions) +
             " repetitions cannot reach p < " + settingText(options.alpha);
    case VerdictReason::now_errors: return "ran before, now errors";
    case VerdictReason::now_fails_verification: return "now fails verification";
  }
  return "";
}

using Row = std::vector<std::string>;

// The table's rows, the header first; the drift column only where both runs timed the control
// kernel, so that older files print as they did.
std::vector<Row> tableRows(const RunComparison& comparison) {
  const std::string confidence = settingText((1 - comparison.options.alpha) * 100) + "%";
  std::vector<Row> rows = {
      {"record", "old median", "new median", "change", "new/old (" + confidence + " interval)", "p-value", "verdict"}};
  if (comparison.drift) rows.front().insert(rows.front().end() - 1, "drift");
  for (const PointComparison& point : comparison.matched) {
    std::string change_text = point.time_change ? signedPercent(*point.time_change) : "-";
    if (!point.time_change && point.old_status != point.new_status) {
      change_text = toString(point.old_status) + " -> " + toString(point.new_status);
    }
    std::string ratio_text = "-", p_text = "-";
    if (point.comparison) {
      const RatioInterval& ratio = point.comparison->ratio;
      ratio_text =
          formatFixed(ratio.ratio, 3) + " [" + formatFixed(ratio.lower, 3) + ", " + formatFixed(ratio.upper, 3) + "]";
      p_text = pValueText(point.comparison->p_value);
    }
    const std::string reason = reasonText(point, comparison.options);
    rows.push_back({pointKeyText(point.key), optionalFigure(point.old_median_ns, &formatDurationNs),
                    optionalFigure(point.new_median_ns, &formatDurationNs), change_text, ratio_text, p_text,
                    toString(point.verdict) + (reason.empty() ? "" : ": " + reason)});
    if (comparison.drift)
      rows.back().insert(rows.back().end() - 1, point.drift ? signedPercent(point.drift->drift - 1) : "-");
  }
  return rows;
}

// Columns as wide as their widest cell (in characters, not bytes): names and verdicts left, numbers right.
void printTable(const std::vector<Row>& rows, std::ostream& out) {
  auto width = [](const std::string& text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string padding(widths[i] - width(row[i]), ' ');
      const bool left = i == 0 || i + 1 == row.size();
      line += left ? row[i] + padding : padding + row[i];
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << terminalText(line) << '\n';
  }
}

// "1 improved, 38 unchanged within noise, 3 not compared": every verdict but regressed that some point has.
std::string verdictCountsText(const RunComparison& comparison) {
  std::string counts;
  for (const PointVerdict verdict :
       {PointVerdict::improved, PointVerdict::unchanged_within_noise, PointVerdict::unchanged_within_drift,
        PointVerdict::inconclusive_drift, PointVerdict::not_compared}) {
    if (const std::size_t n = comparison.count(verdict)) {
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " +
                (verdict == PointVerdict::improved             ? std::string("improved")
                 : verdict == PointVerdict::inconclusive_drift ? std::string("inconclusive (drift)")
                                                               : toString(verdict));
    }
  }
  return counts;
}

void printVerdictLine(const RunComparison& comparison, std::ostream& out) {
  const RunComparisonOptions& options = comparison.options;
  const std::string rule = "a change counts when p < " + settingText(options.alpha) +
                           " and the median moved by more than " + settingText(options.min_effect * 100) + "%" +
                           (comparison.drift ? ", also once the drift beside it is taken out" : "");
  const std::string matched = std::to_string(comparison.matched.size()) + " matched records";
  const std::string counts = verdictCountsText(comparison);
  if (comparison.outcome == ComparisonOutcome::regressed) {
    out << "REGRESSED: " << comparison.count(PointVerdict::regressed) << " of " << matched
        << (counts.empty() ? "" : "; " + counts) << " (" << rule << ")\n";
  } else if (comparison.outcome == ComparisonOutcome::inconclusive) {
    out << "INCONCLUSIVE: no regression shown among " << matched << ", but the drift may hide a change in "
        << comparison.count(PointVerdict::inconclusive_drift) << " (" << counts << "; " << rule
        << "); rerun, or compare in one batch with rooflab ab\n";
  } else {
    out << "no regression among " << matched << (counts.empty() ? "" : ": " + counts) << " (" << rule << ")\n";
  }
}

}  // namespace

void printDiff(const RunComparison& comparison, std::ostream& out) {
  if (comparison.refusal) {
    out << "not compared: " << refusalText(*comparison.refusal) << '\n';
    return;
  }
  printTable(tableRows(comparison), out);
  for (const PointKey& key : comparison.added) out << "added:   " << terminalText(pointKeyText(key)) << '\n';
  for (const PointKey& key : comparison.removed) out << "removed: " << terminalText(pointKeyText(key)) << '\n';
  for (const ComparisonWarning& warning : comparison.warnings)
    out << "warning: " << terminalText(warningText(warning)) << '\n';
  printVerdictLine(comparison, out);
}

}  // namespace rooflab::reports
