#include "reports/text/device_comparison.hpp"
#include "reports/text/diagnosis_sentences.hpp"

#include <algorithm>

#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

bool familyDoesFlops(const AnalysedResults& results, const std::string& family) {
  for (const AnalysedRecord* record : recordsOfFamily(results, family))
    if (known(record->work.flops).value_or(0.0) > 0) return true;
  return false;
}

DeviceCell cellOf(const AnalysedRecord& record, bool rate_is_flops) {
  DeviceCell cell;
  if (record.status != RecordStatus::ok) {
    cell.status = toString(record.status);
    const std::string why = firstLine(record.status_reason);
    if (!why.empty()) cell.status += ": " + why;
    return cell;
  }
  cell.median_ns = record.medianKernelNs();
  cell.rate = rate_is_flops ? record.achievedGflops() : record.achievedGbps();
  for (const char* key : {"device", "datasheet"}) {
    const RooflinePlacement* placement = placementOn(record, key);
    if (placement != nullptr && known(placement->fraction_of_roof)) {
      cell.fraction_of_roof = known(placement->fraction_of_roof);
      break;
    }
  }
  if (record.diagnosis) cell.diagnosis = summaryText(*record.diagnosis);
  cell.verification_failed = record.verification.status == VerificationStatus::failed;
  return cell;
}

}  // namespace

bool comparesDevices(const AnalysedResults& results) {
  return results.device_mode == DeviceMode::compare && results.device_runs.size() > 1;
}

std::string deviceShortName(const AnalysedResults& results, const DeviceRun& run) {
  const std::size_t same_type =
      static_cast<std::size_t>(std::count_if(results.device_runs.begin(), results.device_runs.end(),
                                             [&](const DeviceRun& other) { return other.info.type == run.info.type; }));
  const std::string type = run.info.type.empty() ? "device" : run.info.type;
  return same_type == 1 ? type : type + " " + run.key;
}

std::vector<AnalysedResults> documentsPerDevice(const AnalysedResults& results) {
  if (!comparesDevices(results)) return {results};
  std::vector<AnalysedResults> documents;
  for (const DeviceRun& run : results.device_runs) {
    AnalysedResults one = results;
    one.records.clear();
    one.device_runs.clear();
    one.device_mode.reset();
    one.device = run.info;
    one.models = run.models;
    one.ceilings_seconds = run.ceilings_seconds;
    for (const AnalysedRecord& record : results.records)
      if (record.device == run.key) one.records.push_back(record);
    documents.push_back(std::move(one));
  }
  return documents;
}

DeviceComparison compareDevices(const AnalysedResults& results) {
  DeviceComparison comparison;
  for (const DeviceRun& run : results.device_runs) comparison.devices.push_back(deviceShortName(results, run));
  for (const std::string& family : familiesInRunOrder(results)) {
    const bool flops = familyDoesFlops(results, family);
    for (const AnalysedRecord* record : recordsOfFamily(results, family)) {
      if (record->mode != RunMode::normal) continue;
      const std::string params = recordParamsText(*record);
      auto row = std::find_if(comparison.rows.begin(), comparison.rows.end(), [&](const DeviceComparisonRow& r) {
        return r.family == family && r.variant == record->variant && r.params == params;
      });
      if (row == comparison.rows.end()) {
        row = comparison.rows.insert(
            comparison.rows.end(),
            DeviceComparisonRow{
                family, record->variant, params, flops, std::vector<DeviceCell>(results.device_runs.size()), {}});
        for (DeviceCell& cell : row->cells) cell.status = "not run";
      }
      for (std::size_t d = 0; d < results.device_runs.size(); ++d)
        if (record->device == results.device_runs[d].key) row->cells[d] = cellOf(*record, flops);
    }
  }
  for (DeviceComparisonRow& row : comparison.rows)
    for (std::size_t d = 1; d < row.cells.size(); ++d) {
      const auto& first = row.cells.front().median_ns;
      const auto& other = row.cells[d].median_ns;
      row.speedups.push_back(first && other && *other > 0 ? std::optional<double>(*first / *other) : std::nullopt);
    }
  return comparison;
}

void printDeviceComparison(const AnalysedResults& results, std::ostream& out) {
  const DeviceComparison comparison = compareDevices(results);
  std::vector<std::string> header = {"family/variant", "params"};
  for (const std::string& device : comparison.devices)
    for (const char* what : {" time", " rate", " % roof", " diagnosis"}) header.push_back(device + what);
  for (std::size_t d = 1; d < comparison.devices.size(); ++d)
    header.push_back(comparison.devices[d] + " vs " + comparison.devices.front());
  std::vector<std::vector<std::string>> rows = {header};
  for (const DeviceComparisonRow& row : comparison.rows) {
    std::vector<std::string> cells = {row.family + "/" + row.variant, row.params};
    for (const DeviceCell& cell : row.cells) {
      if (!cell.status.empty()) {
        cells.insert(cells.end(), {"-", "-", "-", cell.status.substr(0, 40)});
        continue;
      }
      cells.push_back(cell.median_ns ? formatDurationNs(*cell.median_ns) : "-");
      cells.push_back(cell.rate ? formatRate(*cell.rate) + (row.rate_is_flops ? " GFLOP/s" : " GB/s") : "-");
      cells.push_back(cell.fraction_of_roof ? formatPercent(*cell.fraction_of_roof) : "-");
      cells.push_back((cell.verification_failed ? "FAILED verification; " : "") +
                      (cell.diagnosis.empty() ? "-" : cell.diagnosis));
    }
    for (const auto& speedup : row.speedups) cells.push_back(speedup ? formatSpeedup(*speedup) : "-");
    rows.push_back(std::move(cells));
  }
  const std::size_t device_columns = 4 * comparison.devices.size();
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& cells : rows)
    for (std::size_t i = 0; i < cells.size(); ++i) widths[i] = std::max(widths[i], screenColumns(cells[i]));
  out << "Devices side by side (each on its own roof; speedup: the first device's time over the other's):\n";
  for (const auto& cells : rows) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      // Names and diagnoses read left to right; numbers line up on the right.
      const bool left = i < 2 || (i - 2 < device_columns && (i - 2) % 4 == 3);
      line += (i ? "  " : "") + padded(cells[i], widths[i], !left);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

}  // namespace rooflab::reports
