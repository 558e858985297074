// The chart's scene: the builder's canvas, axes, grid and roofs, and layoutRooflineChart itself.
#include "reports/chart/chart_scene.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/chart_scene_builder.hpp"

namespace rooflab::reports::scene_detail {

Rgb roofColor(ModelRole role) {
  switch (role) {
    case ModelRole::measured_device: return kDeviceRoof;
    case ModelRole::reference: return kReferenceRoof;
    case ModelRole::other: return kOtherRoof;
  }
  return kOtherRoof;
}

double roofWidthPx(ModelRole role) { return role == ModelRole::measured_device ? 3.5 : 3.0; }

// The model is told by dash (solid device, dashed reference); a local-memory roof is dotted.
StrokeDash roofDash(ModelRole role, CeilingKind kind) {
  if (kind == CeilingKind::local_bandwidth || kind == CeilingKind::l2_bandwidth || kind == CeilingKind::l1_bandwidth ||
      kind == CeilingKind::launch_floor)
    return StrokeDash::dotted;
  return role == ModelRole::measured_device ? StrokeDash::solid : StrokeDash::dashed;
}

ChartScene SceneBuilder::build() {
  scene_.items.push_back(SceneRect{{0, 0}, style_.width_px, style_.height_px, kWhite, std::nullopt, 0});
  addTitle();
  addGrid();
  addAxes();
  reserveMarkerFootprints();
  addWalls();  // before the roofs: a wall's label may cross a roof's line, the roofs' labels keep off it
  addCeilings();
  addLevelMarkers();
  addAccessMarkers();
  addMutantMarkers();
  addSeriesLines();
  addPoints();
  addSeriesMarks();
  addEmptyNote();
  addLegendThatFits();
  return std::move(scene_);
}

PlotArea SceneBuilder::plotArea(const ChartStyle& style) {
  PlotArea area;
  area.left = style.tick_font_px * 4.2 + style.axis_title_font_px * 1.6;
  area.top = style.title_font_px * 2.6;
  area.right = style.width_px - kLegendWidthPx - 30;
  area.bottom = style.height_px - style.tick_font_px * 2.0 - style.axis_title_font_px * 2.4;
  return area;
}

// A text at a fixed place (title, ticks, legend): drawn, and kept clear by the labels placed later.
void SceneBuilder::text(std::string content, PixelPoint baseline, double font_px, TextAlign align, Rgb color, bool bold,
                        double rotation_deg, std::optional<SeriesTag> series) {
  SceneText item{std::move(content), baseline, font_px, bold, align, rotation_deg, color, series};
  obstacles_.push_back(textFootprint(item));
  scene_.items.push_back(std::move(item));
}

void SceneBuilder::line(PixelPoint from, PixelPoint to, Rgb color, double width_px, StrokeDash dash,
                        std::optional<SeriesTag> series) {
  scene_.items.push_back(SceneLine{from, to, color, width_px, dash, series});
}

void SceneBuilder::addTitle() {
  text(chart_.title, {area_.left, style_.title_font_px * 1.5}, style_.title_font_px, TextAlign::start, kBlack, true);
}

void SceneBuilder::addGrid() {
  const double x_low = chart_.x_axis.min_value, x_high = chart_.x_axis.max_value;
  const double y_low = chart_.y_axis.min_value, y_high = chart_.y_axis.max_value;
  // Minor lines at 2..9 x each decade make values readable between the decade ticks.
  for (int decade = static_cast<int>(std::floor(std::log10(x_low))); decade <= std::log10(x_high); ++decade) {
    for (int multiple = 2; multiple <= 9; ++multiple) {
      const double value = multiple * std::pow(10.0, decade);
      if (value <= x_low || value >= x_high) continue;
      const double x = projection_.xPx(value);
      line({x, area_.top}, {x, area_.bottom}, kMinorGrid, 1);
    }
  }
  for (int decade = static_cast<int>(std::floor(std::log10(y_low))); decade <= std::log10(y_high); ++decade) {
    for (int multiple = 2; multiple <= 9; ++multiple) {
      const double value = multiple * std::pow(10.0, decade);
      if (value <= y_low || value >= y_high) continue;
      const double y = projection_.yPx(value);
      line({area_.left, y}, {area_.right, y}, kMinorGrid, 1);
    }
  }
  for (double tick : chart_.x_axis.decade_ticks) {
    const double x = projection_.xPx(tick);
    line({x, area_.top}, {x, area_.bottom}, kMajorGrid, 1.5);
  }
  for (double tick : chart_.y_axis.decade_ticks) {
    const double y = projection_.yPx(tick);
    line({area_.left, y}, {area_.right, y}, kMajorGrid, 1.5);
  }
}

void SceneBuilder::addAxes() {
  scene_.items.push_back(SceneRect{{area_.left, area_.top}, area_.width(), area_.height(), std::nullopt, kFrame, 2});
  const double tick_length_px = 8;
  for (double tick : chart_.x_axis.decade_ticks) {
    const double x = projection_.xPx(tick);
    line({x, area_.bottom}, {x, area_.bottom + tick_length_px}, kFrame, 2);
    text(decadeTickLabel(tick), {x, area_.bottom + tick_length_px + style_.tick_font_px * 1.1}, style_.tick_font_px,
         TextAlign::middle);
  }
  for (double tick : chart_.y_axis.decade_ticks) {
    const double y = projection_.yPx(tick);
    line({area_.left - tick_length_px, y}, {area_.left, y}, kFrame, 2);
    text(decadeTickLabel(tick), {area_.left - tick_length_px - 6, y + style_.tick_font_px * 0.35}, style_.tick_font_px,
         TextAlign::end);
  }
  text(chart_.x_axis.title,
       {(area_.left + area_.right) / 2, area_.bottom + style_.tick_font_px * 2.0 + style_.axis_title_font_px * 1.5},
       style_.axis_title_font_px, TextAlign::middle);
  text(chart_.y_axis.title, {style_.axis_title_font_px * 1.2, (area_.top + area_.bottom) / 2},
       style_.axis_title_font_px, TextAlign::middle, kBlack, false, -90);
}

void SceneBuilder::addCeilings() {
  for (const Ceiling& ceiling : chart_.ceilings) {
    const ChartModel& model = chart_.models[ceiling.model_index];
    const PixelPoint from = projection_.toPixel(ceiling.from);
    const PixelPoint to = projection_.toPixel(ceiling.to);
    line(from, to, roofColor(model.role), roofWidthPx(model.role), roofDash(model.role, ceiling.kind));
    obstacles_.push_back(lineFootprint(from, to, roofWidthPx(model.role) / 2));
  }
  // The device's labels choose their place first: they matter most. Peaks before slopes, since
  // a flat label has fewer places to go.
  std::vector<const Ceiling*> ordered;
  for (const Ceiling& ceiling : chart_.ceilings)
    if (!ceiling.label.empty()) ordered.push_back(&ceiling);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](const Ceiling* a, const Ceiling* b) { return labelPriority(*a) < labelPriority(*b); });
  for (const Ceiling* ceiling : ordered) {
    if (ceiling->kind == CeilingKind::fp32_peak) {
      addPeakLabel(*ceiling);
    } else {
      addSlopeLabel(*ceiling);
    }
  }
}

// A roof's line, so that no label is written across another roof (each sits beside its own).
TextFootprint SceneBuilder::lineFootprint(PixelPoint from, PixelPoint to, double half_width_px) {
  const double length = std::max(std::hypot(to.x_px - from.x_px, to.y_px - from.y_px), 1e-9);
  const double nx = -(to.y_px - from.y_px) / length * half_width_px,
               ny = (to.x_px - from.x_px) / length * half_width_px;
  return TextFootprint{{{{from.x_px + nx, from.y_px + ny},
                         {to.x_px + nx, to.y_px + ny},
                         {to.x_px - nx, to.y_px - ny},
                         {from.x_px - nx, from.y_px - ny}}}};
}

}  // namespace rooflab::reports::scene_detail

namespace rooflab::reports {

ChartScene layoutRooflineChart(const RooflineChart& chart, const ChartStyle& style) {
  return scene_detail::SceneBuilder(chart, style).build();
}

}  // namespace rooflab::reports
