#include "reports/diff_report.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "analyzer/results_json.hpp"
#include "reports/number_format.hpp"
#include "reports/results_view.hpp"

namespace rooflab::reports {
namespace {

using MatchKey = std::tuple<std::string, std::string, std::string, std::string>;

MatchKey matchKeyOf(const json& record) {
  // dump() of an object is canonical (keys sorted, numbers in one spelling), so {"N":1024} from
  // either run compares equal.
  return {textAt(record, "family"), textAt(record, "variant"), textAt(record, "mode", "normal"),
          record.value("params", json::object()).dump()};
}

RecordKey recordKeyOf(const json& record) {
  return RecordKey{textAt(record, "family"), textAt(record, "variant"), textAt(record, "mode", "normal"),
                   recordParamsText(record)};
}

std::string verificationStatus(const json& record) {
  const json* verification = memberOrNull(record, "verification");
  return verification != nullptr ? textAt(*verification, "status") : "";
}

std::string deviceName(const json& results) {
  const json* device = memberOrNull(results, "device");
  return device != nullptr ? textAt(*device, "name") : "";
}

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

DiffResult diffResults(const ResultsDocument& old_document, const ResultsDocument& new_document, double threshold) {
  if (!(threshold >= 0)) throw std::invalid_argument("diff: the regression threshold must be >= 0");
  // Interim: the renderer reads the document as JSON until it reads the typed results.
  const json old_run = toJson(old_document), new_run = toJson(new_document);

  DiffResult diff;
  diff.threshold = threshold;
  if (deviceName(old_run) != deviceName(new_run)) {
    diff.warnings.push_back("the runs were made on different devices: \"" + deviceName(old_run) + "\" and \"" +
                            deviceName(new_run) + "\"");
  }

  std::map<MatchKey, const json*> old_by_key;
  for (const json& record : recordsOf(old_run)) {
    if (!old_by_key.emplace(matchKeyOf(record), &record).second) {
      diff.warnings.push_back("the old run holds " + recordKeyOf(record).text() + " twice; the first is compared");
    }
  }
  std::map<MatchKey, bool> seen_in_new;
  for (const json& record : recordsOf(new_run)) {
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
    const json& old_record = *old->second;
    RecordChange change;
    change.key = recordKeyOf(record);
    change.old_status = textAt(old_record, "status");
    change.new_status = textAt(record, "status");
    change.old_verification = verificationStatus(old_record);
    change.new_verification = verificationStatus(record);
    change.old_median_ns = medianKernelNs(old_record);
    change.new_median_ns = medianKernelNs(record);
    change.old_gflops = achievedGflops(old_record);
    change.new_gflops = achievedGflops(record);
    change.old_gbps = achievedGbps(old_record);
    change.new_gbps = achievedGbps(record);
    const bool both_ran = change.old_status == "ok" && change.new_status == "ok";
    if (both_ran && change.old_median_ns && change.new_median_ns && *change.old_median_ns > 0) {
      change.time_change = *change.new_median_ns / *change.old_median_ns - 1.0;
    }
    if (change.time_change && *change.time_change > threshold) {
      change.regressed = true;
      change.regression_reason = signedPercent(*change.time_change) + " median time (threshold " +
                                 formatFixed(threshold * 100.0, 1) + "%)";
    } else if (change.old_status == "ok" && change.new_status == "error") {
      change.regressed = true;
      change.regression_reason = "ran before, now errors";
    } else if (change.old_verification != "failed" && change.new_verification == "failed") {
      change.regressed = true;
      change.regression_reason = "now fails verification";
    }
    diff.regressed = diff.regressed || change.regressed;
    diff.matched.push_back(std::move(change));
  }
  for (const json& record : recordsOf(old_run)) {
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
      change_text = change.old_status + " -> " + change.new_status;
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
