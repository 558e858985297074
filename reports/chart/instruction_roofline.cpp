// The instruction roofline (instruction_roofline.hpp): its roofs from the device's model, its points
// from the counters' derived values (analyzer/data/counter_metrics.hpp), its walls.
#include "reports/chart/instruction_roofline.hpp"

#include <algorithm>
#include <cmath>

#include "analyzer/data/counter_metrics.hpp"
#include "reports/chart/roofline_chart_parts.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/source_lines_text.hpp"

namespace rooflab::reports {
namespace {

using namespace chart_detail;

constexpr double kInstructionSpanMaxDecades = 8.0;
constexpr double kRidgeRoomFactor = 4.0;  // each level's ridge and some of its flat part stay in view

// Instructions per transaction from transactions per request: one load or store instruction is one request.
std::optional<double> inverse(std::optional<double> per_request) {
  return per_request && *per_request > 0 ? std::optional<double>(1 / *per_request) : std::nullopt;
}

struct InstructionLevelRoof {
  MemoryLevel level;
  CeilingKind kind;
  const char* name;
  double transaction_bytes;
  const char* x_key;  // the derived value of the level's instructions per transaction
};
const InstructionLevelRoof kInstructionLevels[] = {
    {MemoryLevel::l1, CeilingKind::l1_bandwidth, "L1", counters::kDramSectorBytes,
     "warp_instructions_per_l1_transaction"},
    {MemoryLevel::l2, CeilingKind::l2_bandwidth, "L2", counters::kDramSectorBytes,
     "warp_instructions_per_l2_transaction"},
    {MemoryLevel::dram, CeilingKind::dram_bandwidth, "DRAM", counters::kDramSectorBytes,
     "warp_instructions_per_dram_transaction"},
    {MemoryLevel::local, CeilingKind::local_bandwidth, "shared", counters::kSharedWavefrontBytes,
     "warp_instructions_per_shared_transaction"},
};

// A level's transaction rate on the model (GTXN/s = GB/s / bytes per transaction): the rooflab roof
// each level's placements stand under (L1 and shared under the local-memory bandwidth).
std::optional<double> transactionRate(const DeviceModel& model, const InstructionLevelRoof& roof) {
  std::optional<double> gbps;
  switch (roof.level) {
    case MemoryLevel::dram:
    case MemoryLevel::global: gbps = model.dram_gbps; break;
    case MemoryLevel::l2: gbps = model.l2_gbps; break;
    case MemoryLevel::l1:
    case MemoryLevel::local: gbps = model.local_gbps; break;
  }
  if (!gbps || !(*gbps > 0)) return std::nullopt;
  return *gbps / roof.transaction_bytes;
}

struct AccessReading {
  AccessKind kind;
  const char* per_request_key;
  const char* gips_key;
  const char* per_request_unit;
};
const AccessReading kAccesses[] = {
    {AccessKind::global_load, "global_load_sectors_per_request", "global_load_gips", "sectors"},
    {AccessKind::global_store, "global_store_sectors_per_request", "global_store_gips", "sectors"},
    {AccessKind::shared_load, "shared_load_wavefronts_per_request", "shared_load_gips", "wavefronts"},
    {AccessKind::shared_store, "shared_store_wavefronts_per_request", "shared_store_gips", "wavefronts"},
};

const ChartWall kWalls[] = {
    {1.0, "1 per request: stride 0 · no bank conflict", "stride 0 · no conflict", "1: stride 0, no conflict"},
    {0.25, "4 sectors per request: unit stride (4-byte words)", "unit stride", "1/4: unit stride"},
    {1.0 / 32, "32 per request: a sector per thread · 32-way bank conflict", "32 per request",
     "1/32: 32-way, 32 sectors"},
};

// The model the chart's roofs come from: the device that ran, else its datasheet.
std::optional<std::string> instructionRoofModelKey(const AnalysedResults& results) {
  for (const char* key : {"device", "datasheet"})
    if (results.models.roofline_models.count(key) != 0) return std::string(key);
  return std::nullopt;
}

VariantPoint pointOf(const AnalysedRecord& record, double warp_gips, std::size_t series_index,
                     const std::string& label) {
  VariantPoint point;
  point.series_index = series_index;
  point.short_label = label;
  bool first = true;
  for (const InstructionLevelRoof& roof : kInstructionLevels) {
    const std::optional<double> x = derivedCounter(record, roof.x_key);
    if (!x || !(*x > 0)) continue;
    const DataPoint at{*x, warp_gips, roof.level};
    std::vector<std::string> details{record.family + " / " + record.variant, std::string(roof.name) + ": " +
                                                                                 formatSignificant(*x, 3) +
                                                                                 " warp instructions per transaction"};
    if (first) {
      point.at = at;
      first = false;
    } else {
      point.levels.push_back(LevelMarker{at, std::move(details)});
    }
  }
  for (const AccessReading& reading : kAccesses) {
    const std::optional<double> per_request = derivedCounter(record, reading.per_request_key);
    const std::optional<double> gips = derivedCounter(record, reading.gips_key);
    const std::optional<double> x = inverse(per_request);
    if (!x || !gips || !(*gips > 0)) continue;
    point.accesses.push_back(AccessMarker{reading.kind,
                                          DataPoint{*x, *gips, MemoryLevel::l1},
                                          {record.family + " / " + record.variant,
                                           accessDisplayName(reading.kind) + ": " + formatSignificant(*per_request, 3) +
                                               " " + reading.per_request_unit + " per request, " +
                                               formatSignificant(*x, 3) + " instructions per transaction",
                                           formatSignificant(*gips, 3) + " warp GIPS of these instructions"}});
  }
  return point;
}

std::vector<std::string> pointLines(const AnalysedRecord& record, double warp_gips, const VariantPoint& point) {
  std::vector<std::string> lines{record.family + " / " + record.variant};
  if (const std::string params = recordParamsText(record); !params.empty()) lines.push_back(params);
  lines.push_back(formatSignificant(warp_gips, 4) + " warp GIPS (counters, bridged time)");
  for (const InstructionLevelRoof& roof : kInstructionLevels)
    if (const auto x = derivedCounter(record, roof.x_key))
      lines.push_back(std::string(roof.name) + ": " + formatSignificant(*x, 3) + " instructions per transaction");
  for (const AccessMarker& access : point.accesses) lines.push_back(access.details[1]);
  if (const auto busy = derivedCounter(record, "issue_slots_busy_pct"))
    lines.push_back("issue slots busy " + formatFixed(*busy, 0) + "%");
  if (record.diagnosis) lines.push_back("diagnosis: " + summaryText(*record.diagnosis));
  if (record.diagnosis && record.diagnosis->hot_line)
    lines.push_back("hot line: " + hotLineText(*record.diagnosis->hot_line));
  lines.push_back("verification: " + verificationText(record));
  return lines;
}

// The records' points, with what they span; a record without instruction counts is listed as unplaced.
void placeInstructionPoints(RooflineChart& chart, const std::vector<const AnalysedRecord*>& normal_records,
                            LogExtent& extent) {
  const std::vector<std::string> varying_names = varyingParamNames(normal_records);
  for (const AnalysedRecord* record : normal_records) {
    const std::optional<double> gips = derivedCounter(*record, "warp_gips");
    if (record->status != RecordStatus::ok || !gips || !(*gips > 0)) {
      const std::string why = record->status != RecordStatus::ok
                                  ? toString(record->status) + ": " + firstLine(record->status_reason)
                              : !record->counters.available ? "no counters: " + firstLine(record->counters.reason)
                                                            : "no instruction counts in its counters";
      chart.unplaced.push_back(UnplacedRecord{record->variant, recordParamsText(*record), why});
      continue;
    }
    auto series = std::find_if(chart.series.begin(), chart.series.end(),
                               [&](const VariantSeries& s) { return s.variant == record->variant; });
    if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), VariantSeries{record->variant});
    VariantPoint point = pointOf(*record, *gips, static_cast<std::size_t>(series - chart.series.begin()),
                                 shortLabelFor(*record, varying_names));
    if (point.at.intensity_flop_per_byte <= 0) {
      chart.unplaced.push_back(
          UnplacedRecord{record->variant, recordParamsText(*record), "no memory transactions counted"});
      continue;
    }
    point.details = pointLines(*record, *gips, point);
    extent.includeX(point.at.intensity_flop_per_byte);
    extent.includeX(point.at.intensity_flop_per_byte * std::pow(10.0, kPointLabelRoomDecades));
    extent.includeY(*gips);
    for (const LevelMarker& level : point.levels) extent.includeX(level.at.intensity_flop_per_byte);
    for (const AccessMarker& access : point.accesses) {
      extent.includeX(access.at.intensity_flop_per_byte);
      extent.includeY(access.at.gflops);
    }
    chart.points.push_back(std::move(point));
  }
}

