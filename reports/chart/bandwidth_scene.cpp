// The bandwidth chart laid out (layoutBandwidthChart): a column per memory level, a lollipop per record
// in ladder order from 0 to its fraction of the level's roof, the roof (100%) and the half of it above
// which a level is said to bound, the legend. Labels keep off each other and off the markers.
#include <algorithm>
#include <cmath>

#include "reports/chart/bandwidth_chart.hpp"
#include "reports/chart/chart_scene_builder.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

using scene_detail::Box;
using scene_detail::kBlack;
using scene_detail::kFrame;
using scene_detail::kMajorGrid;
using scene_detail::kMinorGrid;
using scene_detail::kMutedText;
using scene_detail::kWhite;

constexpr double kLegendWidthPx = 400;

class BandwidthLayout {
 public:
  BandwidthLayout(const BandwidthChart& chart, const ChartStyle& style) : chart_(chart), style_(style) {
    left_ = style.tick_font_px * 3.4 + style.axis_title_font_px * 1.6;
    top_ = style.title_font_px * 2.6;
    right_ = style.width_px - kLegendWidthPx - 30;
    bottom_ = style.height_px - style.tick_font_px * 3.2 - style.axis_title_font_px * 1.2;
    scene_.width_px = style.width_px;
    scene_.height_px = style.height_px;
    scene_.title = chart.title;
  }

  ChartScene build() {
    scene_.items.push_back(SceneRect{{0, 0}, style_.width_px, style_.height_px, kWhite, std::nullopt, 0});
    text(chart_.title, {left_, style_.title_font_px * 1.5}, style_.title_font_px, TextAlign::start, kBlack, true);
    addGridAndAxes();
    addDots();
    addRoofLines();
    addEmptyNote();
    addLegend();
    return std::move(scene_);
  }

 private:
  double yPx(double fraction) const { return bottom_ - fraction / chart_.y_max_fraction * (bottom_ - top_); }
  double columnWidth() const { return (right_ - left_) / std::max<std::size_t>(1, chart_.columns.size()); }
  double dotX(const BandwidthDot& dot) const {
    const double slot_width = columnWidth() / std::max<std::size_t>(1, chart_.slots.size());
    return left_ + dot.column * columnWidth() + (dot.slot + 0.5) * slot_width;
  }

  void text(std::string content, PixelPoint at, double font, TextAlign align, Rgb color = kBlack, bool bold = false,
            double rotation = 0, std::optional<SeriesTag> series = std::nullopt) {
    SceneText item{std::move(content), at, font, bold, align, rotation, color, series};
    obstacles_.push_back(textFootprint(item));
    scene_.items.push_back(std::move(item));
  }
  void line(PixelPoint from, PixelPoint to, Rgb color, double width, StrokeDash dash = StrokeDash::solid,
            std::optional<SeriesTag> series = std::nullopt) {
    scene_.items.push_back(SceneLine{from, to, color, width, dash, series});
  }
  // A label where it covers nothing placed so far, inside the plot; false when it does.
  bool tryLabel(const SceneText& label) {
    const TextFootprint footprint = textFootprint(label);
    for (const PixelPoint& corner : footprint.corners)
      if (corner.x_px < left_ || corner.x_px > right_ || corner.y_px < top_ || corner.y_px > bottom_) return false;
    for (const TextFootprint& obstacle : obstacles_)
      if (footprintsOverlap(footprint, obstacle)) return false;
    obstacles_.push_back(footprint);
    scene_.items.push_back(label);
    return true;
  }

  // Gridlines every 25% (50% past 200%), a column per level with its name and roof under it.
  void addGridAndAxes() {
    const double step = chart_.y_max_fraction > 2 ? 0.5 : 0.25;
    for (double fraction = 0; fraction <= chart_.y_max_fraction + 1e-9; fraction += step) {
      line({left_, yPx(fraction)}, {right_, yPx(fraction)}, fraction == 0 ? kFrame : kMinorGrid, 1);
      line({left_ - 8, yPx(fraction)}, {left_, yPx(fraction)}, kFrame, 2);
      text(formatFixed(fraction * 100, 0) + "%", {left_ - 14, yPx(fraction) + style_.tick_font_px * 0.35},
           style_.tick_font_px, TextAlign::end);
    }
    const double font = style_.tick_font_px * 0.9;
    for (std::size_t index = 0; index < chart_.columns.size(); ++index) {
      const double x0 = left_ + index * columnWidth();
      if (index > 0) line({x0, top_}, {x0, bottom_}, kMajorGrid, 1.5);
      const double middle = x0 + columnWidth() / 2, width = columnWidth() - 12;
      const BandwidthColumn& column = chart_.columns[index];
      text(scene_detail::truncatedToWidth(column.name, font, width), {middle, bottom_ + font * 1.3}, font,
           TextAlign::middle);
      text(scene_detail::truncatedToWidth("roof " + column.roof_text, font * 0.9, width),
           {middle, bottom_ + font * 2.5}, font * 0.9, TextAlign::middle, kMutedText);
    }
    scene_.items.push_back(SceneRect{{left_, top_}, right_ - left_, bottom_ - top_, std::nullopt, kFrame, 2});
    text("Achieved bandwidth (% of the level's roof)", {style_.axis_title_font_px * 1.2, (top_ + bottom_) / 2},
         style_.axis_title_font_px, TextAlign::middle, kBlack, false, -90);
  }

