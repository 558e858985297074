// The tuning chart's panels: a frame, the dimension's values along x, the rate along y (linear from
// zero: tuning gains are factors of a few), a marker per configuration that ran.
#include "reports/chart/tuning_chart.hpp"

#include <algorithm>
#include <cmath>

#include "analyzer/support/format.hpp"
#include "reports/chart/chart_style.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

const Rgb kGrid{0xdd, 0xdd, 0xdd};
const Rgb kPoint{0x00, 0x72, 0xb2};
const Rgb kBest{0xd5, 0x5e, 0x00};
const Rgb kBaseline{0x00, 0x9e, 0x73};
const Rgb kFailed{0xc0, 0x1c, 0x1c};
const Rgb kTuningBackground{0xff, 0xff, 0xff};

struct Panel {
  double left = 0, top = 0, width = 0, height = 0;
};

std::string configurationText(const TuningResult& result, const TunedConfiguration& c) {
  std::string text;
  for (std::size_t d = 0; d < result.dimensions.size(); ++d)
    text += (d ? " " : "") + result.dimensions[d].name + "=" + formatNumber(c.values[d]);
  return text;
}

std::vector<std::string> tooltip(const TuningResult& result, const TunedConfiguration& c, bool best, bool baseline) {
  std::vector<std::string> lines{configurationText(result, c)};
  if (best) lines.push_back("the best configuration");
  if (baseline) lines.push_back("the variant as written");
  if (c.outcome == ConfigurationOutcome::ok && c.median_ns) {
    lines.push_back("time " + formatDurationNs(*c.median_ns) + " (median)");
    if (c.rate) lines.push_back(formatRate(*c.rate) + " " + result.rate_unit);
  } else {
    lines.push_back(toString(c.outcome) + (c.reason.empty() ? "" : ": " + c.reason.substr(0, 200)));
  }
  if (c.order) lines.push_back("run " + std::to_string(*c.order) + (c.resumed ? " (from the journal)" : ""));
  return lines;
}

// A round step for about five gridlines up to `top`.
double niceStep(double top) {
  const double raw = top / 5;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double multiple : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (multiple * power >= raw) return multiple * power;
  return 10 * power;
}

class TuningSceneBuilder {
 public:
  TuningSceneBuilder(const TuningResult& result, const ChartStyle& style) : result_(result), style_(style) {
    for (const TunedConfiguration& c : result.configurations)
      if (c.rate) top_rate_ = std::max(top_rate_, *c.rate);
    if (result.roof_rate && *result.roof_rate < 2 * top_rate_) top_rate_ = std::max(top_rate_, *result.roof_rate);
    top_rate_ = top_rate_ > 0 ? top_rate_ * 1.08 : 1;
    step_ = niceStep(top_rate_);
  }

  ChartScene build() {
    scene_.width_px = style_.width_px;
    const std::size_t panels = std::max<std::size_t>(result_.dimensions.size(), 1);
    const std::size_t columns = std::min<std::size_t>(panels, 3), rows = (panels + columns - 1) / columns;
    const double title_h = style_.title_font_px * 3.2, panel_h = style_.height_px * 0.42;
    scene_.height_px = title_h + static_cast<double>(rows) * panel_h + style_.tick_font_px;
    scene_.title = "Tuning " + result_.family + "/" + result_.variant;
    scene_.items.push_back(SceneRect{{0, 0}, scene_.width_px, scene_.height_px, kTuningBackground, std::nullopt, 0});
    // Short enough for a long variant name at the chart's width; what a dot is goes on the line below.
    text(scene_.title + ": " + result_.rate_unit + " against each parameter",
         {style_.tick_font_px, style_.title_font_px * 1.4}, style_.title_font_px, TextAlign::start, true);
    text("a dot per configuration; best: orange diamond; as written: green square; failed: red, along the bottom" +
             std::string(result_.roof_rate ? "; dashed: the device's roof" : ""),
         {style_.tick_font_px, style_.title_font_px * 2.5}, style_.legend_font_px, TextAlign::start);
    const double panel_w = (scene_.width_px - style_.tick_font_px) / static_cast<double>(columns);
    for (std::size_t d = 0; d < result_.dimensions.size(); ++d) {
      const double left = style_.tick_font_px + static_cast<double>(d % columns) * panel_w;
      const double top = title_h + static_cast<double>(d / columns) * panel_h;
      addPanel(d, Panel{left + style_.tick_font_px * 4.5, top + style_.tick_font_px, panel_w - style_.tick_font_px * 6,
                        panel_h - style_.tick_font_px * 4.2});
    }
    return std::move(scene_);
  }

