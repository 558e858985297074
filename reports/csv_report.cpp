#include "reports/csv_report.hpp"

#include <optional>
#include <sstream>

#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"
#include "reports/number_format.hpp"
#include "reports/results_view.hpp"

namespace rooflab::reports {
namespace {

constexpr const char* kLineEnd = "\r\n";

std::string numberField(const std::optional<double>& value) { return value ? formatRoundTrip(*value) : ""; }

void writeRow(std::ostream& out, const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
  out << line << kLineEnd;
}

std::string verificationStatus(const json& record) {
  const json* verification = memberOrNull(record, "verification");
  return verification != nullptr ? textAt(*verification, "status") : "";
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

std::vector<std::string> csvHeader(const ResultsDocument& document) {
  // Interim: the renderer reads the document as JSON until it reads the typed results.
  const json results = toJson(document);
  std::vector<std::string> header = {"family", "variant", "mode",  "params", "status", "verification",
                                     "median_ns", "gflops", "gbps", "flops", "bytes", "cgma"};
  for (const std::string& key : placementKeysInOrder(results)) {
    for (const char* column : {"_intensity", "_attainable_gflops", "_fraction_of_roof", "_bound"}) {
      header.push_back(key + column);
    }
  }
  header.push_back("error");
  return header;
}

void writeCsv(const ResultsDocument& document, std::ostream& out) {
  writeRow(out, csvHeader(document));
  // Interim: the renderer reads the document as JSON until it reads the typed results.
  const json results = toJson(document);
  const std::vector<std::string> placement_keys = placementKeysInOrder(results);
  for (const json& record : recordsOf(results)) {
    const json work = record.value("work", json::object());
    std::vector<std::string> row = {textAt(record, "family"), textAt(record, "variant"), textAt(record, "mode"),
                                    recordParamsText(record, ";"), textAt(record, "status"),
                                    verificationStatus(record), numberField(medianKernelNs(record)),
                                    numberField(achievedGflops(record)), numberField(achievedGbps(record)),
                                    numberField(numberAt(work, "flops")), numberField(numberAt(work, "bytes")),
                                    numberField(numberAt(work, "cgma"))};
    for (const std::string& key : placement_keys) {
      const json* placement = placementOn(record, key);
      const json none = json::object();
      const json& on_model = placement != nullptr ? *placement : none;
      row.push_back(numberField(numberAt(on_model, "intensity")));
      row.push_back(numberField(numberAt(on_model, "attainable_gflops")));
      row.push_back(numberField(numberAt(on_model, "fraction_of_roof")));
      row.push_back(textAt(on_model, "bound"));
    }
    row.push_back(textAt(record, "error"));
    writeRow(out, row);
  }
}

void writeCsvReport(const ResultsDocument& results, const std::filesystem::path& file) {
  std::ostringstream csv;
  writeCsv(results, csv);
  writeFileAtomically(file, csv.str());
}

}  // namespace rooflab::reports
