#include "reports/chart/roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "reports/chart/roofline_chart_parts.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

using namespace chart_detail;

// The ridge factor keeps both the slope and the flat part of every roof visible even when all points
// sit on one side of the ridge.
constexpr double kRidgeVisibilityFactor = 8.0;
constexpr double kMinimumSpanDecades = 2.0;
// A chart with a sub-microflop point and a petaflop peak would squash everything; clip instead.
constexpr double kMaximumSpanDecades = 8.0;
constexpr const char* kGlobalIntensityTitle =
    "Operational intensity (FLOP per global-memory byte: CGMA / element bytes)";
constexpr const char* kCountedIntegerTitle = "Operational intensity (integer operations per DRAM byte, both counted)";

struct ModelCeilings {
  double peak_gflops = 0;  // the compute roof of the family's work type (FP32, FP64 or int32)
  double dram_gbps = 0;
  std::optional<double> local_gbps;
  std::optional<double> l2_gbps;
  Arithmetic arithmetic = Arithmetic::fp32;
};

std::string ceilingValueText(double value) { return formatSignificant(value, 4); }

// "FP32 peak 2460 GFLOP/s", "FP64 peak 102.5 GFLOP/s", "int32 peak 409.9 GOP/s".
std::string peakShortLabel(Arithmetic arithmetic, double value) {
  const char* name = arithmetic == Arithmetic::fp64    ? "FP64 peak"
                     : arithmetic == Arithmetic::int32 ? "int32 peak"
                                                       : "FP32 peak";
  return std::string(name) + " " + compactValueText(value) + (arithmetic == Arithmetic::int32 ? " GOP/s" : " GFLOP/s");
}

std::string kindName(CeilingKind kind) {
  switch (kind) {
    case CeilingKind::dram_bandwidth: return "DRAM";
    case CeilingKind::local_bandwidth: return "local memory";
    case CeilingKind::fp32_peak: return "FP32 peak";
    case CeilingKind::l2_bandwidth: return "L2";
    case CeilingKind::l1_bandwidth: return "L1";
    case CeilingKind::launch_floor: return "launch floor";
  }
  return "";
}

std::string ceilingShortLabel(CeilingKind kind, double value) {
  const std::string unit = kind == CeilingKind::fp32_peak ? " GFLOP/s" : " GB/s";
  return kindName(kind) + " " + compactValueText(value) + unit;
}

std::string ceilingLabel(CeilingKind kind, double value, const std::string& model_name) {
  return ceilingShortLabel(kind, value) + " · " + model_name;
}

// A model's roofs for work in `arithmetic`; nullopt when they cannot be drawn on log axes (or the
// model has no peak for that type).
std::optional<ModelCeilings> ceilingsOf(const DeviceModel& model, Arithmetic arithmetic) {
  const std::optional<double> peak = model.computePeak(arithmetic);
  if (!peak || *peak <= 0 || model.dram_gbps <= 0) return std::nullopt;
  ModelCeilings ceilings{*peak, model.dram_gbps, model.local_gbps, model.l2_gbps, arithmetic};
  if (ceilings.local_gbps && *ceilings.local_gbps <= 0) ceilings.local_gbps.reset();
  if (ceilings.l2_gbps && *ceilings.l2_gbps <= 0) ceilings.l2_gbps.reset();
  return ceilings;
}

bool familyDeclaresLocalAccesses(const std::vector<const AnalysedRecord*>& records) {
  for (const AnalysedRecord* record : records) {
    for (const auto& [key, placement] : record->roofline) {
      if (known(placement.local_roof_gflops)) return true;
    }
  }
  return false;
}

// A bandwidth slope gflops = gbps x intensity, from the left/bottom edge to where it meets the peak.
void addSlope(RooflineChart& chart, std::size_t model_index, CeilingKind kind, double gbps, double peak_gflops) {
  const double x_start = std::max(chart.x_axis.min_value, chart.y_axis.min_value / gbps);
  const double x_end = std::min(chart.x_axis.max_value, peak_gflops / gbps);
  if (x_start >= x_end) return;
  chart.ceilings.push_back(Ceiling{model_index,
                                   kind,
                                   gbps,
                                   {x_start, gbps * x_start},
                                   {x_end, gbps * x_end},
                                   ceilingLabel(kind, gbps, chart.models[model_index].short_name),
                                   ceilingShortLabel(kind, gbps)});
}

void addPeak(RooflineChart& chart, std::size_t model_index, const ModelCeilings& ceilings) {
  const double x_start = std::max(chart.x_axis.min_value, ceilings.peak_gflops / ceilings.dram_gbps);
  if (x_start >= chart.x_axis.max_value) return;
  chart.ceilings.push_back(
      Ceiling{model_index,
              CeilingKind::fp32_peak,
              ceilings.peak_gflops,
              {x_start, ceilings.peak_gflops},
              {chart.x_axis.max_value, ceilings.peak_gflops},
              peakShortLabel(ceilings.arithmetic, ceilings.peak_gflops) + " · " + chart.models[model_index].short_name,
              peakShortLabel(ceilings.arithmetic, ceilings.peak_gflops)});
}

