#include "reports/chart/roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "reports/text/number_format.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

// Padding around the data, in decades: room for the ceiling labels above the highest roof and
// for markers at the edges. The ridge factor keeps both the slope and the flat part of every roof
// visible even when all points sit on one side of the ridge.
constexpr double kAxisPaddingDecades = 0.3;
constexpr double kRidgeVisibilityFactor = 8.0;
constexpr double kMinimumSpanDecades = 2.0;
// A chart with a sub-microflop point and a petaflop peak would squash everything; clip instead.
constexpr double kMaximumSpanDecades = 8.0;
// Points get extra room on the right for their params label.
constexpr double kPointLabelRoomDecades = 0.25;
constexpr const char* kGlobalIntensityTitle = "Operational intensity (FLOP per global-memory byte: CGMA / element bytes)";

struct ModelCeilings {
  double peak_gflops = 0;  // the compute roof of the family's work type (FP32, FP64 or int32)
  double dram_gbps = 0;
  std::optional<double> local_gbps;
  std::optional<double> l2_gbps;
  Arithmetic arithmetic = Arithmetic::fp32;
};


std::string ceilingValueText(double value) { return formatSignificant(value, 4); }

std::string compactValueText(double value) {
  // "192.3", "2460", "66900": 4 significant digits, but no ".0" tail on round numbers.
  std::string text = ceilingValueText(value);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

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

// The params that take more than one value among the family's records: what tells points apart.
std::vector<std::string> varyingParamNames(const std::vector<const RunRecord*>& records) {
  std::map<std::string, std::vector<std::string>> values_by_name;
  for (const RunRecord* record : records) {
    for (const auto& [name, value] : record->params) {
      auto& values = values_by_name[name];
      const std::string text = paramValueText(value);
      if (std::find(values.begin(), values.end(), text) == values.end()) values.push_back(text);
    }
  }
  std::vector<std::string> names;
  for (const auto& [name, values] : values_by_name) {
    if (values.size() > 1) names.push_back(name);
  }
  return names;
}

std::string shortLabelFor(const RunRecord& record, const std::vector<std::string>& varying_names) {
  std::string label;
  for (const std::string& name : varying_names) {
    const auto value = record.params.find(name);
    if (value == record.params.end()) continue;
    if (!label.empty()) label += ", ";
    label += name + "=" + paramValueText(value->second);
  }
  return label;
}

// Where a record goes on the chart: its intensity on the measured device's placement (all models
// share the analytic intensity; the device's may come from counters), and its achieved rate.
std::optional<DataPoint> placeOnChart(const ResultsDocument& results, const RunRecord& record, std::string& reason,
                                      std::string& model_key, std::optional<std::string>& above_roof) {
  if (record.status != RecordStatus::ok) {
    reason = toString(record.status) + ": " +
             firstLine(record.status_reason.empty() ? "no error text" : record.status_reason);
    return std::nullopt;
  }
  // The global level (the course's CGMA) first: it tells the rungs of a ladder apart, where the
  // compulsory DRAM level puts a whole family on one vertical line.
  std::vector<std::string> keys{"device"};
  for (const std::string& key : modelKeysInOrder(results)) keys.push_back(key);
  const RooflinePlacement* placement = nullptr;  // the first with a known intensity, else the first
  for (MemoryLevel level : {MemoryLevel::global, MemoryLevel::dram}) {
    for (const std::string& key : keys) {
      const RooflinePlacement* candidate = placementOn(record, levelPlacementKey(key, level));
      if (candidate == nullptr) continue;
      if (placement == nullptr || (!known(placement->intensity) && known(candidate->intensity))) {
        placement = candidate;
        model_key = key;
      }
    }
  }
  if (placement == nullptr) {
    reason = "no roofline placement";
    return std::nullopt;
  }
  const std::optional<double> intensity = known(placement->intensity);
  if (!intensity) {
    reason = placement->reason.value_or("intensity unknown");
    return std::nullopt;
  }
  const double gflops = known(placement->achieved_gflops).value_or(record.achievedGflops().value_or(0.0));
  if (gflops <= 0 || *intensity <= 0) {
    reason = "no floating-point work: not on log axes (see GB/s in the table)";
    return std::nullopt;
  }
  above_roof = placement->above_roof;
  return DataPoint{*intensity, gflops, placement->level};
}

std::vector<std::string> pointDetails(const ResultsDocument& results, const RunRecord& record, const DataPoint& at) {
  std::vector<std::string> lines;
  lines.push_back(record.family + " / " + record.variant);
  const std::string params = recordParamsText(record);
  if (!params.empty()) lines.push_back(params);
  if (const auto median = record.medianKernelNs()) lines.push_back("time " + formatDurationNs(*median) + " (median)");
  lines.push_back(formatRate(at.gflops) + " GFLOP/s");
  if (const auto gbps = record.achievedGbps()) lines.push_back(formatRate(*gbps) + " GB/s");
  if (at.level == MemoryLevel::global) {
    lines.push_back("global intensity " + formatSignificant(at.intensity_flop_per_byte, 3) + " FLOP/byte");
    if (const auto cgma = record.work.cgma()) lines.push_back("CGMA " + formatSignificant(*cgma, 3) + " FLOP per access");
    if (const RooflinePlacement* dram = placementOn(record, "device"); dram != nullptr && known(dram->intensity))
      lines.push_back("compulsory DRAM intensity " + formatSignificant(*known(dram->intensity), 3) + " FLOP/byte");
  } else {
    lines.push_back("intensity " + formatSignificant(at.intensity_flop_per_byte, 3) + " FLOP/byte");
  }
  if (const RooflinePlacement* counted = placementOn(record, "device_counters")) {
    if (const auto intensity = known(counted->intensity)) {
      lines.push_back("intensity from counters " + formatSignificant(*intensity, 3) + " FLOP/byte");
    }
  }
  for (const std::string& key : modelKeysInOrder(results)) {
    const RooflinePlacement* placement = placementOn(record, key);
    if (placement == nullptr) continue;
    // The fraction only: the bound is the diagnosis's, said once below.
    if (const auto fraction = known(placement->fraction_of_roof))
      lines.push_back(modelShortName(results, key) + ": " + formatPercent(*fraction) + " of roof");
  }
  if (const std::string noise = noiseText(record); !noise.empty()) lines.push_back("median time " + noise);
  if (record.diagnosis) lines.push_back("diagnosis: " + summaryText(*record.diagnosis));
  lines.push_back("verification: " + verificationText(record));
  return lines;
}

// A kernel time range as GFLOP/s at the point's rate: the rate scales with 1 / time.
std::optional<GflopsRange> gflopsOf(const DataPoint& at, double median_ns, double fastest_ns, double slowest_ns) {
  if (!(median_ns > 0 && fastest_ns > 0 && slowest_ns > 0) || !std::isfinite(slowest_ns)) return std::nullopt;
  return GflopsRange{at.gflops * median_ns / slowest_ns, at.gflops * median_ns / fastest_ns};
}

// Bars only for records measured to a noise target, so that older results draw as they did.
void addPerformanceBars(VariantPoint& point, const RunRecord& record) {
  if (!record.timings || !record.timings->kernel_ns_interval) return;
  const EventTimings& timings = *record.timings;
  const KernelTimeInterval& interval = *timings.kernel_ns_interval;
  const double median_ns = timings.kernel_ns.median;
  point.median_interval = gflopsOf(point.at, median_ns, interval.lower_ns, interval.upper_ns);
  point.min_max = gflopsOf(point.at, median_ns, timings.kernel_ns.min, timings.kernel_ns.max);
  point.missed_noise_target = !interval.converged;
}

// The record's other levels on the model its point was placed with, at the point's rate: DRAM (the
// counters' bytes when measured, else the compulsory ones), L1, L2, local memory.
std::vector<LevelMarker> levelMarkers(const RunRecord& record, const std::string& model_key, const DataPoint& at) {
  std::vector<LevelMarker> markers;
  if (at.level != MemoryLevel::global) return markers;
  auto add = [&](const RooflinePlacement* placement, MemoryLevel level) {
    if (placement == nullptr) return;
    const std::optional<double> intensity = known(placement->intensity);
    if (!intensity || *intensity <= 0) return;
    LevelMarker marker{DataPoint{*intensity, at.gflops, level}, {}};
    marker.details.push_back(record.family + " / " + record.variant);
    marker.details.push_back(levelDisplayName(level) + " level (" + toString(placement->intensity_source) + "): " +
                             formatSignificant(*intensity, 3) + " FLOP/byte");
    if (const auto fraction = known(placement->fraction_of_roof))
      marker.details.push_back(formatPercent(*fraction) + " of the " + levelDisplayName(level) + " roof");
    if (placement->above_roof) marker.details.push_back("⚠ " + *placement->above_roof);
    markers.push_back(std::move(marker));
  };
  const RooflinePlacement* counted_dram = placementOn(record, model_key + "_counters");
  add(counted_dram != nullptr && known(counted_dram->intensity) ? counted_dram : placementOn(record, model_key),
      MemoryLevel::dram);
  for (MemoryLevel level : {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::local})
    add(placementOn(record, levelPlacementKey(model_key, level)), level);
  return markers;
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

bool familyDeclaresLocalAccesses(const std::vector<const RunRecord*>& records) {
  for (const RunRecord* record : records) {
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
  chart.ceilings.push_back(Ceiling{model_index, kind, gbps, {x_start, gbps * x_start}, {x_end, gbps * x_end},
                                   ceilingLabel(kind, gbps, chart.models[model_index].short_name),
                                   ceilingShortLabel(kind, gbps)});
}

void addPeak(RooflineChart& chart, std::size_t model_index, const ModelCeilings& ceilings) {
  const double x_start = std::max(chart.x_axis.min_value, ceilings.peak_gflops / ceilings.dram_gbps);
  if (x_start >= chart.x_axis.max_value) return;
  chart.ceilings.push_back(Ceiling{model_index, CeilingKind::fp32_peak, ceilings.peak_gflops,
                                   {x_start, ceilings.peak_gflops},
                                   {chart.x_axis.max_value, ceilings.peak_gflops},
                                   peakShortLabel(ceilings.arithmetic, ceilings.peak_gflops) + " · " +
                                       chart.models[model_index].short_name,
                                   peakShortLabel(ceilings.arithmetic, ceilings.peak_gflops)});
}

// The reference model and the device's; without a "device" model, the first other one.
std::vector<std::string> chartModelKeys(const ResultsDocument& results) {
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

std::string roleText(const ResultsDocument& results, const std::string& key, ModelRole role) {
  const std::string recorded_role = modelRoleText(results, key);
  switch (role) {
    case ModelRole::reference: return "reference model";
    case ModelRole::measured_device:
      return recorded_role.empty() ? "device that ran" : "device that ran (" + recorded_role + ")";
    case ModelRole::other: return recorded_role.empty() ? "model " + key : recorded_role + " model";
  }
  return "";
}

}  // namespace

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

// The record's ok mutants (same family, variant and params), each at the rate the original would
// reach in the mutant's time, at the original's intensity.
std::vector<MutantMarker> mutantMarkers(const ResultsDocument& results, const RunRecord& original, const DataPoint& at) {
  std::vector<MutantMarker> markers;
  const std::optional<double> original_ns = original.medianKernelNs();
  if (!original_ns || !(*original_ns > 0)) return markers;
  for (const RunRecord& record : results.records) {
    if (record.mode != RunMode::compute_only && record.mode != RunMode::memory_only) continue;
    if (record.status != RecordStatus::ok || record.family != original.family || record.variant != original.variant ||
        record.params != original.params)
      continue;
    const std::optional<double> mutant_ns = record.medianKernelNs();
    if (!mutant_ns || !(*mutant_ns > 0)) continue;
    MutantMarker marker{record.mode, at.gflops * *original_ns / *mutant_ns, {}};
    marker.details = {original.family + " / " + original.variant + " (" + modeName(record.mode) + " mutant)",
                      recordParamsText(record),
                      "time " + formatSignificant(*mutant_ns / 1000, 4) + " µs against " +
                          formatSignificant(*original_ns / 1000, 4) + " µs: the original's work at " +
                          formatSignificant(marker.gflops, 4) + " GFLOP/s"};
    markers.push_back(std::move(marker));
  }
  return markers;
}

RooflineChart buildRooflineChart(const ResultsDocument& results, std::string_view family, const ChartOptions& options) {
  RooflineChart chart;
  chart.family = std::string(family);
  chart.title = "Roofline: " + chart.family;
  chart.x_axis.title = "Operational intensity (FLOP per DRAM byte)";
  chart.y_axis.title = "Performance (GFLOP/s)";

  std::vector<const RunRecord*> normal_records;
  for (const RunRecord* record : recordsOfFamily(results, family)) {
    if (record->mode == RunMode::normal) normal_records.push_back(record);
  }
  const std::vector<std::string> varying_names = varyingParamNames(normal_records);

  // A family computes in one type (its manifest's [work]): its records stand under that peak.
  const Arithmetic arithmetic = normal_records.empty() ? Arithmetic::fp32 : normal_records.front()->work.arithmetic;
  std::vector<ModelCeilings> model_ceilings;
  for (const std::string& key : chartModelKeys(results)) {
    const auto ceilings = ceilingsOf(results.models.roofline_models.at(key).model, arithmetic);
    if (!ceilings) continue;
    const ModelRole role = key == referenceModelKey(results) ? ModelRole::reference
                           : key == "device"                ? ModelRole::measured_device
                                                            : ModelRole::other;
    chart.models.push_back(ChartModel{key, modelShortName(results, key), role, roleText(results, key, role)});
    model_ceilings.push_back(*ceilings);
  }

  double min_x_log = std::numeric_limits<double>::infinity(), max_x_log = -min_x_log;
  double min_y_log = min_x_log, max_y_log = -min_x_log;
  auto include = [](double value, double& low, double& high) {
    const double log_value = std::log10(value);
    low = std::min(low, log_value);
    high = std::max(high, log_value);
  };

  bool draw_l2_roofs = false, draw_level_local_roofs = false;
  for (const RunRecord* record : normal_records) {
    std::string reason, model_key;
    std::optional<std::string> above_roof;
    const auto at = placeOnChart(results, *record, reason, model_key, above_roof);
    const std::string& variant = record->variant;
    if (!at) {
      chart.unplaced.push_back(UnplacedRecord{variant, recordParamsText(*record), reason});
      continue;
    }
    auto series = std::find_if(chart.series.begin(), chart.series.end(),
                               [&](const VariantSeries& s) { return s.variant == variant; });
    if (series == chart.series.end()) series = chart.series.insert(chart.series.end(), VariantSeries{variant});
    VariantPoint& point = chart.points.emplace_back(VariantPoint{*at, static_cast<std::size_t>(series - chart.series.begin()),
                                                                 shortLabelFor(*record, varying_names),
                                                                 pointDetails(results, *record, *at)});
    point.levels = levelMarkers(*record, model_key, *at);
    point.above_roof = above_roof;
    if (above_roof) point.details.insert(point.details.begin() + 1, "⚠ " + *above_roof);
    addPerformanceBars(point, *record);
    if (record->diagnosis && record->diagnosis->bound == DiagnosedBound::launch && record->diagnosis->launch_floor_ns &&
        *record->diagnosis->launch_floor_ns > 0 && record->work.flops > 0) {
      point.launch_floor_gflops = record->work.flops / *record->diagnosis->launch_floor_ns;
      include(*point.launch_floor_gflops, min_y_log, max_y_log);
    }
    if (options.show_mutants) point.mutants = mutantMarkers(results, *record, *at);
    for (const MutantMarker& mutant : point.mutants) include(mutant.gflops, min_y_log, max_y_log);
    for (const LevelMarker& level : point.levels) {
      include(level.at.intensity_flop_per_byte, min_x_log, max_x_log);
      chart.hierarchical = true;
      if (level.at.level == MemoryLevel::l2) draw_l2_roofs = true;
      if (level.at.level == MemoryLevel::local || level.at.level == MemoryLevel::l1) draw_level_local_roofs = true;
    }
    include(at->intensity_flop_per_byte, min_x_log, max_x_log);
    include(at->intensity_flop_per_byte * std::pow(10.0, kPointLabelRoomDecades), min_x_log, max_x_log);
    include(at->gflops, min_y_log, max_y_log);
    for (const auto& bar : {point.median_interval, point.min_max})
      if (bar) {
        include(bar->low, min_y_log, max_y_log);
        include(bar->high, min_y_log, max_y_log);
      }
    if (at->level == MemoryLevel::global) chart.x_axis.title = kGlobalIntensityTitle;
  }
  const bool draw_local_roofs = familyDeclaresLocalAccesses(normal_records) || draw_level_local_roofs;
  for (const ModelCeilings& ceilings : model_ceilings) {
    const double ridge = ceilings.peak_gflops / ceilings.dram_gbps;
    include(ridge / kRidgeVisibilityFactor, min_x_log, max_x_log);
    include(ridge * kRidgeVisibilityFactor, min_x_log, max_x_log);
    if (draw_local_roofs && ceilings.local_gbps) {
      include(ceilings.peak_gflops / *ceilings.local_gbps / kRidgeVisibilityFactor, min_x_log, max_x_log);
    }
    include(ceilings.peak_gflops, min_y_log, max_y_log);
  }
  if (!std::isfinite(min_x_log)) {  // no model and no point: an empty frame still says so
    min_x_log = -1, max_x_log = 2, min_y_log = 0, max_y_log = 3;
  }
  setLogRange(chart.x_axis, min_x_log - kAxisPaddingDecades, max_x_log + kAxisPaddingDecades);
  // The lowest DRAM slope must enter the frame at its left edge, or the roofs would float.
  for (const ModelCeilings& ceilings : model_ceilings) {
    include(ceilings.dram_gbps * chart.x_axis.min_value, min_y_log, max_y_log);
  }
  min_y_log = std::max(min_y_log, max_y_log - kMaximumSpanDecades);
  setLogRange(chart.y_axis, min_y_log - kAxisPaddingDecades, max_y_log + kAxisPaddingDecades);

  for (std::size_t index = 0; index < chart.models.size(); ++index) {
    const ModelCeilings& ceilings = model_ceilings[index];
    addSlope(chart, index, CeilingKind::dram_bandwidth, ceilings.dram_gbps, ceilings.peak_gflops);
    if (draw_local_roofs && ceilings.local_gbps) {
      addSlope(chart, index, CeilingKind::local_bandwidth, *ceilings.local_gbps, ceilings.peak_gflops);
    }
    if (draw_l2_roofs && ceilings.l2_gbps) {
      addSlope(chart, index, CeilingKind::l2_bandwidth, *ceilings.l2_gbps, ceilings.peak_gflops);
    }
    addPeak(chart, index, ceilings);
  }
  return chart;
}

}  // namespace rooflab::reports
