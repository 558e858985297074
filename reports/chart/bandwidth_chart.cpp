// The bandwidth chart's data (bandwidth_chart.hpp): which records, which levels, which roofs.
#include "reports/chart/bandwidth_chart.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/roofline_chart_parts.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/roofline_sentences.hpp"
#include "reports/text/source_lines_text.hpp"

namespace rooflab::reports {
namespace {

// Room above the highest dot, so that its marker stays inside the frame.
constexpr double kHeadroom = 1.1;

// A level's bytes for one record, and where they came from.
struct LevelBytes {
  double bytes = 0;
  const char* source = "";
};

struct LevelSpec {
  MemoryLevel level;
  const char* name;
};
const LevelSpec kLevels[] = {{MemoryLevel::global, "global (declared)"},
                             {MemoryLevel::dram, "DRAM"},
                             {MemoryLevel::l2, "L2"},
                             {MemoryLevel::l1, "L1"},
                             {MemoryLevel::local, "local"}};

std::optional<LevelBytes> bytesAt(const AnalysedRecord& record, MemoryLevel level) {
  auto some = [](std::optional<double> bytes, const char* source) -> std::optional<LevelBytes> {
    if (!bytes || !(*bytes > 0)) return std::nullopt;
    return LevelBytes{*bytes, source};
  };
  switch (level) {
    case MemoryLevel::global: return some(record.work.globalBytes(), "declared global accesses");
    case MemoryLevel::dram:
      if (const auto counted = chart_detail::derivedCounter(record, "dram_bytes"); counted && *counted > 0)
        return some(counted, "counters");
      return some(known(record.work.bytes), "compulsory bytes (manifest)");
    case MemoryLevel::l2: return some(chart_detail::derivedCounter(record, "l2_bytes"), "counters");
    case MemoryLevel::l1:
      return some(chart_detail::derivedCounter(record, "l1_global_bytes"), "counters: global sectors x 32");
    case MemoryLevel::local:
      if (const auto counted = chart_detail::derivedCounter(record, "shared_bytes"); counted && *counted > 0)
        return some(counted, "counters: shared wavefronts x 128");
      if (record.work.local_accesses) return some(*record.work.local_accesses * 4.0, "declared local accesses x 4");
      return std::nullopt;
  }
  return std::nullopt;
}

// The roof each level's placements stand under (analyzer/roofline/roofline.cpp levelBandwidthGbps).
std::optional<double> roofOf(const DeviceModel& model, MemoryLevel level) {
  std::optional<double> gbps;
  switch (level) {
    case MemoryLevel::dram:
    case MemoryLevel::global: gbps = model.dram_gbps; break;
    case MemoryLevel::l2: gbps = model.l2_gbps; break;
    case MemoryLevel::l1:
    case MemoryLevel::local: gbps = model.local_gbps; break;
  }
  return gbps && *gbps > 0 ? gbps : std::nullopt;
}

std::string roofModelKey(const AnalysedResults& results) {
  for (const char* key : {"device", "datasheet"})
    if (results.models.roofline_models.count(key) != 0) return key;
  return referenceModelKey(results);
}

// The records in the variants table's order: grouped by params, in ladder order within each group.
std::vector<const AnalysedRecord*> ladderOrder(const std::vector<const AnalysedRecord*>& records) {
  std::vector<std::string> params_order;
  for (const AnalysedRecord* record : records) {
    const std::string params = recordParamsText(*record);
    if (std::find(params_order.begin(), params_order.end(), params) == params_order.end())
      params_order.push_back(params);
  }
  std::vector<const AnalysedRecord*> ordered;
  for (const std::string& params : params_order)
    for (const AnalysedRecord* record : records)
      if (recordParamsText(*record) == params) ordered.push_back(record);
  return ordered;
}

// Why a dot stands above its roof, as the level's placement says (analyzer/place/roof_excess.hpp).
std::optional<std::string> aboveRoof(const AnalysedRecord& record, const std::string& model_key, MemoryLevel level,
                                     const LevelBytes& bytes) {
  const bool counted_dram = level == MemoryLevel::dram && std::string(bytes.source) == "counters";
  const RooflinePlacement* placement =
      placementOn(record, counted_dram ? model_key + "_counters" : levelPlacementKey(model_key, level));
  if (placement == nullptr || !placement->above_roof) return std::nullopt;
  return aboveRoofText(*placement->above_roof);
}

std::vector<std::string> dotDetails(const AnalysedRecord& record, const BandwidthColumn& column,
                                    const LevelBytes& bytes, double gbps, double fraction, double median_ns,
                                    const std::string& model_key) {
  std::vector<std::string> lines{record.family + " / " + record.variant};
  if (const std::string params = recordParamsText(record); !params.empty()) lines.push_back(params);
  lines.push_back(column.name + ": " + formatRate(gbps) + " GB/s, " + formatPercent(fraction) + " of its " +
                  column.roof_text + " roof");
  if (fraction > 1)
    if (const auto why = aboveRoof(record, model_key, column.level, bytes)) lines.push_back("⚠ " + *why);
  lines.push_back(formatBytes(bytes.bytes) + " (" + bytes.source + ") in " + formatDurationNs(median_ns) + " (median)");
  if (const std::string noise = noiseText(record); !noise.empty()) lines.push_back("median time " + noise);
  if (record.diagnosis) lines.push_back("diagnosis: " + summaryText(*record.diagnosis));
  if (record.diagnosis && record.diagnosis->hot_line)
    lines.push_back("hot line: " + hotLineText(*record.diagnosis->hot_line));
  lines.push_back("verification: " + verificationText(record));
  return lines;
}

}  // namespace

std::optional<BandwidthChart> buildBandwidthChart(const AnalysedResults& results, std::string_view family) {
  std::vector<const AnalysedRecord*> moving;  // normal records that declare no arithmetic work
  for (const AnalysedRecord* record : recordsOfFamily(results, family))
    if (record->mode == RunMode::normal && known(record->work.flops) == 0.0) moving.push_back(record);
  if (moving.empty()) return std::nullopt;

  BandwidthChart chart;
  chart.family = std::string(family);
  chart.title = "Bandwidth by memory level: " + chart.family;
  chart.y_max_fraction = kHeadroom;
  const std::string model_key = roofModelKey(results);
  const auto model = results.models.roofline_models.find(model_key);
  chart.model_name = model != results.models.roofline_models.end() ? modelShortName(results, model_key) : "";
  for (const LevelSpec& spec : kLevels) {
    if (model == results.models.roofline_models.end()) break;
    const std::optional<double> roof = roofOf(model->second.model, spec.level);
    const bool used = std::any_of(moving.begin(), moving.end(),
                                  [&](const AnalysedRecord* r) { return bytesAt(*r, spec.level).has_value(); });
    if (roof && used)
      chart.columns.push_back(
          BandwidthColumn{spec.level, spec.name, *roof, chart_detail::compactValueText(*roof) + " GB/s"});
  }

  const std::vector<std::string> varying_names = chart_detail::varyingParamNames(moving);
  for (const AnalysedRecord* record : ladderOrder(moving)) {
    const std::optional<double> median_ns = record->medianKernelNs();
    std::string reason;
    if (record->status != RecordStatus::ok)
      reason = toString(record->status) + ": " +
               firstLine(record->status_reason.empty() ? "no error text" : record->status_reason);
    else if (!median_ns || !(*median_ns > 0)) reason = "no kernel time";
    std::vector<BandwidthDot> dots;
    for (std::size_t column = 0; column < chart.columns.size() && reason.empty(); ++column) {
      const auto bytes = bytesAt(*record, chart.columns[column].level);
      if (!bytes) continue;
      const double gbps = bytes->bytes / *median_ns;  // bytes per ns is GB/s
      const double fraction = gbps / chart.columns[column].roof_gbps;
      if (!std::isfinite(fraction)) continue;
      dots.push_back(
          BandwidthDot{column, chart.slots.size(), 0, fraction, false,
                       dotDetails(*record, chart.columns[column], *bytes, gbps, fraction, *median_ns, model_key)});
    }
    if (dots.empty()) {
      chart.unplaced.push_back(
          UnplacedRecord{record->variant, recordParamsText(*record),
                         reason.empty() ? (chart.columns.empty() ? "the device model has no memory roof"
                                                                 : "no bytes counted or declared at any level")
                                        : reason});
      continue;
    }
    auto series = std::find_if(chart.series.begin(), chart.series.end(),
                               [&](const VariantSeries& s) { return s.variant == record->variant; });
    if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), VariantSeries{record->variant});
    const std::string label = chart_detail::shortLabelFor(*record, varying_names);
    chart.slots.push_back(record->variant + (label.empty() ? "" : " " + label));
    const bool missed =
        record->timings && record->timings->kernel_ns_interval && !record->timings->kernel_ns_interval->converged;
    for (BandwidthDot& dot : dots) {
      dot.series_index = static_cast<std::size_t>(series - chart.series.begin());
      dot.missed_noise_target = missed;
      chart.y_max_fraction = std::max(chart.y_max_fraction, dot.fraction * kHeadroom);
      chart.dots.push_back(std::move(dot));
    }
  }
  return chart;
}

}  // namespace rooflab::reports
