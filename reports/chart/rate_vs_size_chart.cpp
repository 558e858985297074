// The rate-versus-size chart's data: points, roofs and floor at the sizes that ran, axes around them.
#include "reports/chart/rate_vs_size_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analyzer/support/format.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

constexpr double kPaddingDecades = 0.25;

struct Work {
  double flops = 0, bytes = 0;
  Arithmetic arithmetic = Arithmetic::fp32;
};

double workIn(const std::string& unit, const Work& work) { return unit == "GB/s" ? work.bytes : work.flops; }

// The family's work at each size that ran (the same for every variant: the manifest's [work]).
std::map<double, Work> workBySize(const SizeResponse& response) {
  std::map<double, Work> work;
  for (const SizeSeries& s : response.series)
    for (const SizePoint& p : s.points)
      work.emplace(p.size, Work{p.record->work.flops, p.record->work.bytes, p.record->work.arithmetic});
  return work;
}

// A model's roof at a size, in the chart's unit.
std::optional<double> roofAt(const DeviceModel& model, const std::string& unit, const Work& work) {
  if (model.dram_gbps <= 0) return std::nullopt;
  if (unit == "GB/s") return model.dram_gbps;
  if (work.bytes <= 0) return std::nullopt;
  const double peak = model.computePeak(work.arithmetic).value_or(model.peak_gflops);
  return std::min(peak, work.flops / work.bytes * model.dram_gbps);
}

void addPolyline(RooflineChart& chart, std::size_t model, CeilingKind kind, const std::vector<DataPoint>& points,
                 const std::string& label, const std::string& short_label) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    const bool last = i + 1 == points.size();
    chart.ceilings.push_back(
        Ceiling{model, kind, points[i].gflops, points[i - 1], points[i], last ? label : "", last ? short_label : ""});
  }
}

void addModels(RooflineChart& chart, const AnalysedResults& results, const SizeResponse& response,
               const std::map<double, Work>& work) {
  const std::string reference = referenceModelKey(results);
  for (const std::string& key : {reference, std::string("device")}) {
    const auto entry = results.models.roofline_models.find(key);
    if (entry == results.models.roofline_models.end() || (key == "device" && reference == "device")) continue;
    const ModelRole role = key == reference ? ModelRole::reference : ModelRole::measured_device;
    chart.models.push_back(ChartModel{key, modelShortName(results, key), role,
                                      role == ModelRole::reference ? "reference model" : "device that ran"});
    std::vector<DataPoint> roof;
    for (const auto& [size, w] : work)
      if (const auto rate = roofAt(entry->second.model, response.unit, w)) roof.push_back(DataPoint{size, *rate});
    const std::string what = response.unit == "GB/s" ? "DRAM roof" : "roof at each size's intensity";
    addPolyline(chart, chart.models.size() - 1, CeilingKind::dram_bandwidth, roof,
                what + " · " + chart.models.back().short_name, what);
  }
  if (results.launch_floor_ns && !chart.models.empty()) {
    std::vector<DataPoint> floor;
    for (const auto& [size, w] : work)
      if (workIn(response.unit, w) > 0)
        floor.push_back(DataPoint{size, workIn(response.unit, w) / *results.launch_floor_ns});
    const std::string label = "launch floor (an empty kernel: " + formatDurationNs(*results.launch_floor_ns) + ")";
    addPolyline(chart, chart.models.size() - 1, CeilingKind::launch_floor, floor, label, label);
  }
}

std::vector<std::string> pointDetails(const SizeResponse& response, const SizeSeries& series, const SizePoint& p) {
  std::vector<std::string> lines{response.family + " / " + series.variant};
  lines.push_back(recordParamsText(*p.record));
  lines.push_back("time " + formatDurationNs(*p.record->medianKernelNs()) + " (median)");
  lines.push_back(formatRate(p.rate) + " " + response.unit + " (plateau " + formatRate(series.plateau_rate) + ")");
  return lines;
}

void addSeries(RooflineChart& chart, const SizeResponse& response) {
  for (std::size_t index = 0; index < response.series.size(); ++index) {
    const SizeSeries& s = response.series[index];
    chart.series.push_back(VariantSeries{s.others.empty() ? s.variant : s.variant + " " + s.others});
    for (const SizePoint& p : s.points) {
      VariantPoint point;
      point.at = DataPoint{p.size, p.rate};
      point.series_index = index;
      point.details = pointDetails(response, s, p);
      const auto& timings = p.record->timings;
      if (timings && timings->kernel_ns_interval && timings->kernel_ns_interval->lower_ns > 0) {
        const double median = timings->kernel_ns.median;
        point.median_interval = GflopsRange{p.rate * median / timings->kernel_ns_interval->upper_ns,
                                            p.rate * median / timings->kernel_ns_interval->lower_ns};
        point.missed_noise_target = !timings->kernel_ns_interval->converged;
      }
      chart.points.push_back(std::move(point));
    }
    if (s.half_plateau_size) {
      std::vector<std::string> details{s.variant + (s.others.empty() ? "" : " " + s.others),
                                       "half of its plateau (" + formatRate(s.plateau_rate / 2) + " " + response.unit +
                                           ") " + (s.half_below_range ? "at or below " : "at ") + response.param +
                                           " ≈ " + formatCount(*s.half_plateau_size)};
      if (s.still_rising) details.push_back("still rising at the largest size: the plateau may be higher");
      chart.marks.push_back(SeriesMark{index, DataPoint{*s.half_plateau_size, s.plateau_rate / 2}, details});
    }
  }
}

