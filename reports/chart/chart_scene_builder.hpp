// Internal to reports/chart: the scene builder's class, shared by the files that lay out one part each.
#pragma once
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "reports/chart/chart_scene.hpp"

// layoutRooflineChart (chart_scene.hpp) builds its scene with a SceneBuilder. Its work is in five
// files: chart_scene.cpp (canvas, axes, grid and roofs), chart_scene_markers.cpp (points, bars,
// level and mutant markers), chart_scene_labels.cpp (text sizes and where labels go without
// covering anything), chart_scene_legend.cpp (the legend) and chart_scene_walls.cpp (the
// instruction roofline's walls and load and store markers).
namespace rooflab::reports::scene_detail {

inline constexpr double kPi = 3.14159265358979323846;

inline const Rgb kBlack{0x1a, 0x1a, 0x1a};
inline const Rgb kWhite{0xff, 0xff, 0xff};
inline const Rgb kFrame{0x33, 0x33, 0x33};
inline const Rgb kMajorGrid{0xc8, 0xc8, 0xc8};
inline const Rgb kMinorGrid{0xec, 0xec, 0xec};
inline const Rgb kMutedText{0x55, 0x55, 0x55};
// The measured device in black and the reference model in grey: the device is what ran.
inline const Rgb kDeviceRoof{0x1a, 0x1a, 0x1a};
inline const Rgb kReferenceRoof{0x80, 0x80, 0x80};
inline const Rgb kOtherRoof{0x8a, 0x5a, 0x2b};
inline const Rgb kAboveRoofMark{0xc0, 0x1c, 0x1c};

inline constexpr double kLevelMarkerScale = 0.8;  // level markers a little smaller than the variant's own

// On a hierarchical chart the shape says the memory level and the colour the variant.
MarkerShape levelShape(MemoryLevel level);
// The instruction roofline's load and store markers: shapes no level uses.
MarkerShape accessShape(AccessKind kind);

struct PlotArea {
  double left = 0, top = 0, right = 0, bottom = 0;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

struct Box {
  double left = 0, top = 0, right = 0, bottom = 0;
  TextFootprint footprint() const {
    return TextFootprint{{{{left, top}, {right, top}, {right, bottom}, {left, bottom}}}};
  }
};

class LogLogProjection {
 public:
  LogLogProjection(const RooflineChart& chart, const PlotArea& area)
      : area_(area),
        x_min_log_(std::log10(chart.x_axis.min_value)),
        x_span_log_(std::log10(chart.x_axis.max_value) - x_min_log_),
        y_min_log_(std::log10(chart.y_axis.min_value)),
        y_span_log_(std::log10(chart.y_axis.max_value) - y_min_log_) {}

  double xPx(double intensity) const {
    return area_.left + (std::log10(intensity) - x_min_log_) / x_span_log_ * area_.width();
  }
  double yPx(double gflops) const {
    return area_.bottom - (std::log10(gflops) - y_min_log_) / y_span_log_ * area_.height();
  }
  PixelPoint toPixel(const DataPoint& point) const { return {xPx(point.intensity_flop_per_byte), yPx(point.gflops)}; }

 private:
  PlotArea area_;
  double x_min_log_, x_span_log_, y_min_log_, y_span_log_;
};

Rgb roofColor(ModelRole role);
double roofWidthPx(ModelRole role);
// The model is told by dash (solid device, dashed reference); a local-memory roof is dotted.
StrokeDash roofDash(ModelRole role, CeilingKind kind);

std::string truncatedToWidth(const std::string& text, double font_px, double max_width_px);

class SceneBuilder {
 public:
  SceneBuilder(const RooflineChart& chart, const ChartStyle& style)
      : chart_(chart), style_(style), area_(plotArea(style)), projection_(chart, area_) {
    scene_.width_px = style.width_px;
    scene_.height_px = style.height_px;
    scene_.title = chart.title;
  }

  ChartScene build();

 private:
  static constexpr double kLegendWidthPx = 400;

  // chart_scene.cpp: the canvas, its axes and grid, the roofs.
  static PlotArea plotArea(const ChartStyle& style);
  void text(std::string content, PixelPoint baseline, double font_px, TextAlign align, Rgb color = kBlack,
            bool bold = false, double rotation_deg = 0, std::optional<SeriesTag> series = std::nullopt);
  void line(PixelPoint from, PixelPoint to, Rgb color, double width_px, StrokeDash dash = StrokeDash::solid,
            std::optional<SeriesTag> series = std::nullopt);
  void addTitle();
  void addGrid();
  void addAxes();
  void addCeilings();
  static TextFootprint lineFootprint(PixelPoint from, PixelPoint to, double half_width_px);

  // chart_scene_labels.cpp: where labels go.
  bool placeLabel(const SceneText& label, bool inside_plot = true);
  bool insidePlot(const TextFootprint& footprint) const;
  int labelPriority(const Ceiling& ceiling) const;
  void addPeakLabel(const Ceiling& peak);
  void addSlopeLabel(const Ceiling& ceiling);

  // chart_scene_markers.cpp: the points and what stands beside them.
  void reserveMarkerFootprints();
  static SeriesTag seriesTag(const VariantPoint& point) { return SeriesTag{point.series_index, false}; }
  void addPerformanceBars();
  void addLevelMarkers();
  static MarkerShape mutantShape(RunMode mode);
  void addMutantMarkers();
  MarkerShape pointShape(const VariantPoint& point) const;
  void addAboveRoofMark(const VariantPoint& point);
  void addPoints();
  void addSeriesLines();  // chart_.join_series
  void addSeriesMarks();
  void addEmptyNote();

  // chart_scene_walls.cpp: the instruction roofline's walls and load and store markers.
  void addWalls();
  void addAccessMarkers();
  double addAccessLegend(double left, double y, double font, double marker_radius);

  // chart_scene_legend.cpp: the legend.
  void addLegendThatFits();
  double addLegend(double font);
  double addBarsLegend(double y, double font, double marker_radius);
  double addMutantLegend(double left, double y, double font, double marker_radius);
  double addLevelLegend(double left, double y, double font, double marker_radius);

  const RooflineChart& chart_;
  const ChartStyle& style_;
  PlotArea area_;
  LogLogProjection projection_;
  ChartScene scene_;
  std::vector<TextFootprint> obstacles_;  // what a new label must not cover: markers and texts so far
};

}  // namespace rooflab::reports::scene_detail
