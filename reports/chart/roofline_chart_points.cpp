// The roofline chart's points: where each record goes (its placement on the measured device, at the
// global level when declared, from the counters for integer work they counted), its tooltip, its
// performance bars and its markers at the other memory levels and of its mutants.
#include <algorithm>
#include <cmath>
#include <map>

#include "reports/chart/roofline_chart_parts.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/roofline_sentences.hpp"
#include "reports/text/source_lines_text.hpp"

namespace rooflab::reports::chart_detail {
namespace {

// The counted-integer placements of a record: under the int32 roof, from the counters.
bool countedInteger(const RooflinePlacement& placement, const AnalysedRecord& record) {
  return placement.intensity_source == IntensitySource::counters &&
         placement.arithmetic.value_or(record.work.arithmetic) == Arithmetic::int32;
}

// A kernel time range as GFLOP/s at the point's rate: the rate scales with 1 / time.
std::optional<GflopsRange> gflopsOf(const DataPoint& at, double median_ns, double fastest_ns, double slowest_ns) {
  if (!(median_ns > 0 && fastest_ns > 0 && slowest_ns > 0) || !std::isfinite(slowest_ns)) return std::nullopt;
  return GflopsRange{at.gflops * median_ns / slowest_ns, at.gflops * median_ns / fastest_ns};
}

}  // namespace

std::vector<std::string> varyingParamNames(const std::vector<const AnalysedRecord*>& records) {
  std::map<std::string, std::vector<std::string>> values_by_name;
  for (const AnalysedRecord* record : records) {
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

std::string shortLabelFor(const AnalysedRecord& record, const std::vector<std::string>& varying_names) {
  std::string label;
  for (const std::string& name : varying_names) {
    const auto value = record.params.find(name);
    if (value == record.params.end()) continue;
    if (!label.empty()) label += ", ";
    label += name + "=" + paramValueText(value->second);
  }
  return label;
}

ChartWork chartWorkOf(const std::vector<const AnalysedRecord*>& normal_records) {
  // A family computes in one type (its manifest's [work]): its records stand under that peak.
  ChartWork work{normal_records.empty() ? Arithmetic::fp32 : normal_records.front()->work.arithmetic, false};
  if (work.arithmetic != Arithmetic::fp32) return work;
  bool counted_integer = false;
  for (const AnalysedRecord* record : normal_records) {
    if (known(record->work.flops).value_or(0.0) > 0) return work;
    const RooflinePlacement* counted = placementOn(*record, "device_counters");
    counted_integer = counted_integer || (counted != nullptr && countedInteger(*counted, *record));
  }
  return counted_integer ? ChartWork{Arithmetic::int32, true} : work;
}

std::string rateUnit(Arithmetic arithmetic) { return arithmetic == Arithmetic::int32 ? "GOP/s" : "GFLOP/s"; }

// The global level (the course's CGMA) first: it tells the rungs of a ladder apart, where the
// compulsory DRAM level puts a whole family on one vertical line. Counted work: the counters' DRAM
// placement. All models share the analytic intensity; the device's may come from counters.
std::optional<DataPoint> placeOnChart(const AnalysedResults& results, const AnalysedRecord& record,
                                      const ChartWork& work, std::string& reason, std::string& model_key,
                                      std::optional<std::string>& above_roof) {
  if (record.status != RecordStatus::ok) {
    reason = toString(record.status) + ": " +
             firstLine(record.status_reason.empty() ? "no error text" : record.status_reason);
    return std::nullopt;
  }
  std::vector<std::string> keys{"device"};
  for (const std::string& key : modelKeysInOrder(results)) keys.push_back(key);
  const RooflinePlacement* placement = nullptr;  // the first with a known intensity, else the first
  auto consider = [&](const std::string& key, const std::string& placement_key) {
    const RooflinePlacement* candidate = placementOn(record, placement_key);
    if (candidate == nullptr || (work.counted && !countedInteger(*candidate, record))) return;
    if (placement == nullptr || (!known(placement->intensity) && known(candidate->intensity))) {
      placement = candidate;
      model_key = key;
    }
  };
  if (work.counted) {
    for (const std::string& key : keys) consider(key, key + "_counters");
  } else {
    for (MemoryLevel level : {MemoryLevel::global, MemoryLevel::dram})
      for (const std::string& key : keys) consider(key, levelPlacementKey(key, level));
  }
  if (placement == nullptr) {
    reason = work.counted ? "no integer operations counted" : "no roofline placement";
    return std::nullopt;
  }
  const std::optional<double> intensity = known(placement->intensity);
  if (!intensity) {
    reason = placement->unplaced ? "unplaced: " + toString(*placement->unplaced)
                                 : placementReasonsText(*placement).value_or("intensity unknown");
    return std::nullopt;
  }
  const double gflops = known(placement->achieved_gflops).value_or(record.achievedGflops().value_or(0.0));
  if (gflops <= 0 || *intensity <= 0) {
    reason = known(record.work.flops) == 0.0 ? "no arithmetic work: on the bandwidth chart"
                                             : "no floating-point work: not on log axes (see GB/s in the table)";
    return std::nullopt;
  }
  if (placement->above_roof) above_roof = aboveRoofText(*placement->above_roof);
  return DataPoint{*intensity, gflops, placement->level};
}

std::vector<std::string> pointDetails(const AnalysedResults& results, const AnalysedRecord& record, const DataPoint& at,
                                      const ChartWork& work) {
  const std::string per_byte = work.arithmetic == Arithmetic::int32 ? " op/byte" : " FLOP/byte";
  std::vector<std::string> lines;
  lines.push_back(record.family + " / " + record.variant);
  const std::string params = recordParamsText(record);
  if (!params.empty()) lines.push_back(params);
  if (const auto median = record.medianKernelNs()) lines.push_back("time " + formatDurationNs(*median) + " (median)");
  lines.push_back(formatRate(at.gflops) + " " + rateUnit(work.arithmetic));
  if (const auto gbps = record.achievedGbps()) lines.push_back(formatRate(*gbps) + " GB/s");
  if (at.level == MemoryLevel::global) {
    lines.push_back("global intensity " + formatSignificant(at.intensity_flop_per_byte, 3) + per_byte);
    if (const auto cgma = record.work.cgma())
      lines.push_back("CGMA " + formatSignificant(*cgma, 3) + " FLOP per access");
    if (const RooflinePlacement* dram = placementOn(record, "device"); dram != nullptr && known(dram->intensity))
      lines.push_back("compulsory DRAM intensity " + formatSignificant(*known(dram->intensity), 3) + per_byte);
  } else {
    lines.push_back("intensity " + formatSignificant(at.intensity_flop_per_byte, 3) + per_byte +
                    (work.counted ? " (counters: integer operations per DRAM byte)" : ""));
  }
  if (const RooflinePlacement* counted = placementOn(record, "device_counters"); counted != nullptr && !work.counted) {
    if (const auto intensity = known(counted->intensity)) {
      lines.push_back("intensity from counters " + formatSignificant(*intensity, 3) + per_byte);
    }
  }
  // Integer work counted by the hardware beside the manifest's count, as FLOPs are checked.
  if (const auto integer_ops = derivedCounter(record, "integer_ops");
      integer_ops && work.arithmetic == Arithmetic::int32) {
    const auto declared = known(record.work.flops);
    lines.push_back("integer operations counted " + formatCount(*integer_ops) + ", manifest " +
                    (declared && *declared > 0 ? formatCount(*declared) : std::string("none")));
  }
  for (const std::string& key : modelKeysInOrder(results)) {
    const RooflinePlacement* placement = placementOn(record, work.counted ? key + "_counters" : key);
    if (placement == nullptr) continue;
    // The fraction only: the bound is the diagnosis's, said once below.
    if (const auto fraction = known(placement->fraction_of_roof))
      lines.push_back(modelShortName(results, key) + ": " + formatPercent(*fraction) + " of roof");
  }
  if (const std::string noise = noiseText(record); !noise.empty()) lines.push_back("median time " + noise);
  if (record.diagnosis) lines.push_back("diagnosis: " + summaryText(*record.diagnosis));
  if (record.diagnosis && record.diagnosis->hot_line)
    lines.push_back("hot line: " + hotLineText(*record.diagnosis->hot_line));
  lines.push_back("verification: " + verificationText(record));
  return lines;
}

// Bars only for records measured to a noise target, so that older results draw as they did.
void addPerformanceBars(VariantPoint& point, const AnalysedRecord& record) {
  if (!record.timings || !record.timings->kernel_ns_interval) return;
  const EventTimings& timings = *record.timings;
  const KernelTimeInterval& interval = *timings.kernel_ns_interval;
  const double median_ns = timings.kernel_ns.median;
  point.median_interval = gflopsOf(point.at, median_ns, interval.lower_ns, interval.upper_ns);
  point.min_max = gflopsOf(point.at, median_ns, timings.kernel_ns.min, timings.kernel_ns.max);
  point.missed_noise_target = !interval.converged;
}

// DRAM (the counters' bytes when measured, else the compulsory ones), L1, L2, local memory; for counted
// work the point is the DRAM level and the others are the counters' levels.
std::vector<LevelMarker> levelMarkers(const AnalysedRecord& record, const std::string& model_key, const DataPoint& at,
                                      const ChartWork& work) {
  std::vector<LevelMarker> markers;
  if (at.level != MemoryLevel::global && !work.counted) return markers;
  const std::string per_byte = work.arithmetic == Arithmetic::int32 ? " op/byte" : " FLOP/byte";
  auto add = [&](const RooflinePlacement* placement, MemoryLevel level) {
    if (placement == nullptr || (work.counted && !countedInteger(*placement, record))) return;
    const std::optional<double> intensity = known(placement->intensity);
    if (!intensity || *intensity <= 0) return;
    LevelMarker marker{DataPoint{*intensity, at.gflops, level}, {}};
    marker.details.push_back(record.family + " / " + record.variant);
    marker.details.push_back(levelDisplayName(level) + " level (" + toString(placement->intensity_source) +
                             "): " + formatSignificant(*intensity, 3) + per_byte);
    if (const auto fraction = known(placement->fraction_of_roof))
      marker.details.push_back(formatPercent(*fraction) + " of the " + levelDisplayName(level) + " roof");
    if (placement->above_roof) marker.details.push_back("⚠ " + aboveRoofText(*placement->above_roof));
    markers.push_back(std::move(marker));
  };
  if (!work.counted) {
    const RooflinePlacement* counted_dram = placementOn(record, model_key + "_counters");
    add(counted_dram != nullptr && known(counted_dram->intensity) ? counted_dram : placementOn(record, model_key),
        MemoryLevel::dram);
  }
  for (MemoryLevel level : {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::local})
    add(placementOn(record, levelPlacementKey(model_key, level)), level);
  return markers;
}

std::vector<MutantMarker> mutantMarkers(const AnalysedResults& results, const AnalysedRecord& original,
                                        const DataPoint& at) {
  std::vector<MutantMarker> markers;
  const std::optional<double> original_ns = original.medianKernelNs();
  if (!original_ns || !(*original_ns > 0)) return markers;
  for (const AnalysedRecord& record : results.records) {
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

}  // namespace rooflab::reports::chart_detail
