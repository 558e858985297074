#include "reports/csv_report.hpp"

#include <optional>
#include <sstream>

#include "analyzer/json_file.hpp"
#include "reports/known_value.hpp"
#include "reports/number_format.hpp"
#include "reports/record_text.hpp"
#include "reports/results_order.hpp"

namespace rooflab::reports {
namespace {

constexpr const char* kLineEnd = "\r\n";

std::string numberField(const std::optional<double>& value) { return value ? formatRoundTrip(*value) : ""; }

void writeRow(std::ostream& out, const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
  out << line << kLineEnd;
}

// The interval columns appear when a record was measured to a noise target, so that older results
// re-render as they did.
bool hasIntervals(const ResultsDocument& results) {
  for (const RunRecord& record : results.records)
    if (record.timings && record.timings->kernel_ns_interval) return true;
  return false;
}

void appendIntervalFields(const RunRecord& record, std::vector<std::string>& row) {
  if (!record.timings || !record.timings->kernel_ns_interval) {
    row.insert(row.end(), 4, "");
    return;
  }
  const KernelTimeInterval& interval = *record.timings->kernel_ns_interval;
  row.push_back(numberField(known(interval.lower_ns)));
  row.push_back(numberField(known(interval.upper_ns)));
  row.push_back(numberField(interval.noise));
  row.push_back(interval.converged ? "true" : "false");
}

// The diagnosis columns appear when a record has a diagnosis (normal records: the bound with its
// memory level, the confidence, the evidence and disagreements joined by " | ").
bool hasDiagnoses(const ResultsDocument& results) {
  for (const RunRecord& record : results.records)
    if (record.diagnosis) return true;
  return false;
}

void appendDiagnosisFields(const RunRecord& record, std::vector<std::string>& row) {
  if (!record.diagnosis) {
    row.insert(row.end(), 3, "");
    return;
  }
  const Diagnosis& diagnosis = *record.diagnosis;
  std::string evidence;
  for (const DiagnosisEvidence& item : diagnosis.evidence) evidence += (evidence.empty() ? "" : " | ") + evidenceText(item);
  for (const DiagnosisDisagreement& item : diagnosis.disagreements)
    evidence += (evidence.empty() ? "" : " | ") + std::string("disagreement: ") + item.why;
  row.insert(row.end(), {boundText(diagnosis), toString(diagnosis.confidence), evidence});
}

}  // namespace

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::vector<std::string> csvHeader(const ResultsDocument& results) {
  std::vector<std::string> header = {"family", "variant", "mode",  "params", "status", "verification",
                                     "median_ns", "gflops", "gbps", "flops", "bytes", "cgma"};
  if (hasIntervals(results))
    header.insert(header.begin() + 7, {"median_ns_low", "median_ns_high", "noise", "converged"});
  for (const std::string& key : placementKeysInOrder(results)) {
    for (const char* column : {"_intensity", "_attainable_gflops", "_fraction_of_roof", "_bound"}) {
      header.push_back(key + column);
    }
  }
  header.push_back("error");
  if (hasDiagnoses(results)) header.insert(header.end(), {"diagnosis_bound", "diagnosis_confidence", "diagnosis_evidence"});
  return header;
}

void writeCsv(const ResultsDocument& results, std::ostream& out) {
  writeRow(out, csvHeader(results));
  const std::vector<std::string> placement_keys = placementKeysInOrder(results);
  const bool intervals = hasIntervals(results);
  const bool diagnoses = hasDiagnoses(results);
  for (const RunRecord& record : results.records) {
    std::vector<std::string> row = {record.family, record.variant, modeName(record.mode),
                                    recordParamsText(record, ";"), toString(record.status),
                                    toString(record.verification.status), numberField(record.medianKernelNs()),
                                    numberField(record.achievedGflops()), numberField(record.achievedGbps()),
                                    numberField(known(record.work.flops)), numberField(known(record.work.bytes)),
                                    numberField(known(record.work.cgma()))};
    if (intervals) {
      std::vector<std::string> interval_fields;
      appendIntervalFields(record, interval_fields);
      row.insert(row.begin() + 7, interval_fields.begin(), interval_fields.end());
    }
    for (const std::string& key : placement_keys) {
      const RooflinePlacement* placement = placementOn(record, key);
      if (placement == nullptr) {
        row.insert(row.end(), 4, "");
        continue;
      }
      row.push_back(numberField(known(placement->intensity)));
      row.push_back(numberField(known(placement->attainable_gflops)));
      row.push_back(numberField(known(placement->fraction_of_roof)));
      row.push_back(toString(placement->bound));
    }
    row.push_back(record.status_reason);
    if (diagnoses) appendDiagnosisFields(record, row);
    writeRow(out, row);
  }
}

void writeCsvReport(const ResultsDocument& results, const std::filesystem::path& file) {
  std::ostringstream csv;
  writeCsv(results, csv);
  writeFileAtomically(file, csv.str());
}

}  // namespace rooflab::reports
