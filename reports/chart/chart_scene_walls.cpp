// The chart's scene: the instruction roofline's walls (vertical lines where an access pattern puts
// its load or store instructions per transaction) and the loads and stores of each variant read
// against them. Charts without walls or load and store markers draw nothing here.
#include "reports/chart/chart_scene.hpp"

#include <algorithm>

#include "reports/chart/chart_scene_builder.hpp"

namespace rooflab::reports::scene_detail {
namespace {

const Rgb kWallColor{0x88, 0x33, 0x88};
constexpr AccessKind kAccessKinds[] = {AccessKind::global_load, AccessKind::global_store, AccessKind::shared_load,
                                       AccessKind::shared_store};

}  // namespace

MarkerShape accessShape(AccessKind kind) {
  switch (kind) {
    case AccessKind::global_load: return MarkerShape::circle;
    case AccessKind::global_store: return MarkerShape::pentagon;
    case AccessKind::shared_load: return MarkerShape::plus;
    case AccessKind::shared_store: return MarkerShape::cross;
  }
  return MarkerShape::circle;
}

// A wall spans the plot's height; its label runs up along it, beside the line where it covers no
// other label or marker, the shorter label where the longer finds no room.
void SceneBuilder::addWalls() {
  const double font = style_.ceiling_label_font_px;
  for (const ChartWall& wall : chart_.walls) {
    if (wall.x <= chart_.x_axis.min_value || wall.x >= chart_.x_axis.max_value) continue;
    const double x = projection_.xPx(wall.x);
    line({x, area_.top}, {x, area_.bottom}, kWallColor, 2, StrokeDash::dashed);
  }
  for (const ChartWall& wall : chart_.walls) {
    if (wall.x <= chart_.x_axis.min_value || wall.x >= chart_.x_axis.max_value) continue;
    const double x = projection_.xPx(wall.x);
    bool placed = false;
    for (const std::string* label : {&wall.label, &wall.short_label}) {
      const double width = estimatedTextWidthPx(*label, font);
      if (placed || width > area_.height() - 20) continue;
      // Turned -90 degrees, the glyphs lie from 0.8 em left of the baseline to 0.2 em right of it: left
      // of the line, then right of it, from the bottom up.
      for (const double baseline_x : {x - font * 0.2 - 4, x + font * 0.8 + 4}) {
        for (double from_bottom = 10; !placed && from_bottom + width <= area_.height() - 10; from_bottom += font * 1.5)
          placed = placeLabel(SceneText{*label,
                                        {baseline_x, area_.bottom - from_bottom},
                                        font,
                                        false,
                                        TextAlign::start,
                                        -90,
                                        kWallColor,
                                        std::nullopt});
        if (placed) break;
      }
    }
  }
}

void SceneBuilder::addAccessMarkers() {
  for (const VariantPoint& point : chart_.points) {
    for (const AccessMarker& access : point.accesses) {
      scene_.items.push_back(SceneMarker{projection_.toPixel(access.at), accessShape(access.kind),
                                         style_.marker_radius_px * kLevelMarkerScale, seriesColor(point.series_index),
                                         access.details, false, seriesTag(point)});
    }
  }
}

// The walls, then which shape is which kind of load or store, for the kinds some point has; returns the
// next row's y.
double SceneBuilder::addAccessLegend(double left, double y, double font, double marker_radius) {
  if (!chart_.walls.empty()) {
    y += font * 0.6;
    text("Walls at x =", {left, y}, font, TextAlign::start, kBlack, true);
    y += font * 1.5;
    for (const ChartWall& wall : chart_.walls) {
      line({left + 26, y - font * 0.95}, {left + 26, y + font * 0.25}, kWallColor, 2, StrokeDash::dashed);
      text(wall.legend, {left + 64, y}, font, TextAlign::start);
      y += font * 1.5;
    }
  }
  std::vector<AccessKind> present;
  for (const VariantPoint& point : chart_.points)
    for (const AccessMarker& access : point.accesses) present.push_back(access.kind);
  if (present.empty()) return y;
  y += font * 0.6;
  text("Loads and stores", {left, y}, font, TextAlign::start, kBlack, true);
  y += font * 1.5;
  for (const AccessKind kind : kAccessKinds) {
    if (std::find(present.begin(), present.end(), kind) == present.end()) continue;
    scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35},
                                       accessShape(kind),
                                       marker_radius * kLevelMarkerScale,
                                       kMutedText,
                                       {},
                                       false,
                                       std::nullopt});
    text(accessDisplayName(kind), {left + 64, y}, font, TextAlign::start);
    y += font * 1.5;
  }
  return y;
}

}  // namespace rooflab::reports::scene_detail
