#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "reports/chart/roofline_chart.hpp"

// A RooflineChart laid out on a canvas of pixels: a flat, ordered list of lines, rectangles, texts
// and markers. Every decision about where something goes is made here, once; the SVG and PNG
// drawers only translate these primitives, so the HTML chart and the PNG are the same picture.
namespace rooflab::reports {

struct PixelPoint {
  double x_px = 0;
  double y_px = 0;
};

struct Rgb {
  std::uint8_t red = 0, green = 0, blue = 0;
};

enum class StrokeDash { solid, dashed, dotted };

// Which variant an item draws, so that the HTML can hide a variant's items together: its points,
// bars and labels (`legend` false), or its legend entry (`legend` true), which stays to turn it back on.
struct SeriesTag {
  std::size_t series_index = 0;  // into RooflineChart::series
  bool legend = false;
};
enum class TextAlign { start, middle, end };
// plus and cross mark the mutants (ChartOptions::show_mutants): no variant or level uses them.
enum class MarkerShape { circle, square, triangle_up, diamond, triangle_down, pentagon, plus, cross };

struct SceneLine {
  PixelPoint from, to;
  Rgb color;
  double width_px = 1;
  StrokeDash dash = StrokeDash::solid;
  std::optional<SeriesTag> series;
};

struct SceneRect {
  PixelPoint top_left;
  double width_px = 0, height_px = 0;
  std::optional<Rgb> fill;
  std::optional<Rgb> stroke;
  double stroke_width_px = 1;
};

// `baseline` is where the text's alignment point sits on its baseline, before rotation about it.
struct SceneText {
  std::string text;  // UTF-8, unescaped
  PixelPoint baseline;
  double font_px = 20;
  bool bold = false;
  TextAlign align = TextAlign::start;
  double rotation_deg = 0;  // clockwise on screen (y grows downwards), as in SVG and cairo
  Rgb color;
  std::optional<SeriesTag> series;
};

struct SceneMarker {
  PixelPoint center;
  MarkerShape shape = MarkerShape::circle;
  double radius_px = 9;
  Rgb fill;
  std::vector<std::string> tooltip;  // shown on hover in the HTML; the PNG has no hover
  // Drawn as an outline in `fill` around white: a point whose median did not meet the run's noise
  // target.
  bool hollow = false;
  std::optional<SeriesTag> series;
};

using SceneItem = std::variant<SceneRect, SceneLine, SceneText, SceneMarker>;

struct ChartScene {
  double width_px = 0, height_px = 0;
  std::string title;
  std::vector<SceneItem> items;  // in drawing order
};

// Sizes of the canvas and its fonts. Defaults give the 1600x1000 PNG, readable when scaled to half.
struct ChartStyle {
  double width_px = 1600;
  double height_px = 1000;
  double title_font_px = 32;
  double axis_title_font_px = 24;
  double tick_font_px = 22;
  double ceiling_label_font_px = 20;
  double legend_font_px = 20;
  double point_label_font_px = 20;
  double marker_radius_px = 10;
};

ChartScene layoutRooflineChart(const RooflineChart& chart, const ChartStyle& style = {});

// Corners of a polygonal marker (every shape but the circle), shared by the two drawers.
std::vector<PixelPoint> markerPolygon(MarkerShape shape, PixelPoint center, double radius_px);

// Width estimate of sans-serif text, used for layout decisions both drawers must share.
double estimatedTextWidthPx(const std::string& text, double font_px);

// Where a text's glyphs lie on screen: the box of its estimated width, from 0.8 em above the
// baseline to 0.2 em below it, turned with the text about its alignment point. The layout keeps
// these apart, and the tests check with the same function that it did.
struct TextFootprint {
  std::array<PixelPoint, 4> corners;
};
TextFootprint textFootprint(const SceneText& text);
// True when the two footprints share more than their edges (separating-axis test).
bool footprintsOverlap(const TextFootprint& a, const TextFootprint& b);

// Colour and shape of a variant's markers, in ladder order: no two of a family's first 72 variants
// share both, and no two of its first 12 share a colour (the hierarchical chart's shape is the level).
Rgb seriesColor(std::size_t series_index);
MarkerShape seriesShape(std::size_t series_index);

// A name split into lines of at most `max_width_px`, after an underscore, a hyphen or a space
// where one is near, else anywhere: the legend shows every variant's whole name.
std::vector<std::string> wrappedToWidth(const std::string& text, double font_px, double max_width_px);

}  // namespace rooflab::reports
