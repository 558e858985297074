// The chart's scene: its markers and series (points, bars, level and mutant markers, their shapes and colours).
#include "reports/chart/chart_scene.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/chart_scene_builder.hpp"

namespace rooflab::reports::scene_detail {
namespace {

// The colour-blind-safe Okabe-Ito palette, then four dark tones of Paul Tol's that stay apart from
// it: a ladder of 10 rungs (matmul, reduce) gets 10 colours. A shape per variant is a second cue.
const Rgb kSeriesColors[] = {{0x00, 0x72, 0xb2}, {0xe6, 0x9f, 0x00}, {0x00, 0x9e, 0x73}, {0xd5, 0x5e, 0x00},
                             {0xcc, 0x79, 0xa7}, {0x56, 0xb4, 0xe9}, {0xf0, 0xe4, 0x42}, {0x99, 0x99, 0x99},
                             {0x88, 0x22, 0x55}, {0x33, 0x22, 0x88}, {0x99, 0x99, 0x33}, {0x66, 0x11, 0x00}};
constexpr std::size_t kSeriesColorCount = sizeof kSeriesColors / sizeof kSeriesColors[0];
const MarkerShape kSeriesShapes[] = {MarkerShape::circle,  MarkerShape::square,        MarkerShape::triangle_up,
                                     MarkerShape::diamond, MarkerShape::triangle_down, MarkerShape::pentagon};

}  // namespace

MarkerShape levelShape(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::global: return MarkerShape::circle;
    case MemoryLevel::dram: return MarkerShape::square;
    case MemoryLevel::l1: return MarkerShape::triangle_up;
    case MemoryLevel::l2: return MarkerShape::diamond;
    case MemoryLevel::local: return MarkerShape::triangle_down;
  }
  return MarkerShape::pentagon;
}

// Markers are placed before any label, so that no label covers a point.
void SceneBuilder::reserveMarkerFootprints() {
  const double radius = style_.marker_radius_px;
  auto reserve = [&](const DataPoint& at) {
    const PixelPoint center = projection_.toPixel(at);
    obstacles_.push_back(
        Box{center.x_px - radius, center.y_px - radius, center.x_px + radius, center.y_px + radius}.footprint());
  };
  for (const VariantPoint& point : chart_.points) {
    reserve(point.at);
    for (const LevelMarker& level : point.levels) reserve(level.at);
    for (const MutantMarker& mutant : point.mutants) reserve({point.at.intensity_flop_per_byte, mutant.gflops});
    for (const AccessMarker& access : point.accesses) reserve(access.at);
  }
}

// Under the markers: a thin whisker from the slowest to the fastest repetition, and over it a
// thick capped bar for the median's confidence interval, so the two read apart at a glance.
void SceneBuilder::addPerformanceBars() {
  for (const VariantPoint& point : chart_.points) {
    const Rgb color = seriesColor(point.series_index);
    const SeriesTag tag = seriesTag(point);
    const double x = point.at.intensity_flop_per_byte;
    if (point.min_max) {
      line(projection_.toPixel({x, point.min_max->low}), projection_.toPixel({x, point.min_max->high}), color, 1.5,
           StrokeDash::dotted, tag);
    }
    if (point.median_interval) {
      const PixelPoint low = projection_.toPixel({x, point.median_interval->low});
      const PixelPoint high = projection_.toPixel({x, point.median_interval->high});
      const double cap = style_.marker_radius_px * 0.9;
      line(low, high, color, 4, StrokeDash::solid, tag);
      line({low.x_px - cap, low.y_px}, {low.x_px + cap, low.y_px}, color, 2.5, StrokeDash::solid, tag);
      line({high.x_px - cap, high.y_px}, {high.x_px + cap, high.y_px}, color, 2.5, StrokeDash::solid, tag);
    }
    // A launch-bound point's launch floor: a short dashed roof over it at the rate its work would
    // reach in its launches' time, joined to it by a dotted line.
    if (point.launch_floor_gflops) {
      const PixelPoint floor = projection_.toPixel({x, *point.launch_floor_gflops});
      const double half = style_.marker_radius_px * 3;
      line({floor.x_px - half, floor.y_px}, {floor.x_px + half, floor.y_px}, color, 3, StrokeDash::dashed, tag);
      line(floor, projection_.toPixel(point.at), color, 1.5, StrokeDash::dotted, tag);
    }
  }
}