// The reference model and the device's; without a "device" model, the first other one.
std::vector<std::string> chartModelKeys(const AnalysedResults& results) {
  const std::vector<std::string> all = modelKeysInOrder(results);
  const std::string reference = referenceModelKey(results);
  std::vector<std::string> keys;
  if (std::find(all.begin(), all.end(), reference) != all.end()) keys.push_back(reference);
  if (std::find(all.begin(), all.end(), "device") != all.end() && reference != "device") {
    keys.push_back("device");
  } else {
    for (const std::string& key : all) {
      if (key != reference) {
        keys.push_back(key);
        break;
      }
    }
  }
  return keys;
}

std::string roleText(const AnalysedResults& results, const std::string& key, ModelRole role) {
  const std::string recorded_role = modelRoleText(results, key);
  switch (role) {
    case ModelRole::reference: return "reference model";
    case ModelRole::measured_device:
      return recorded_role.empty() ? "device that ran" : "device that ran (" + recorded_role + ")";
    case ModelRole::other: return recorded_role.empty() ? "model " + key : recorded_role + " model";
  }
  return "";
}

// The models whose roofs the chart draws, each with its ceilings for the family's arithmetic.
std::vector<ModelCeilings> chartModels(const AnalysedResults& results, Arithmetic arithmetic, RooflineChart& chart) {
  std::vector<ModelCeilings> model_ceilings;
  for (const std::string& key : chartModelKeys(results)) {
    const auto ceilings = ceilingsOf(results.models.roofline_models.at(key).model, arithmetic);
    if (!ceilings) continue;
    const ModelRole role = key == referenceModelKey(results) ? ModelRole::reference
                           : key == "device"                 ? ModelRole::measured_device
                                                             : ModelRole::other;
    chart.models.push_back(ChartModel{key, modelShortName(results, key), role, roleText(results, key, role)});
    model_ceilings.push_back(*ceilings);
  }
  return model_ceilings;
}

// Which levels the points were placed at beyond DRAM: their roofs are drawn too.
struct LevelRoofsShown {
  bool l2 = false, local = false;
};

// Each normal record's point, with its bars, mutants and level markers, or the reason it has none.
LevelRoofsShown placeRooflinePoints(RooflineChart& chart, const AnalysedResults& results,
                                    const std::vector<const AnalysedRecord*>& normal_records, const ChartWork& work,
                                    const ChartOptions& options, LogExtent& extent) {
  const std::vector<std::string> varying_names = varyingParamNames(normal_records);
  LevelRoofsShown shown;
  for (const AnalysedRecord* record : normal_records) {
    std::string reason, model_key;
    std::optional<std::string> above_roof;
    const auto at = placeOnChart(results, *record, work, reason, model_key, above_roof);
    const std::string& variant = record->variant;
    if (!at) {
      chart.unplaced.push_back(UnplacedRecord{variant, recordParamsText(*record), reason});
      continue;
    }
    auto series = std::find_if(chart.series.begin(), chart.series.end(),
                               [&](const VariantSeries& s) { return s.variant == variant; });
    if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), VariantSeries{variant});
    VariantPoint& point = chart.points.emplace_back(
        VariantPoint{*at, static_cast<std::size_t>(series - chart.series.begin()),
                     shortLabelFor(*record, varying_names), pointDetails(results, *record, *at, work)});
    point.levels = levelMarkers(*record, model_key, *at, work);
    point.above_roof = above_roof;
    if (above_roof) point.details.insert(point.details.begin() + 1, "⚠ " + *above_roof);
    addPerformanceBars(point, *record);
    if (record->diagnosis && record->diagnosis->bound == DiagnosedBound::launch && record->diagnosis->launch_floor_ns &&
        *record->diagnosis->launch_floor_ns > 0 && record->work.flops > 0) {
      point.launch_floor_gflops = record->work.flops / *record->diagnosis->launch_floor_ns;
      extent.includeY(*point.launch_floor_gflops);
    }
    if (options.show_mutants) point.mutants = mutantMarkers(results, *record, *at);
    for (const MutantMarker& mutant : point.mutants) extent.includeY(mutant.gflops);
    for (const LevelMarker& level : point.levels) {
      extent.includeX(level.at.intensity_flop_per_byte);
      chart.hierarchical = true;
      if (level.at.level == MemoryLevel::l2) shown.l2 = true;
      if (level.at.level == MemoryLevel::local || level.at.level == MemoryLevel::l1) shown.local = true;
    }
    extent.includeX(at->intensity_flop_per_byte);
    extent.includeX(at->intensity_flop_per_byte * std::pow(10.0, kPointLabelRoomDecades));
    extent.includeY(at->gflops);
    for (const auto& bar : {point.median_interval, point.min_max})
      if (bar) {
        extent.includeY(bar->low);
        extent.includeY(bar->high);
      }
    if (at->level == MemoryLevel::global) chart.x_axis.title = kGlobalIntensityTitle;
  }
  return shown;
}

}  // namespace