// The piece of `c` between log10 rates y_min and y_max; false when none of it is.
bool clipToFrame(Ceiling& c, double y_min, double y_max) {
  double x0 = std::log10(c.from.intensity_flop_per_byte), y0 = std::log10(c.from.gflops);
  double x1 = std::log10(c.to.intensity_flop_per_byte), y1 = std::log10(c.to.gflops);
  if ((y0 > y_max && y1 > y_max) || (y0 < y_min && y1 < y_min)) return false;
  if (y0 >= y_min && y0 <= y_max && y1 >= y_min && y1 <= y_max) return true;  // inside: as computed
  auto cut = [&](double& xa, double& ya, double xb, double yb, double limit) {
    xa = xa + (limit - ya) / (yb - ya) * (xb - xa);
    ya = limit;
  };
  if (y0 > y_max) cut(x0, y0, x1, y1, y_max);
  if (y0 < y_min) cut(x0, y0, x1, y1, y_min);
  if (y1 > y_max) cut(x1, y1, x0, y0, y_max);
  if (y1 < y_min) cut(x1, y1, x0, y0, y_min);
  c.from = DataPoint{std::pow(10.0, x0), std::pow(10.0, y0)};
  c.to = DataPoint{std::pow(10.0, x1), std::pow(10.0, y1)};
  return true;
}

void setAxis(LogAxis& axis, double low, double high) {
  double min_log = std::log10(low) - kPaddingDecades, max_log = std::log10(high) + kPaddingDecades;
  if (max_log - min_log < 1) {
    const double widen = (1 - (max_log - min_log)) / 2;
    min_log -= widen;
    max_log += widen;
  }
  axis.min_value = std::pow(10.0, min_log);
  axis.max_value = std::pow(10.0, max_log);
  axis.decade_ticks.clear();
  for (int decade = static_cast<int>(std::ceil(min_log - 1e-9)); decade <= static_cast<int>(std::floor(max_log + 1e-9));
       ++decade)
    axis.decade_ticks.push_back(std::pow(10.0, decade));
}

}  // namespace

RooflineChart buildRateVsSizeChart(const AnalysedResults& results, const SizeResponse& response) {
  RooflineChart chart;
  chart.family = response.family;
  chart.title = "Rate against size: " + response.family;
  chart.x_axis.title = response.param + " (problem size)";
  chart.y_axis.title = "Achieved " + response.unit;
  chart.join_series = true;
  addSeries(chart, response);
  addModels(chart, results, response, workBySize(response));
  double x_low = std::numeric_limits<double>::infinity(), x_high = 0, y_low = x_low, y_high = 0;
  for (const VariantPoint& p : chart.points) {
    x_low = std::min(x_low, p.at.intensity_flop_per_byte), x_high = std::max(x_high, p.at.intensity_flop_per_byte);
    y_low = std::min(y_low, p.at.gflops), y_high = std::max(y_high, p.at.gflops);
  }
  // The roofs are drawn where they fall within a decade of the rates; the floor rises steeply.
  for (const Ceiling& c : chart.ceilings)
    if (c.kind != CeilingKind::launch_floor) y_high = std::max(y_high, std::min(c.to.gflops, y_high * 10));
  setAxis(chart.x_axis, x_low, x_high);
  setAxis(chart.y_axis, std::max(y_low, y_high * 1e-6), y_high);
  // Pieces of a roof or the floor outside the frame would be drawn over the axes: clip them, along
  // the line on log-log axes.
  std::vector<Ceiling> kept;
  for (Ceiling c : chart.ceilings)
    if (clipToFrame(c, std::log10(chart.y_axis.min_value), std::log10(chart.y_axis.max_value)))
      kept.push_back(std::move(c));
  // A line whose labelled piece fell outside is labelled on its last piece that stayed.
  for (std::size_t i = kept.size(); i-- > 0;) {
    const auto same = [&](const Ceiling& c) { return c.kind == kept[i].kind && c.model_index == kept[i].model_index; };
    if (std::none_of(kept.begin(), kept.end(), [&](const Ceiling& c) { return same(c) && !c.label.empty(); })) {
      kept[i].short_label = kept[i].kind == CeilingKind::launch_floor ? "launch floor"
                            : response.unit == "GB/s"                 ? "DRAM roof"
                                                                      : "roof";
      kept[i].label = kept[i].short_label + " · " + chart.models[kept[i].model_index].short_name;
    }
  }
  chart.ceilings = std::move(kept);
  return chart;
}

}  // namespace rooflab::reports