// A variant's markers at each memory level, joined by a line at its rate: how far apart they
// stand is how much each level of the hierarchy filters the traffic of the one above it.
void SceneBuilder::addLevelMarkers() {
  for (const VariantPoint& point : chart_.points) {
    if (point.levels.empty()) continue;
    double left = point.at.intensity_flop_per_byte, right = left;
    for (const LevelMarker& level : point.levels) {
      left = std::min(left, level.at.intensity_flop_per_byte);
      right = std::max(right, level.at.intensity_flop_per_byte);
    }
    const double y = projection_.yPx(point.at.gflops);
    line({projection_.xPx(left), y}, {projection_.xPx(right), y}, seriesColor(point.series_index), 2, StrokeDash::solid,
         seriesTag(point));
    for (const LevelMarker& level : point.levels) {
      scene_.items.push_back(SceneMarker{projection_.toPixel(level.at), levelShape(level.at.level),
                                         style_.marker_radius_px * kLevelMarkerScale, seriesColor(point.series_index),
                                         level.details, false, seriesTag(point)});
    }
  }
}

MarkerShape SceneBuilder::mutantShape(RunMode mode) {
  return mode == RunMode::compute_only ? MarkerShape::plus : MarkerShape::cross;
}

// On request: each mutant at the point's intensity, joined to it by a dotted line, so the height
// between them reads as the most that removing the memory (or compute) part could win.
void SceneBuilder::addMutantMarkers() {
  for (const VariantPoint& point : chart_.points) {
    const PixelPoint from = projection_.toPixel(point.at);
    for (const MutantMarker& mutant : point.mutants) {
      const PixelPoint at = projection_.toPixel({point.at.intensity_flop_per_byte, mutant.gflops});
      line(from, at, seriesColor(point.series_index), 1.5, StrokeDash::dotted, seriesTag(point));
      scene_.items.push_back(SceneMarker{at, mutantShape(mutant.mode), style_.marker_radius_px * kLevelMarkerScale,
                                         seriesColor(point.series_index), mutant.details, false, seriesTag(point)});
    }
  }
}

MarkerShape SceneBuilder::pointShape(const VariantPoint& point) const {
  return chart_.hierarchical ? levelShape(point.at.level) : seriesShape(point.series_index);
}

// A red "!" beside a marker that stands above its roof (the tooltip and the table say why): on
// its upper right, else at the first other corner where it covers nothing.
void SceneBuilder::addAboveRoofMark(const VariantPoint& point) {
  const PixelPoint center = projection_.toPixel(point.at);
  const double r = style_.marker_radius_px, font = style_.point_label_font_px;
  const double mark_width = estimatedTextWidthPx("!", font);
  for (const double distance : {1.0, 2.0}) {
    const PixelPoint corners[] = {
        {center.x_px + r * 0.9 * distance, center.y_px - r * 0.6 * distance},
        {center.x_px - r * 0.9 * distance - mark_width, center.y_px - r * 0.6 * distance},
        {center.x_px + r * 0.9 * distance, center.y_px + r * distance + font * 0.8},
        {center.x_px - r * 0.9 * distance - mark_width, center.y_px + r * distance + font * 0.8}};
    for (const PixelPoint& baseline : corners) {
      if (placeLabel(SceneText{"!", baseline, font, true, TextAlign::start, 0, kAboveRoofMark, seriesTag(point)},
                     false))
        return;
    }
  }
}

void SceneBuilder::addPoints() {
  addPerformanceBars();
  for (const VariantPoint& point : chart_.points) {
    scene_.items.push_back(SceneMarker{projection_.toPixel(point.at), pointShape(point), style_.marker_radius_px,
                                       seriesColor(point.series_index), point.details, point.missed_noise_target,
                                       seriesTag(point)});
  }
  for (const VariantPoint& point : chart_.points) {
    if (point.above_roof) addAboveRoofMark(point);
  }
  // Params labels go beside their point where they cover no marker and no other label; points
  // that sit on top of each other keep only the first label (the hover text and the table have
  // the rest).
  const double font = style_.point_label_font_px;
  const double gap = style_.marker_radius_px + 4;
  for (const VariantPoint& point : chart_.points) {
    if (point.short_label.empty()) continue;
    const PixelPoint center = projection_.toPixel(point.at);
    const double width = estimatedTextWidthPx(point.short_label, font);
    const PixelPoint candidates[] = {{center.x_px + gap, center.y_px - gap + 2},
                                     {center.x_px - width / 2, center.y_px - gap - 2},
                                     {center.x_px + gap, center.y_px + gap + font * 0.7},
                                     {center.x_px - width / 2, center.y_px + gap + font * 0.8},
                                     {center.x_px - gap - width, center.y_px - gap + 2},
                                     {center.x_px - gap - width, center.y_px + gap + font * 0.7}};
    for (const PixelPoint& baseline : candidates) {
      if (placeLabel(
              SceneText{point.short_label, baseline, font, false, TextAlign::start, 0, kMutedText, seriesTag(point)}))
        break;
    }
  }
}

