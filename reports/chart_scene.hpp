#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "reports/roofline_chart.hpp"

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
enum class TextAlign { start, middle, end };
enum class MarkerShape { circle, square, triangle_up, diamond, triangle_down, pentagon };

struct SceneLine {
  PixelPoint from, to;
  Rgb color;
  double width_px = 1;
  StrokeDash dash = StrokeDash::solid;
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

}  // namespace rooflab::reports
