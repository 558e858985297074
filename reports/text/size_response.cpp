// A family's rate against its size, from its records: the size param, the series, their plateaus.
#include "reports/text/size_response.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/format.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/text/device_comparison.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

constexpr double kStillRising = 1.10;  // the last step's gain above which the plateau is not reached

std::vector<const AnalysedRecord*> measured(const AnalysedResults& results, const std::string& family) {
  std::vector<const AnalysedRecord*> records;
  for (const AnalysedRecord* r : recordsOfFamily(results, family))
    if (r->mode == RunMode::normal && r->status == RecordStatus::ok && r->medianKernelNs() && *r->medianKernelNs() > 0)
      records.push_back(r);
  return records;
}

std::string othersLabel(const AnalysedRecord& record, const std::string& size_param,
                        const std::set<std::string>& varying) {
  std::string label;
  for (const std::string& name : record.param_order)
    if (name != size_param && varying.count(name) && record.params.count(name))
      label += (label.empty() ? "" : ", ") + name + "=" + formatNumber(record.params.at(name));
  return label;
}

// The first param (in the family's order) with three values or more in one variant's records whose
// values change the family's work: what the chart's x axis is.
std::optional<std::string> sizeParam(const std::vector<const AnalysedRecord*>& records,
                                     std::set<std::string>& varying) {
  std::map<std::string, std::set<double>> values;
  for (const AnalysedRecord* r : records)
    for (const auto& [name, value] : r->params) values[name].insert(value);
  for (const auto& [name, set] : values)
    if (set.size() > 1) varying.insert(name);
  if (records.empty()) return std::nullopt;
  for (const std::string& name : records.front()->param_order) {
    if (!varying.count(name)) continue;
    std::map<std::string, std::set<double>> per_variant;
    std::map<double, std::set<double>> bytes_at;
    for (const AnalysedRecord* r : records)
      if (r->params.count(name)) {
        per_variant[r->variant].insert(r->params.at(name));
        bytes_at[r->params.at(name)].insert(r->work.bytes + r->work.flops);
      }
    const bool three =
        std::any_of(per_variant.begin(), per_variant.end(), [](const auto& v) { return v.second.size() >= 3; });
    std::set<double> works;
    for (const auto& [value, work] : bytes_at) works.insert(*work.begin());
    if (three && works.size() >= 2) return name;
  }
  return std::nullopt;
}

// GB/s when the family's work at its largest size is below the device's ridge (memory by nature).
std::string rateUnit(const AnalysedResults& results, const std::vector<const AnalysedRecord*>& records,
                     const std::string& param) {
  const AnalysedRecord* largest =
      *std::max_element(records.begin(), records.end(), [&](const AnalysedRecord* a, const AnalysedRecord* b) {
        return a->params.at(param) < b->params.at(param);
      });
  if (largest->work.flops <= 0) return "GB/s";
  const auto model = results.models.roofline_models.find("device");
  const auto& models = results.models.roofline_models;
  const DeviceModel* device = model != models.end()                      ? &model->second.model
                              : models.count(referenceModelKey(results)) ? &models.at(referenceModelKey(results)).model
                                                                         : nullptr;
  if (device == nullptr || largest->work.bytes <= 0) return "GFLOP/s";
  return largest->work.flops / largest->work.bytes < device->ridgeIntensity() ? "GB/s" : "GFLOP/s";
}

void findPlateau(SizeSeries& s) {
  for (const SizePoint& p : s.points) s.plateau_rate = std::max(s.plateau_rate, p.rate);
  const double half = s.plateau_rate / 2;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].rate < half) continue;
    if (i == 0) {
      s.half_plateau_size = s.points[0].size;
      s.half_below_range = true;
    } else {
      const SizePoint& a = s.points[i - 1];
      const SizePoint& b = s.points[i];
      const double t = (std::log(half) - std::log(a.rate)) / (std::log(b.rate) - std::log(a.rate));
      s.half_plateau_size = std::exp(std::log(a.size) + t * (std::log(b.size) - std::log(a.size)));
    }
    break;
  }
  const std::size_t n = s.points.size();
  s.still_rising = n >= 2 && s.points[n - 1].rate > kStillRising * s.points[n - 2].rate;
}

}  // namespace

std::optional<SizeResponse> sizeResponse(const AnalysedResults& results, const std::string& family) {
  const std::vector<const AnalysedRecord*> records = measured(results, family);
  std::set<std::string> varying;
  const std::optional<std::string> param = sizeParam(records, varying);
  if (!param) return std::nullopt;
  SizeResponse response{family, *param, rateUnit(results, records, *param), {}};
  for (const AnalysedRecord* r : records) {
    if (!r->params.count(*param)) continue;
    const std::string others = othersLabel(*r, *param, varying);
    auto series = std::find_if(response.series.begin(), response.series.end(),
                               [&](const SizeSeries& s) { return s.variant == r->variant && s.others == others; });
    if (series == response.series.end()) {
      SizeSeries added;
      added.variant = r->variant;
      added.others = others;
      series = response.series.insert(response.series.end(), std::move(added));
    }
    const std::optional<double> rate = response.unit == "GB/s" ? r->achievedGbps() : r->achievedGflops();
    if (rate && *rate > 0) series->points.push_back(SizePoint{r->params.at(*param), *rate, r});
  }
  for (SizeSeries& s : response.series) {
    std::sort(s.points.begin(), s.points.end(), [](const SizePoint& a, const SizePoint& b) { return a.size < b.size; });
    findPlateau(s);
  }
  return response;
}

std::string sizeResponseFileStem(const std::string& family) { return "rate-vs-size-" + fileSafe(family); }

void writeSizeResponseCsv(const SizeResponse& response, std::ostream& out) {
  auto row = [&](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
    out << line << "\r\n";
  };
  row({"variant", "others", "param", "size", "rate", "unit", "median_ns", "plateau_rate", "half_plateau_size",
       "half_below_range", "still_rising"});
  for (const SizeSeries& s : response.series)
    for (const SizePoint& p : s.points)
      row({s.variant, s.others, response.param, formatRoundTrip(p.size), formatRoundTrip(p.rate), response.unit,
           formatRoundTrip(*p.record->medianKernelNs()), formatRoundTrip(s.plateau_rate),
           s.half_plateau_size ? formatRoundTrip(*s.half_plateau_size) : "", s.half_below_range ? "1" : "0",
           s.still_rising ? "1" : "0"});
}

std::vector<std::filesystem::path> writeSizeResponseCsvReports(const AnalysedResults& results,
                                                               const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> files;
  // A batch that compared devices: a file per device, each of its own records.
  const std::vector<AnalysedResults> documents = documentsPerDevice(results);
  for (std::size_t d = 0; d < documents.size(); ++d)
    for (const std::string& family : familiesInRunOrder(documents[d])) {
      const std::optional<SizeResponse> response = sizeResponse(documents[d], family);
      if (!response) continue;
      std::ostringstream text;
      writeSizeResponseCsv(*response, text);
      const std::string suffix = comparesDevices(results) ? "-" + deviceShortName(results, results.device_runs[d]) : "";
      files.push_back(out_dir / (sizeResponseFileStem(family) + suffix + ".csv"));
      writeFileAtomically(files.back(), text.str());
    }
  return files;
}

}  // namespace rooflab::reports