namespace chart_detail {

std::string compactValueText(double value) {
  std::string text = ceilingValueText(value);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

void setLogRange(LogAxis& axis, double min_log10, double max_log10) {
  const double span = max_log10 - min_log10;
  if (span < kMinimumSpanDecades) {
    const double widen = (kMinimumSpanDecades - span) / 2;
    min_log10 -= widen;
    max_log10 += widen;
  }
  axis.min_value = std::pow(10.0, min_log10);
  axis.max_value = std::pow(10.0, max_log10);
  for (int decade = static_cast<int>(std::ceil(min_log10 - 1e-9));
       decade <= static_cast<int>(std::floor(max_log10 + 1e-9)); ++decade) {
    axis.decade_ticks.push_back(std::pow(10.0, decade));
  }
}

}  // namespace chart_detail

std::string levelDisplayName(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::global: return "global (CGMA)";
    case MemoryLevel::dram: return "DRAM";
    case MemoryLevel::l1: return "L1";
    case MemoryLevel::l2: return "L2";
    case MemoryLevel::local: return "local memory";
  }
  return "";
}

std::string decadeTickLabel(double decade_value) {
  const int exponent = static_cast<int>(std::lround(std::log10(decade_value)));
  if (exponent >= -3 && exponent <= 5) return formatFixed(decade_value, exponent < 0 ? -exponent : 0);
  static const char* const kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string label = "10";
  if (exponent < 0) label += "⁻";
  for (char digit : std::to_string(std::abs(exponent))) label += kSuperscripts[digit - '0'];
  return label;
}

RooflineChart buildRooflineChart(const AnalysedResults& results, std::string_view family, const ChartOptions& options) {
  RooflineChart chart;
  chart.family = std::string(family);
  chart.title = "Roofline: " + chart.family;
  std::vector<const AnalysedRecord*> normal_records;
  for (const AnalysedRecord* record : recordsOfFamily(results, family)) {
    if (record->mode == RunMode::normal) normal_records.push_back(record);
  }
  const ChartWork work = chartWorkOf(normal_records);
  const Arithmetic arithmetic = work.arithmetic;
  chart.x_axis.title = work.counted                      ? kCountedIntegerTitle
                       : arithmetic == Arithmetic::int32 ? "Operational intensity (integer operations per DRAM byte)"
                                                         : "Operational intensity (FLOP per DRAM byte)";
  chart.y_axis.title =
      arithmetic == Arithmetic::int32 ? "Performance (GOP/s, integer operations)" : "Performance (GFLOP/s)";
  if (work.counted)
    chart.caption_note =
        "This family declares no floating-point work and its counters counted none: its points are "
        "the integer instructions the counters counted, under the measured int32 roof, per DRAM byte counted.";
  const std::vector<ModelCeilings> model_ceilings = chartModels(results, arithmetic, chart);

  LogExtent extent;
  const LevelRoofsShown shown = placeRooflinePoints(chart, results, normal_records, work, options, extent);
  const bool draw_local_roofs = familyDeclaresLocalAccesses(normal_records) || shown.local;
  for (const ModelCeilings& ceilings : model_ceilings) {
    const double ridge = ceilings.peak_gflops / ceilings.dram_gbps;
    extent.includeX(ridge / kRidgeVisibilityFactor);
    extent.includeX(ridge * kRidgeVisibilityFactor);
    if (draw_local_roofs && ceilings.local_gbps) {
      extent.includeX(ceilings.peak_gflops / *ceilings.local_gbps / kRidgeVisibilityFactor);
    }
    extent.includeY(ceilings.peak_gflops);
  }
  if (!std::isfinite(extent.min_x)) {  // no model and no point: an empty frame still says so
    extent.min_x = -1, extent.max_x = 2, extent.min_y = 0, extent.max_y = 3;
  }
  setLogRange(chart.x_axis, extent.min_x - kAxisPaddingDecades, extent.max_x + kAxisPaddingDecades);
  // The lowest DRAM slope must enter the frame at its left edge, or the roofs would float.
  for (const ModelCeilings& ceilings : model_ceilings) {
    extent.includeY(ceilings.dram_gbps * chart.x_axis.min_value);
  }
  extent.min_y = std::max(extent.min_y, extent.max_y - kMaximumSpanDecades);
  setLogRange(chart.y_axis, extent.min_y - kAxisPaddingDecades, extent.max_y + kAxisPaddingDecades);

  for (std::size_t index = 0; index < chart.models.size(); ++index) {
    const ModelCeilings& ceilings = model_ceilings[index];
    addSlope(chart, index, CeilingKind::dram_bandwidth, ceilings.dram_gbps, ceilings.peak_gflops);
    if (draw_local_roofs && ceilings.local_gbps) {
      addSlope(chart, index, CeilingKind::local_bandwidth, *ceilings.local_gbps, ceilings.peak_gflops);
    }
    if (shown.l2 && ceilings.l2_gbps) {
      addSlope(chart, index, CeilingKind::l2_bandwidth, *ceilings.l2_gbps, ceilings.peak_gflops);
    }
    addPeak(chart, index, ceilings);
  }
  return chart;
}

}  // namespace rooflab::reports