// The roofs: each level's transaction rate, a slope up to the issue rate, and the issue rate, flat.
void addInstructionRoofs(RooflineChart& chart, const std::vector<std::pair<const InstructionLevelRoof*, double>>& rates,
                         std::optional<double> issue_gips) {
  const double top = issue_gips.value_or(chart.y_axis.max_value);
  for (const auto& [roof, rate] : rates) {
    const double x_start = std::max(chart.x_axis.min_value, chart.y_axis.min_value / rate);
    const double x_end = std::min(chart.x_axis.max_value, top / rate);
    if (x_start >= x_end) continue;
    const std::string value = compactValueText(rate) + " GTXN/s";
    chart.ceilings.push_back(Ceiling{0,
                                     roof->kind,
                                     rate,
                                     {x_start, rate * x_start},
                                     {x_end, rate * x_end},
                                     std::string(roof->name) + " " + value + " · " + chart.models[0].short_name,
                                     std::string(roof->name) + " " + value});
  }
  if (issue_gips) {
    // Flat from the first ridge on: left of it every level's slope is below the issue rate.
    double x_start = chart.x_axis.max_value;
    for (const auto& [roof, rate] : rates) x_start = std::min(x_start, *issue_gips / rate);
    x_start = rates.empty() ? chart.x_axis.min_value : std::max(x_start, chart.x_axis.min_value);
    const std::string label = "issue " + compactValueText(*issue_gips) + " warp GIPS";
    chart.ceilings.push_back(Ceiling{0,
                                     CeilingKind::fp32_peak,
                                     *issue_gips,
                                     {x_start, *issue_gips},
                                     {chart.x_axis.max_value, *issue_gips},
                                     label + " · " + chart.models[0].short_name,
                                     label});
  }
}

}  // namespace