 private:
  void text(std::string content, PixelPoint at, double font, TextAlign align, bool bold = false, double rotation = 0) {
    scene_.items.push_back(SceneText{std::move(content), at, font, bold, align, rotation, kInk, std::nullopt});
  }

  double y(const Panel& p, double rate) const { return p.top + p.height - rate / top_rate_ * p.height; }

  void addAxes(const Panel& p, const TuningDimension& dimension) {
    const double tick = style_.tick_font_px * 0.8;
    for (double value = 0; value <= top_rate_; value += step_) {
      scene_.items.push_back(
          SceneLine{{p.left, y(p, value)}, {p.left + p.width, y(p, value)}, kGrid, 1, StrokeDash::solid, std::nullopt});
      text(formatSignificant(value, 3), {p.left - 6, y(p, value) + tick * 0.35}, tick, TextAlign::end);
    }
    scene_.items.push_back(SceneRect{{p.left, p.top}, p.width, p.height, std::nullopt, kInk, 1.5});
    for (std::size_t i = 0; i < dimension.values.size(); ++i)
      text(formatNumber(dimension.values[i]), {x(p, dimension, i, 0), p.top + p.height + tick * 1.3}, tick,
           TextAlign::middle);
    text(dimension.name, {p.left + p.width / 2, p.top + p.height + tick * 2.8}, style_.axis_title_font_px * 0.8,
         TextAlign::middle, true);
    if (result_.roof_rate && *result_.roof_rate <= top_rate_)
      scene_.items.push_back(SceneLine{{p.left, y(p, *result_.roof_rate)},
                                       {p.left + p.width, y(p, *result_.roof_rate)},
                                       kInk,
                                       2,
                                       StrokeDash::dashed,
                                       std::nullopt});
  }

  // The value's column, spread a little by the configuration's index so that equal rates stay apart.
  double x(const Panel& p, const TuningDimension& dimension, std::size_t value_index, std::size_t configuration) const {
    const double column = p.width / static_cast<double>(dimension.values.size());
    const double jitter = (static_cast<double>((configuration * 7919) % 17) / 16.0 - 0.5) * column * 0.5;
    return p.left + column * (static_cast<double>(value_index) + 0.5) + (configuration ? jitter : 0);
  }

  void addPanel(std::size_t d, const Panel& p) {
    const TuningDimension& dimension = result_.dimensions[d];
    addAxes(p, dimension);
    std::vector<SceneMarker> last;  // the best and the baseline, drawn over the others
    for (std::size_t c = 0; c < result_.configurations.size(); ++c) {
      const TunedConfiguration& t = result_.configurations[c];
      if (t.outcome == ConfigurationOutcome::invalid || t.outcome == ConfigurationOutcome::not_evaluated) continue;
      const std::size_t value_index = static_cast<std::size_t>(
          std::find(dimension.values.begin(), dimension.values.end(), t.values[d]) - dimension.values.begin());
      const bool best = result_.best == c, baseline = result_.baseline == c;
      SceneMarker marker;
      marker.center = {x(p, dimension, value_index, c + 1), t.rate ? y(p, *t.rate) : p.top + p.height - 6};
      marker.radius_px = style_.marker_radius_px * 0.6;
      marker.fill = t.outcome == ConfigurationOutcome::ok ? kPoint : kFailed;
      marker.shape = t.outcome == ConfigurationOutcome::ok ? MarkerShape::circle : MarkerShape::cross;
      marker.tooltip = tooltip(result_, t, best, baseline);
      if (best || baseline) {
        marker.shape = best ? MarkerShape::diamond : MarkerShape::square;
        marker.fill = best ? kBest : kBaseline;
        marker.radius_px = style_.marker_radius_px * (best ? 1.3 : 1.0);
        marker.center.x_px = x(p, dimension, value_index, 0);
        last.push_back(std::move(marker));
        continue;
      }
      scene_.items.push_back(std::move(marker));
    }
    std::sort(last.begin(), last.end(),
              [](const SceneMarker& a, const SceneMarker&) { return a.shape == MarkerShape::square; });
    for (SceneMarker& marker : last) scene_.items.push_back(std::move(marker));
  }

  const TuningResult& result_;
  const ChartStyle& style_;
  ChartScene scene_;
  double top_rate_ = 0;
  double step_ = 1;
};

}  // namespace

ChartScene layoutTuningChart(const TuningResult& result, const ChartStyle& style) {
  return TuningSceneBuilder(result, style).build();
}

}  // namespace rooflab::reports
