#include "reports/text/csv_report.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/source_lines_text.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/profiler_readings.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

constexpr const char* kLineEnd = "\r\n";
constexpr const char* kParamPrefix = "param_";

std::string numberField(const std::optional<double>& value) { return value ? formatRoundTrip(*value) : ""; }

void writeRow(std::ostream& out, const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
  out << line << kLineEnd;
}

// The interval columns appear when a record was measured to a noise target, so that older results
// keep their columns' meaning.
bool hasIntervals(const AnalysedResults& results) {
  for (const AnalysedRecord& record : results.records)
    if (record.timings && record.timings->kernel_ns_interval) return true;
  return false;
}

// Every param any record has, in the order the records name them (each record's param_order, then
// its other params alphabetically, as the params column writes them): a stable column per param.
std::vector<std::string> paramNames(const AnalysedResults& results) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const AnalysedRecord& record : results.records) {
    for (const std::string& name : record.param_order)
      if (record.params.count(name) != 0) add(name);
    for (const auto& [name, value] : record.params) add(name);
  }
  return names;
}

// The columns of one results document, resolved once for the header and every row.
// The diagnosis columns appear when a record has a diagnosis (normal records: the bound with its
// memory level, the confidence, the evidence and disagreements joined by " | ").
bool hasDiagnoses(const AnalysedResults& results) {
  for (const AnalysedRecord& record : results.records)
    if (record.diagnosis) return true;
  return false;
}

void appendDiagnosisFields(const AnalysedRecord& record, std::vector<std::string>& row) {
  if (!record.diagnosis) {
    row.insert(row.end(), 3, "");
    return;
  }
  const Diagnosis& diagnosis = *record.diagnosis;
  std::string evidence;
  for (const DiagnosisEvidence& item : diagnosis.evidence)
    evidence += (evidence.empty() ? "" : " | ") + evidenceText(item);
  for (const DiagnosisDisagreement& item : diagnosis.disagreements)
    evidence += (evidence.empty() ? "" : " | ") + std::string("disagreement: ") + disagreementText(item);
  if (diagnosis.hot_line)
    evidence += (evidence.empty() ? "" : " | ") + std::string("hot line: ") + hotLineText(*diagnosis.hot_line);
  row.insert(row.end(), {boundText(diagnosis), toString(diagnosis.confidence), evidence});
}

struct CsvColumns {
  std::vector<std::string> params;
  bool intervals = false;
  std::vector<std::string> placement_keys;
  bool readings = false;  // the profiler readings' columns, when a record carries them
  bool diagnoses = false;
  bool devices = false;  // a batch on several devices: the key of the device each record ran on
};

CsvColumns csvColumns(const AnalysedResults& results) {
  const bool devices = std::any_of(results.records.begin(), results.records.end(),
                                   [](const AnalysedRecord& r) { return r.device.has_value(); });
  return {paramNames(results),          hasIntervals(results), placementKeysInOrder(results),
          anyProfilerReadings(results), hasDiagnoses(results), devices};
}

void appendIntervalFields(const AnalysedRecord& record, std::vector<std::string>& row) {
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

// The fastest and the slowest timed run: the spread a median hides.
void appendSpreadFields(const AnalysedRecord& record, std::vector<std::string>& row) {
  if (!record.timings || record.timings->kernel_ns.count == 0) {
    row.insert(row.end(), 2, "");
    return;
  }
  row.push_back(numberField(known(record.timings->kernel_ns.min)));
  row.push_back(numberField(known(record.timings->kernel_ns.max)));
}

void appendPlacementFields(const RooflinePlacement* placement, std::vector<std::string>& row) {
  if (placement == nullptr) {
    row.insert(row.end(), 4, "");
    return;
  }
  row.push_back(numberField(known(placement->intensity)));
  row.push_back(numberField(known(placement->attainable_gflops)));
  row.push_back(numberField(known(placement->fraction_of_roof)));
  row.push_back(toString(placement->bound));
}

std::vector<std::string> csvRow(const AnalysedRecord& record, const CsvColumns& columns) {
  std::vector<std::string> row = {record.family, record.variant, modeName(record.mode), recordParamsText(record, ";")};
  for (const std::string& name : columns.params) {
    const auto value = record.params.find(name);
    row.push_back(value != record.params.end() ? paramValueText(value->second) : "");
  }
  row.insert(row.end(),
             {toString(record.status), toString(record.verification.status), numberField(record.medianKernelNs())});
  if (columns.intervals) appendIntervalFields(record, row);
  appendSpreadFields(record, row);
  row.insert(row.end(), {numberField(record.achievedGflops()), numberField(record.achievedGbps()),
                         numberField(known(record.work.flops)), numberField(known(record.work.bytes)),
                         numberField(known(record.work.cgma()))});
  for (const std::string& key : columns.placement_keys) appendPlacementFields(placementOn(record, key), row);
  // A reading that could not be taken is an empty field.
  if (columns.readings)
    for (const ProfilerReading& reading : profilerReadings(record)) row.push_back(numberField(reading.value));
  row.push_back(record.status_reason);
  if (columns.diagnoses) appendDiagnosisFields(record, row);
  if (columns.devices) row.push_back(record.device.value_or(""));
  return row;
}

std::vector<std::string> csvHeader(const CsvColumns& columns) {
  std::vector<std::string> header = {"family", "variant", "mode", "params"};
  for (const std::string& name : columns.params) header.push_back(kParamPrefix + name);
  header.insert(header.end(), {"status", "verification", "median_ns"});
  if (columns.intervals) header.insert(header.end(), {"median_ns_low", "median_ns_high", "noise", "converged"});
  header.insert(header.end(), {"min_ns", "max_ns", "gflops", "gbps", "flops", "bytes", "cgma"});
  for (const std::string& key : columns.placement_keys) {
    for (const char* column : {"_intensity", "_attainable_gflops", "_fraction_of_roof", "_bound"}) {
      header.push_back(key + column);
    }
  }
  if (columns.readings)
    for (const ProfilerReading& reading : profilerReadings(AnalysedRecord{})) header.push_back(reading.key);
  header.push_back("error");
  if (columns.diagnoses) header.insert(header.end(), {"diagnosis_bound", "diagnosis_confidence", "diagnosis_evidence"});
  if (columns.devices) header.push_back("device");
  return header;
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

std::vector<std::string> csvHeader(const AnalysedResults& results) { return csvHeader(csvColumns(results)); }

void writeCsv(const AnalysedResults& results, std::ostream& out) {
  const CsvColumns columns = csvColumns(results);
  writeRow(out, csvHeader(columns));
  for (const AnalysedRecord& record : results.records) writeRow(out, csvRow(record, columns));
}

void writeCsvReport(const AnalysedResults& results, const std::filesystem::path& file) {
  std::ostringstream csv;
  writeCsv(results, csv);
  writeFileAtomically(file, csv.str());
}

}  // namespace rooflab::reports