std::string accessDisplayName(AccessKind kind) {
  switch (kind) {
    case AccessKind::global_load: return "global loads";
    case AccessKind::global_store: return "global stores";
    case AccessKind::shared_load: return "shared loads";
    case AccessKind::shared_store: return "shared stores";
  }
  return "";
}

std::optional<RooflineChart> buildInstructionRoofline(const AnalysedResults& results, std::string_view family) {
  std::vector<const AnalysedRecord*> normal_records;
  for (const AnalysedRecord* record : recordsOfFamily(results, family))
    if (record->mode == RunMode::normal) normal_records.push_back(record);
  if (std::none_of(normal_records.begin(), normal_records.end(),
                   [](const AnalysedRecord* r) { return derivedCounter(*r, "warp_gips").has_value(); }))
    return std::nullopt;

  RooflineChart chart;
  chart.family = std::string(family);
  chart.title = "Instruction roofline: " + chart.family;
  chart.x_axis.title = "Instruction intensity (warp instructions per transaction: 32-byte sector; shared: wavefront)";
  chart.y_axis.title = "Performance (warp GIPS)";
  chart.hierarchical = true;
  chart.walls.assign(std::begin(kWalls), std::end(kWalls));
  chart.level_names = {{MemoryLevel::l1, "L1 (global sectors)"},
                       {MemoryLevel::l2, "L2 (sectors)"},
                       {MemoryLevel::dram, "DRAM (sectors)"},
                       {MemoryLevel::local, "shared (wavefronts)"}};
  chart.unplaced_note = "(no instruction counts): see below";
  chart.dotted_roof_note = "L1, L2, shared roofs";

  LogExtent extent;
  placeInstructionPoints(chart, normal_records, extent);

  // The roofs: the model's issue rate, flat, and each level's transaction rate, a slope up to it.
  std::optional<double> issue_gips;
  std::vector<std::pair<const InstructionLevelRoof*, double>> rates;
  if (const auto key = instructionRoofModelKey(results)) {
    const DeviceModel& model = results.models.roofline_models.at(*key).model;
    chart.models.push_back(ChartModel{*key, modelShortName(results, *key),
                                      *key == "device" ? ModelRole::measured_device : ModelRole::other,
                                      *key == "device" ? "device that ran" : "datasheet model"});
    issue_gips = model.warp_issue_gips && *model.warp_issue_gips > 0 ? model.warp_issue_gips : std::nullopt;
    for (const InstructionLevelRoof& roof : kInstructionLevels)
      if (const auto rate = transactionRate(model, roof)) rates.emplace_back(&roof, *rate);
  }
  for (const ChartWall& wall : chart.walls) extent.includeX(wall.x);
  if (issue_gips) {
    extent.includeY(*issue_gips);
    for (const auto& [roof, rate] : rates) extent.includeX(*issue_gips / rate * kRidgeRoomFactor);
  }
  if (!std::isfinite(extent.min_y)) extent.min_y = 0, extent.max_y = 3;
  setLogRange(chart.x_axis, extent.min_x - kAxisPaddingDecades, extent.max_x + kAxisPaddingDecades);
  extent.min_y = std::max(extent.min_y, extent.max_y - kInstructionSpanMaxDecades);
  setLogRange(chart.y_axis, extent.min_y - kAxisPaddingDecades, extent.max_y + kAxisPaddingDecades);

  addInstructionRoofs(chart, rates, issue_gips);
  return chart;
}

}  // namespace rooflab::reports