// The rate-versus-size chart: a line through each series' points from the smallest size up.
void SceneBuilder::addSeriesLines() {
  if (!chart_.join_series) return;
  for (std::size_t series = 0; series < chart_.series.size(); ++series) {
    std::vector<const VariantPoint*> points;
    for (const VariantPoint& point : chart_.points)
      if (point.series_index == series) points.push_back(&point);
    std::sort(points.begin(), points.end(), [](const VariantPoint* a, const VariantPoint* b) {
      return a->at.intensity_flop_per_byte < b->at.intensity_flop_per_byte;
    });
    for (std::size_t i = 1; i < points.size(); ++i)
      line(projection_.toPixel(points[i - 1]->at), projection_.toPixel(points[i]->at), seriesColor(series), 2.5,
           StrokeDash::solid, SeriesTag{series, false});
  }
}

void SceneBuilder::addSeriesMarks() {
  for (const SeriesMark& mark : chart_.marks)
    scene_.items.push_back(SceneMarker{projection_.toPixel(mark.at), MarkerShape::cross, style_.marker_radius_px,
                                       seriesColor(mark.series_index), mark.details, false,
                                       SeriesTag{mark.series_index, false}});
}

void SceneBuilder::addEmptyNote() {
  if (!chart_.points.empty()) return;
  const std::string note =
      chart_.unplaced.empty() ? "no normal-mode record in this family" : "no variant can be placed on log-log axes:";
  const PixelPoint center{(area_.left + area_.right) / 2, (area_.top + area_.bottom) / 2};
  const double box_width = area_.width() - 20, box_height = style_.legend_font_px * 3.4;
  scene_.items.push_back(SceneRect{{center.x_px - box_width / 2, center.y_px - style_.legend_font_px * 1.4},
                                   box_width,
                                   box_height,
                                   kWhite,
                                   kMajorGrid,
                                   1});
  text(note, center, style_.legend_font_px, TextAlign::middle, kMutedText);
  if (!chart_.unplaced.empty()) {
    text(truncatedToWidth(chart_.unplaced.front().reason, style_.legend_font_px, area_.width() - 40),
         {center.x_px, center.y_px + style_.legend_font_px * 1.4}, style_.legend_font_px, TextAlign::middle,
         kMutedText);
  }
}

}  // namespace rooflab::reports::scene_detail

namespace rooflab::reports {

using scene_detail::kPi;

std::vector<PixelPoint> markerPolygon(MarkerShape shape, PixelPoint center, double radius_px) {
  auto regular = [&](int corners, double first_angle_deg, double radius) {
    std::vector<PixelPoint> polygon;
    for (int corner = 0; corner < corners; ++corner) {
      const double angle = (first_angle_deg + 360.0 * corner / corners) * kPi / 180.0;
      polygon.push_back({center.x_px + radius * std::cos(angle), center.y_px + radius * std::sin(angle)});
    }
    return polygon;
  };
  switch (shape) {
    case MarkerShape::square: return regular(4, 45, radius_px * 1.2);
    case MarkerShape::diamond: return regular(4, 0, radius_px * 1.3);
    case MarkerShape::triangle_up: return regular(3, -90, radius_px * 1.35);
    case MarkerShape::triangle_down: return regular(3, 90, radius_px * 1.35);
    case MarkerShape::pentagon: return regular(5, -90, radius_px * 1.15);
    case MarkerShape::plus:
    case MarkerShape::cross: {
      // A "+" outline of arm half-width w (a "x" is the same, turned 45 degrees).
      const double r = radius_px * 1.25, w = radius_px * 0.4;
      const double outline[12][2] = {{-w, -r}, {w, -r}, {w, -w}, {r, -w}, {r, w},   {w, w},
                                     {w, r},   {-w, r}, {-w, w}, {-r, w}, {-r, -w}, {-w, -w}};
      const double turn = shape == MarkerShape::cross ? kPi / 4 : 0;
      std::vector<PixelPoint> polygon;
      for (const auto& corner : outline)
        polygon.push_back({center.x_px + corner[0] * std::cos(turn) - corner[1] * std::sin(turn),
                           center.y_px + corner[0] * std::sin(turn) + corner[1] * std::cos(turn)});
      return polygon;
    }
    case MarkerShape::circle: break;
  }
  return {};
}

Rgb seriesColor(std::size_t series_index) {
  return scene_detail::kSeriesColors[series_index % scene_detail::kSeriesColorCount];
}

// The shape moves on by one at each turn of the palette, so that colour and shape together repeat
// only after 12 x 6 variants.
MarkerShape seriesShape(std::size_t series_index) {
  constexpr std::size_t shape_count = sizeof scene_detail::kSeriesShapes / sizeof scene_detail::kSeriesShapes[0];
  return scene_detail::kSeriesShapes[(series_index + series_index / scene_detail::kSeriesColorCount) % shape_count];
}

}  // namespace rooflab::reports
