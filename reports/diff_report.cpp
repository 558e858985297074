#include "reports/diff_report.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "reports/number_format.hpp"
#include "reports/record_text.hpp"

namespace rooflab::reports {
namespace {

// Params compare as the text of their values in name order: two runs that write N=1024 match
// whatever the manifest's order of names.
using MatchKey = std::tuple<std::string, std::string, RunMode, std::string>;

MatchKey matchKeyOf(const RunRecord& record) {
  std::string params;
  for (const auto& [name, value] : record.params) params += name + "=" + paramValueText(value) + "\n";
  return {record.family, record.variant, record.mode, params};
}

RecordKey recordKeyOf(const RunRecord& record) {
  return RecordKey{record.family, record.variant, modeName(record.mode), recordParamsText(record)};
}

std::string deviceName(const ResultsDocument& results) { return results.device ? results.device->name : ""; }

std::string signedPercent(double change) {
  return (change > 0 ? "+" : "") + formatFixed(change * 100.0, 1) + "%";
}

std::string optionalText(const std::optional<double>& value, std::string (*format)(double)) {
  return value ? format(*value) : "-";
}

}  // namespace

std::string RecordKey::text() const {
  return family + "/" + variant + (params.empty() ? "" : " " + params) + " (" + mode + ")";
}

DiffResult diffResults(const ResultsDocument& old_run, const ResultsDocument& new_run, double threshold) {
  if (!(threshold >= 0)) throw std::invalid_argument("diff: the regression threshold must be >= 0");

  DiffResult diff;
  diff.threshold = threshold;
  if (deviceName(old_run) != deviceName(new_run)) {
    diff.warnings.push_back("the runs were made on different devices: \"" + deviceName(old_run) + "\" and \"" +
                            deviceName(new_run) + "\"");
  }

  std::map<MatchKey, const RunRecord*> old_by_key;
  for (const RunRecord& record : old_run.records) {
    if (!old_by_key.emplace(matchKeyOf(record), &record).second) {
      diff.warnings.push_back("the old run holds " + recordKeyOf(record).text() + " twice; the first is compared");
    }
  }
  std::map<MatchKey, bool> seen_in_new;
  for (const RunRecord& record : new_run.records) {
    const MatchKey key = matchKeyOf(record);
    if (seen_in_new[key]) {
      diff.warnings.push_back("the new run holds " + recordKeyOf(record).text() + " twice; the first is compared");
      continue;
    }
    seen_in_new[key] = true;
    const auto old = old_by_key.find(key);
    if (old == old_by_key.end()) {
      diff.added.push_back(recordKeyOf(record));
      continue;
    }
    const RunRecord& old_record = *old->second;
    RecordChange change;
    change.key = recordKeyOf(record);
    change.old_status = old_record.status;
    change.new_status = record.status;
    change.old_verification = toString(old_record.verification.status);
    change.new_verification = toString(record.verification.status);
    change.old_median_ns = old_record.medianKernelNs();
    change.new_median_ns = record.medianKernelNs();
    change.old_gflops = old_record.achievedGflops();
    change.new_gflops = record.achievedGflops();
    change.old_gbps = old_record.achievedGbps();
    change.new_gbps = record.achievedGbps();
    const bool both_ran = change.old_status == RecordStatus::ok && change.new_status == RecordStatus::ok;
    if (both_ran && change.old_median_ns && change.new_median_ns && *change.old_median_ns > 0) {
      change.time_change = *change.new_median_ns / *change.old_median_ns - 1.0;
    }
    if (change.time_change && *change.time_change > threshold) {
      change.regressed = true;
      change.regression_reason = signedPercent(*change.time_change) + " median time (threshold " +
                                 formatFixed(threshold * 100.0, 1) + "%)";
    } else if (change.old_status == RecordStatus::ok && change.new_status == RecordStatus::error) {
      change.regressed = true;
      change.regression_reason = "ran before, now errors";
    } else if (change.old_verification != "failed" && change.new_verification == "failed") {
      change.regressed = true;
      change.regression_reason = "now fails verification";
    }
    diff.regressed = diff.regressed || change.regressed;
    diff.matched.push_back(std::move(change));
  }
  for (const RunRecord& record : old_run.records) {
    if (!seen_in_new.count(matchKeyOf(record))) diff.removed.push_back(recordKeyOf(record));
  }
  return diff;
}

void printDiff(const DiffResult& diff, std::ostream& out) {
  std::vector<std::vector<std::string>> rows = {
      {"record", "old median", "new median", "change", "old GFLOP/s", "new GFLOP/s", ""}};
  for (const RecordChange& change : diff.matched) {
    std::string change_text = change.time_change ? signedPercent(*change.time_change) : "-";
    if (!change.time_change && change.old_status != change.new_status) {
      change_text = toString(change.old_status) + " -> " + toString(change.new_status);
    }
    rows.push_back({change.key.text(), optionalText(change.old_median_ns, &formatDurationNs),
                    optionalText(change.new_median_ns, &formatDurationNs), change_text,
                    optionalText(change.old_gflops, &formatRate), optionalText(change.new_gflops, &formatRate),
                    change.regressed ? "REGRESSION: " + change.regression_reason : ""});
  }
  auto width = [](const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
                                                  [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string padding(widths[i] - width(row[i]), ' ');
      line += i == 0 ? row[i] + padding : padding + row[i];  // names left, numbers right
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
  for (const RecordKey& key : diff.added) out << "added:   " << key.text() << '\n';
  for (const RecordKey& key : diff.removed) out << "removed: " << key.text() << '\n';
  for (const std::string& warning : diff.warnings) out << "warning: " << warning << '\n';
  const auto regressions = std::count_if(diff.matched.begin(), diff.matched.end(),
                                         [](const RecordChange& change) { return change.regressed; });
  out << (diff.regressed ? "REGRESSED: " + std::to_string(regressions) + " of " + std::to_string(diff.matched.size()) +
                               " matched records"
                         : "no regression among " + std::to_string(diff.matched.size()) + " matched records")
      << " (threshold " << formatFixed(diff.threshold * 100.0, 1) << "% slower median time)\n";
}

}  // namespace rooflab::reports
