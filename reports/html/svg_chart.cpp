#include "reports/html/svg_chart.hpp"

#include <optional>
#include <string>
#include <variant>

#include "reports/html/html_text.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

// Two decimals is far below a pixel, and keeps the file small.
std::string px(double value) {
  std::string text = formatFixed(value, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string dashAttribute(StrokeDash dash, double width_px) {
  switch (dash) {
    case StrokeDash::solid: return "";
    case StrokeDash::dashed: return " stroke-dasharray=\"" + px(width_px * 4) + " " + px(width_px * 2.5) + "\"";
    case StrokeDash::dotted:
      return " stroke-dasharray=\"" + px(width_px * 0.1) + " " + px(width_px * 2.2) + "\" stroke-linecap=\"round\"";
  }
  return "";
}

const char* anchorName(TextAlign align) {
  switch (align) {
    case TextAlign::start: return "start";
    case TextAlign::middle: return "middle";
    case TextAlign::end: return "end";
  }
  return "start";
}

// Ties an item to its variant for the page's filter (reports/html/html_chart_controls.cpp): a point's
// items hide with it, its legend entry stays to bring it back.
std::string seriesAttribute(const std::optional<SeriesTag>& series) {
  if (!series) return "";
  return std::string(series->legend ? " data-legend=\"" : " data-series=\"") + std::to_string(series->series_index) +
         "\"";
}

class SvgWriter {
 public:
  explicit SvgWriter(std::string& out) : out_(out) {}

  void operator()(const SceneRect& rect) {
    out_ += "<rect x=\"" + px(rect.top_left.x_px) + "\" y=\"" + px(rect.top_left.y_px) + "\" width=\"" +
            px(rect.width_px) + "\" height=\"" + px(rect.height_px) + "\" fill=\"" +
            (rect.fill ? hexColor(*rect.fill) : "none") + "\"";
    if (rect.stroke)
      out_ += " stroke=\"" + hexColor(*rect.stroke) + "\" stroke-width=\"" + px(rect.stroke_width_px) + "\"";
    out_ += "/>\n";
  }

  void operator()(const SceneLine& line) {
    out_ += "<line x1=\"" + px(line.from.x_px) + "\" y1=\"" + px(line.from.y_px) + "\" x2=\"" + px(line.to.x_px) +
            "\" y2=\"" + px(line.to.y_px) + "\" stroke=\"" + hexColor(line.color) + "\" stroke-width=\"" +
            px(line.width_px) + "\"" + dashAttribute(line.dash, line.width_px) + seriesAttribute(line.series) + "/>\n";
  }

  void operator()(const SceneText& text) {
    out_ += "<text x=\"" + px(text.baseline.x_px) + "\" y=\"" + px(text.baseline.y_px) + "\" font-size=\"" +
            px(text.font_px) + "\" text-anchor=\"" + anchorName(text.align) + "\" fill=\"" + hexColor(text.color) +
            "\"";
    if (text.bold) out_ += " font-weight=\"bold\"";
    out_ += seriesAttribute(text.series);
    if (text.rotation_deg != 0) {
      out_ += " transform=\"rotate(" + px(text.rotation_deg) + " " + px(text.baseline.x_px) + " " +
              px(text.baseline.y_px) + ")\"";
    }
    out_ += ">" + escapeHtml(text.text) + "</text>\n";
  }

  void operator()(const SceneMarker& marker) {
    const bool has_tooltip = !marker.tooltip.empty();
    if (has_tooltip) {
      std::string tooltip;
      for (const std::string& line : marker.tooltip) tooltip += (tooltip.empty() ? "" : "\n") + line;
      out_ += "<g class=\"point\" tabindex=\"0\"" + seriesAttribute(marker.series) + "><title>" + escapeHtml(tooltip) +
              "</title>";
    }
    const std::string paint = marker.hollow
                                  ? " fill=\"#ffffff\" stroke=\"" + hexColor(marker.fill) + "\" stroke-width=\"3\""
                                  : " fill=\"" + hexColor(marker.fill) + "\" stroke=\"#1a1a1a\" stroke-width=\"1.5\"";
    if (marker.shape == MarkerShape::circle) {
      out_ += "<circle cx=\"" + px(marker.center.x_px) + "\" cy=\"" + px(marker.center.y_px) + "\" r=\"" +
              px(marker.radius_px) + "\"" + paint + (has_tooltip ? "" : seriesAttribute(marker.series)) + "/>";
    } else {
      out_ += "<polygon points=\"";
      bool first = true;
      for (const PixelPoint& corner : markerPolygon(marker.shape, marker.center, marker.radius_px)) {
        out_ += (first ? "" : " ") + px(corner.x_px) + "," + px(corner.y_px);
        first = false;
      }
      out_ += "\"" + paint + (has_tooltip ? "" : seriesAttribute(marker.series)) + "/>";
    }
    out_ += has_tooltip ? "</g>\n" : "\n";
  }

 private:
  std::string& out_;
};

}  // namespace

std::string hexColor(Rgb color) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text = "#";
  for (std::uint8_t channel : {color.red, color.green, color.blue}) {
    text += kDigits[channel >> 4];
    text += kDigits[channel & 0xF];
  }
  return text;
}

std::string renderSvgChart(const ChartScene& scene, const std::string& family, const std::string& kind) {
  std::string svg = "<svg class=\"roofline\" data-family=\"" + escapeHtml(family) + "\"" +
                    (kind.empty() ? "" : " data-chart=\"" + escapeHtml(kind) + "\"") +
                    " xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + px(scene.width_px) + " " +
                    px(scene.height_px) + "\" role=\"img\" aria-label=\"" + escapeHtml(scene.title) +
                    "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n";
  SvgWriter writer(svg);
  for (const SceneItem& item : scene.items) std::visit(writer, item);
  svg += "</svg>\n";
  return svg;
}

}  // namespace rooflab::reports