  // A stem from 0 to the dot reads as a bar; the dot carries the tooltip.
  void addDots() {
    const double radius = std::min(style_.marker_radius_px,
                                   std::max(3.0, columnWidth() / std::max<std::size_t>(1, chart_.slots.size()) * 0.4));
    // Markers and stems both: no label is written across a bar.
    for (const BandwidthDot& dot : chart_.dots) {
      const double x = dotX(dot), y = yPx(dot.fraction), half = std::max(1.5, radius * 0.4) / 2;
      obstacles_.push_back(Box{x - radius, y - radius, x + radius, y + radius}.footprint());
      obstacles_.push_back(Box{x - half, y, x + half, yPx(0)}.footprint());
    }
    for (const BandwidthDot& dot : chart_.dots) {
      const SeriesTag tag{dot.series_index, false};
      const double x = dotX(dot);
      line({x, yPx(0)}, {x, yPx(dot.fraction)}, seriesColor(dot.series_index), std::max(1.5, radius * 0.4),
           StrokeDash::solid, tag);
      scene_.items.push_back(SceneMarker{{x, yPx(dot.fraction)},
                                         seriesShape(dot.series_index),
                                         radius,
                                         seriesColor(dot.series_index),
                                         dot.details,
                                         dot.missed_noise_target,
                                         tag});
    }
  }

  // The roof and its half, each labelled where its label covers no dot.
  void addRoofLines() {
    const double font = style_.ceiling_label_font_px;
    const struct {
      double fraction;
      const char* label;
      StrokeDash dash;
    } lines[] = {{1.0, "measured roof (100%)", StrokeDash::solid},
                 {kRoofBoundFraction, "half the roof: bound above it", StrokeDash::dashed}};
    for (const auto& roof : lines) {
      const double y = yPx(roof.fraction);
      line({left_, y}, {right_, y}, scene_detail::kDeviceRoof, roof.fraction == 1.0 ? 3 : 2, roof.dash);
      // Right to left along the line, above it and then below it.
      const double width = estimatedTextWidthPx(roof.label, font);
      bool placed = false;
      for (double x = right_ - 8; !placed && x - width >= left_ + 4; x -= std::max(width / 6, font))
        for (const double baseline : {y - 8, y + font + 6})
          if (!placed)
            placed = tryLabel(SceneText{
                roof.label, {x, baseline}, font, false, TextAlign::end, 0, scene_detail::kDeviceRoof, std::nullopt});
    }
  }

  void addEmptyNote() {
    if (!chart_.dots.empty()) return;
    const std::string note =
        chart_.unplaced.empty() ? "no record to draw" : "no record can be drawn: " + chart_.unplaced.front().reason;
    text(scene_detail::truncatedToWidth(note, style_.legend_font_px, right_ - left_ - 40),
         {(left_ + right_) / 2, (top_ + bottom_) / 2}, style_.legend_font_px, TextAlign::middle, kMutedText);
  }

  // The variants, in ladder order, with whole names; the count of records without a dot.
  void addLegend() {
    const double left = right_ + 30, text_left = left + 64, font = style_.legend_font_px;
    const double max_text_px = style_.width_px - text_left - 10;
    double y = top_ + font;
    if (!chart_.model_name.empty()) {
      text("Roofs of", {left, y}, font, TextAlign::start, kBlack, true);
      y += font * 1.5;
      for (const std::string& piece : wrappedToWidth(chart_.model_name, font * 0.9, style_.width_px - left - 10)) {
        text(piece, {left, y}, font * 0.9, TextAlign::start, kMutedText);
        y += font * 1.15;
      }
      y += font * 0.9;
    }
    text("Variants (normal mode)", {left, y}, font, TextAlign::start, kBlack, true);
    y += font * 1.5;
    for (std::size_t index = 0; index < chart_.series.size(); ++index) {
      const SeriesTag tag{index, true};
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35},
                                         seriesShape(index),
                                         style_.marker_radius_px,
                                         seriesColor(index),
                                         {},
                                         false,
                                         tag});
      for (const std::string& piece : wrappedToWidth(chart_.series[index].variant, font, max_text_px)) {
        text(piece, {text_left, y}, font, TextAlign::start, kBlack, false, 0, tag);
        y += font * 1.15;
      }
      y += font * 0.35;
    }
    y += font * 0.6;
    text("In each column: records in", {left, y}, font * 0.9, TextAlign::start, kMutedText);
    y += font * 1.2;
    text("ladder order, left to right", {left, y}, font * 0.9, TextAlign::start, kMutedText);
    if (!chart_.unplaced.empty()) {
      y += font * 1.8;
      const std::size_t count = chart_.unplaced.size();
      text(std::to_string(count) + (count == 1 ? " record" : " records") + " not on the chart:", {left, y}, font * 0.9,
           TextAlign::start, kMutedText);
      y += font * 1.2;
      text("listed under it, with why", {left, y}, font * 0.9, TextAlign::start, kMutedText);
    }
  }

  const BandwidthChart& chart_;
  const ChartStyle& style_;
  double left_ = 0, top_ = 0, right_ = 0, bottom_ = 0;
  ChartScene scene_;
  std::vector<TextFootprint> obstacles_;
};

}  // namespace

ChartScene layoutBandwidthChart(const BandwidthChart& chart, const ChartStyle& style) {
  return BandwidthLayout(chart, style).build();
}

}  // namespace rooflab::reports
