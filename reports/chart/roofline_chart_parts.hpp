// Internal to reports/chart: what the roofline chart's builder (roofline_chart.cpp) shares with the
// file that places its points (roofline_chart_points.cpp) and with the other charts' builders
// (instruction_roofline.cpp): axes, labels, the params that tell points apart, and the points.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "reports/chart/roofline_chart.hpp"
#include "reports/text/known_value.hpp"

namespace rooflab::reports::chart_detail {

// Padding around the data, in decades: room for the ceiling labels above the highest roof and
// for markers at the edges.
inline constexpr double kAxisPaddingDecades = 0.3;
// Points get extra room on the right for their params label.
inline constexpr double kPointLabelRoomDecades = 0.25;

// Where a chart's points and roofs lie, in decades (log10), to fit the axes to.
struct LogExtent {
  double min_x = std::numeric_limits<double>::infinity(), max_x = -std::numeric_limits<double>::infinity();
  double min_y = std::numeric_limits<double>::infinity(), max_y = -std::numeric_limits<double>::infinity();
  void includeX(double value) {
    min_x = std::min(min_x, std::log10(value));
    max_x = std::max(max_x, std::log10(value));
  }
  void includeY(double value) {
    min_y = std::min(min_y, std::log10(value));
    max_y = std::max(max_y, std::log10(value));
  }
};

// Sets the axis range (widened to at least two decades) and its decade ticks.
void setLogRange(LogAxis& axis, double min_log10, double max_log10);
// "192.3", "2460", "66900": 4 significant digits, but no ".0" tail on round numbers.
std::string compactValueText(double value);

// A record's derived counter `key` ("dram_bytes"), where its counters were read and know it.
inline std::optional<double> derivedCounter(const AnalysedRecord& record, const char* key) {
  const counters::CounterSet& c = record.counters;
  if (!c.available || c.not_attempted) return std::nullopt;
  const auto found = c.derived.find(key);
  return found == c.derived.end() ? std::nullopt : known(found->second);
}

// The params that take more than one value among the family's records: what tells points apart.
std::vector<std::string> varyingParamNames(const std::vector<const AnalysedRecord*>& records);
// "N=1024" for the varying params, or "".
std::string shortLabelFor(const AnalysedRecord& record, const std::vector<std::string>& varying_names);

// What the chart's y counts and where its points come from. A family declaring FP32 work of which
// none of its records does any (a transpose, a data-movement or integer kernel), but whose counters
// counted integer instructions, is drawn from those counts under the int32 roof: `counted`.
struct ChartWork {
  Arithmetic arithmetic = Arithmetic::fp32;
  bool counted = false;
};
ChartWork chartWorkOf(const std::vector<const AnalysedRecord*>& normal_records);
// "GFLOP/s" or, for integer work, "GOP/s".
std::string rateUnit(Arithmetic arithmetic);

// Where a record goes on the chart, and the model key of its placement; nullopt with the reason
// when it has no place on log-log axes.
std::optional<DataPoint> placeOnChart(const AnalysedResults& results, const AnalysedRecord& record,
                                      const ChartWork& work, std::string& reason, std::string& model_key,
                                      std::optional<std::string>& above_roof);
// The point's tooltip lines.
std::vector<std::string> pointDetails(const AnalysedResults& results, const AnalysedRecord& record, const DataPoint& at,
                                      const ChartWork& work);
// The median's interval and the fastest to slowest run, for records measured to a noise target.
void addPerformanceBars(VariantPoint& point, const AnalysedRecord& record);
// The record's other memory levels on the model its point was placed with, at the point's rate.
std::vector<LevelMarker> levelMarkers(const AnalysedRecord& record, const std::string& model_key, const DataPoint& at,
                                      const ChartWork& work);
// The record's ok mutants, each at the rate the original would reach in the mutant's time.
std::vector<MutantMarker> mutantMarkers(const AnalysedResults& results, const AnalysedRecord& original,
                                        const DataPoint& at);

}  // namespace rooflab::reports::chart_detail
