#include "reports/chart_scene.hpp"

#include <algorithm>
#include <cmath>

namespace rooflab::reports {
namespace {

constexpr double kPi = 3.14159265358979323846;

const Rgb kBlack{0x1a, 0x1a, 0x1a};
const Rgb kWhite{0xff, 0xff, 0xff};
const Rgb kFrame{0x33, 0x33, 0x33};
const Rgb kMajorGrid{0xc8, 0xc8, 0xc8};
const Rgb kMinorGrid{0xec, 0xec, 0xec};
const Rgb kMutedText{0x55, 0x55, 0x55};
// The measured device in black and the reference model in grey: the device is what ran.
const Rgb kDeviceRoof{0x1a, 0x1a, 0x1a};
const Rgb kReferenceRoof{0x80, 0x80, 0x80};
const Rgb kOtherRoof{0x8a, 0x5a, 0x2b};
const Rgb kAboveRoofMark{0xc0, 0x1c, 0x1c};

// Colour-blind-safe palette (Okabe-Ito), and a shape per variant as a second cue.
const Rgb kSeriesColors[] = {{0x00, 0x72, 0xb2}, {0xe6, 0x9f, 0x00}, {0x00, 0x9e, 0x73}, {0xd5, 0x5e, 0x00},
                             {0xcc, 0x79, 0xa7}, {0x56, 0xb4, 0xe9}, {0xf0, 0xe4, 0x42}, {0x99, 0x99, 0x99}};
const MarkerShape kSeriesShapes[] = {MarkerShape::circle,  MarkerShape::square,        MarkerShape::triangle_up,
                                     MarkerShape::diamond, MarkerShape::triangle_down, MarkerShape::pentagon};

// On a hierarchical chart the shape says the memory level and the colour the variant.
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
constexpr double kLevelMarkerScale = 0.8;  // level markers a little smaller than the variant's own

struct PlotArea {
  double left = 0, top = 0, right = 0, bottom = 0;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

struct Box {
  double left = 0, top = 0, right = 0, bottom = 0;
  bool overlaps(const Box& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
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
  PixelPoint toPixel(const DataPoint& point) const {
    return {xPx(point.intensity_flop_per_byte), yPx(point.gflops)};
  }

 private:
  PlotArea area_;
  double x_min_log_, x_span_log_, y_min_log_, y_span_log_;
};

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
  if (kind == CeilingKind::local_bandwidth || kind == CeilingKind::l2_bandwidth) return StrokeDash::dotted;
  return role == ModelRole::measured_device ? StrokeDash::solid : StrokeDash::dashed;
}

// Drops a whole UTF-8 sequence, never half of one.
void popLastCodePoint(std::string& text) {
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
  if (!text.empty()) text.pop_back();
}

std::string truncatedToWidth(const std::string& text, double font_px, double max_width_px) {
  if (estimatedTextWidthPx(text, font_px) <= max_width_px) return text;
  std::string shortened = text;
  while (!shortened.empty() && estimatedTextWidthPx(shortened + "…", font_px) > max_width_px) {
    popLastCodePoint(shortened);
  }
  return shortened + "…";
}

class SceneBuilder {
 public:
  SceneBuilder(const RooflineChart& chart, const ChartStyle& style)
      : chart_(chart), style_(style), area_(plotArea(style)), projection_(chart, area_) {
    scene_.width_px = style.width_px;
    scene_.height_px = style.height_px;
    scene_.title = chart.title;
  }

  ChartScene build() {
    scene_.items.push_back(SceneRect{{0, 0}, style_.width_px, style_.height_px, kWhite, std::nullopt, 0});
    addTitle();
    addGrid();
    addAxes();
    reserveMarkerFootprints();
    addCeilings();
    addLevelMarkers();
    addPoints();
    addEmptyNote();
    addLegend();
    return std::move(scene_);
  }

 private:
  static constexpr double kLegendWidthPx = 400;

  static PlotArea plotArea(const ChartStyle& style) {
    PlotArea area;
    area.left = style.tick_font_px * 4.2 + style.axis_title_font_px * 1.6;
    area.top = style.title_font_px * 2.6;
    area.right = style.width_px - kLegendWidthPx - 30;
    area.bottom = style.height_px - style.tick_font_px * 2.0 - style.axis_title_font_px * 2.4;
    return area;
  }

  void text(std::string content, PixelPoint baseline, double font_px, TextAlign align, Rgb color = kBlack,
            bool bold = false, double rotation_deg = 0) {
    scene_.items.push_back(SceneText{std::move(content), baseline, font_px, bold, align, rotation_deg, color});
  }
  void line(PixelPoint from, PixelPoint to, Rgb color, double width_px, StrokeDash dash = StrokeDash::solid) {
    scene_.items.push_back(SceneLine{from, to, color, width_px, dash});
  }

  void addTitle() {
    text(chart_.title, {area_.left, style_.title_font_px * 1.5}, style_.title_font_px, TextAlign::start, kBlack, true);
  }

  void addGrid() {
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

  void addAxes() {
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
      text(decadeTickLabel(tick), {area_.left - tick_length_px - 6, y + style_.tick_font_px * 0.35},
           style_.tick_font_px, TextAlign::end);
    }
    text(chart_.x_axis.title, {(area_.left + area_.right) / 2, area_.bottom + style_.tick_font_px * 2.0 +
                                                                   style_.axis_title_font_px * 1.5},
         style_.axis_title_font_px, TextAlign::middle);
    text(chart_.y_axis.title, {style_.axis_title_font_px * 1.2, (area_.top + area_.bottom) / 2},
         style_.axis_title_font_px, TextAlign::middle, kBlack, false, -90);
  }

  void addCeilings() {
    // Flat peaks get their label above the line at the right edge; when two peaks are too close
    // for two labels, the lower one's label goes below its line.
    for (const Ceiling& ceiling : chart_.ceilings) {
      const ChartModel& model = chart_.models[ceiling.model_index];
      const PixelPoint from = projection_.toPixel(ceiling.from);
      const PixelPoint to = projection_.toPixel(ceiling.to);
      line(from, to, roofColor(model.role), roofWidthPx(model.role), roofDash(model.role, ceiling.kind));
    }
    std::vector<const Ceiling*> peaks;
    for (const Ceiling& ceiling : chart_.ceilings) {
      if (ceiling.kind == CeilingKind::fp32_peak) peaks.push_back(&ceiling);
    }
    std::sort(peaks.begin(), peaks.end(), [](const Ceiling* a, const Ceiling* b) { return a->value > b->value; });
    const double font = style_.ceiling_label_font_px;
    double previous_label_bottom = -1e9;
    for (const Ceiling* peak : peaks) {
      const ChartModel& model = chart_.models[peak->model_index];
      const double y = projection_.yPx(peak->value);
      double baseline = y - 8;
      if (baseline - font < previous_label_bottom + 2) baseline = y + font + 6;
      text(peak->label, {area_.right - 10, baseline}, font, TextAlign::end, roofColor(model.role));
      const double width = estimatedTextWidthPx(peak->label, font);
      label_obstacles_.push_back(Box{area_.right - 10 - width, baseline - font * 0.8, area_.right - 10,
                                     baseline + font * 0.2});
      previous_label_bottom = baseline + font * 0.25;
    }
    // The device's labels choose their place first: they matter most.
    std::vector<const Ceiling*> slopes;
    for (const Ceiling& ceiling : chart_.ceilings) {
      if (ceiling.kind != CeilingKind::fp32_peak) slopes.push_back(&ceiling);
    }
    std::stable_sort(slopes.begin(), slopes.end(), [&](const Ceiling* a, const Ceiling* b) {
      return labelPriority(*a) < labelPriority(*b);
    });
    for (const Ceiling* slope : slopes) addSlopeLabel(*slope);
  }

  int labelPriority(const Ceiling& ceiling) const {
    const ModelRole role = chart_.models[ceiling.model_index].role;
    const int role_rank = role == ModelRole::measured_device ? 0 : role == ModelRole::reference ? 1 : 2;
    return role_rank * 2 + (ceiling.kind == CeilingKind::local_bandwidth ? 1 : 0);
  }

  // A slope's label runs along the line, rotated with it. It tries spots along the visible part
  // of the line, above it and then below it, and takes the first that covers no other label nor
  // marker: the device's and the reference's slopes are parallel and can be close together.
  void addSlopeLabel(const Ceiling& ceiling) {
    const ChartModel& model = chart_.models[ceiling.model_index];
    const PixelPoint from = projection_.toPixel(ceiling.from);
    const PixelPoint to = projection_.toPixel(ceiling.to);
    const double dx = to.x_px - from.x_px, dy = to.y_px - from.y_px;
    const double length = std::hypot(dx, dy);
    if (length < 1) return;
    const double font = style_.ceiling_label_font_px;
    const double ux = dx / length, uy = dy / length;
    const double angle_deg = std::atan2(dy, dx) * 180.0 / kPi;
    // The model is also told by the line style, so the name is dropped before the label is;
    // a slope too short even for its value keeps no label rather than a clipped one.
    for (const std::string* label : {&ceiling.label, &ceiling.short_label}) {
      const double width = estimatedTextWidthPx(*label, font);
      if (width > length - 10) continue;
      for (const double side_px : {8.0, -(font + 6.0)}) {       // baseline above, then below the line
        for (const double along : {0.5, 0.35, 0.65, 0.2, 0.8}) {
          const double center = std::clamp(along * length, width / 2 + 5, length - width / 2 - 5);
          const PixelPoint anchor{from.x_px + ux * center + uy * side_px, from.y_px + uy * center - ux * side_px};
          std::vector<Box> footprint = rotatedTextFootprint(anchor, ux, uy, width, font);
          if (!fitsInPlot(footprint) || collides(footprint)) continue;
          text(*label, anchor, font, TextAlign::middle, roofColor(model.role), false, angle_deg);
          label_obstacles_.insert(label_obstacles_.end(), footprint.begin(), footprint.end());
          return;
        }
      }
    }
  }

  // Centred text along direction (ux, uy), covered by square boxes one font size apart: close
  // enough to an oriented rectangle for telling whether two labels would touch.
  static std::vector<Box> rotatedTextFootprint(PixelPoint anchor, double ux, double uy, double width, double font) {
    std::vector<Box> boxes;
    const double half = font * 0.45;
    // The glyphs sit above the baseline: the footprint's centre line is 0.35 em over it.
    const PixelPoint middle{anchor.x_px + uy * font * 0.35, anchor.y_px - ux * font * 0.35};
    for (double offset = -width / 2; offset <= width / 2 + 1e-9; offset += font * 0.5) {
      const double x = middle.x_px + ux * offset, y = middle.y_px + uy * offset;
      boxes.push_back(Box{x - half, y - half, x + half, y + half});
    }
    return boxes;
  }

  bool collides(const std::vector<Box>& footprint) const {
    for (const Box& box : footprint) {
      for (const Box& obstacle : label_obstacles_) {
        if (box.overlaps(obstacle)) return true;
      }
    }
    return false;
  }

  bool fitsInPlot(const std::vector<Box>& footprint) const {
    return std::all_of(footprint.begin(), footprint.end(), [&](const Box& box) {
      return box.left >= area_.left && box.right <= area_.right && box.top >= area_.top && box.bottom <= area_.bottom;
    });
  }

  // Markers are placed before any label, so that no label covers a point.
  void reserveMarkerFootprints() {
    const double radius = style_.marker_radius_px;
    for (const VariantPoint& point : chart_.points) {
      const PixelPoint center = projection_.toPixel(point.at);
      label_obstacles_.push_back(Box{center.x_px - radius, center.y_px - radius, center.x_px + radius,
                                     center.y_px + radius});
      for (const LevelMarker& level : point.levels) {
        const PixelPoint at = projection_.toPixel(level.at);
        label_obstacles_.push_back(Box{at.x_px - radius, at.y_px - radius, at.x_px + radius, at.y_px + radius});
      }
    }
  }

  // Under the markers: a thin whisker from the slowest to the fastest repetition, and over it a
  // thick capped bar for the median's confidence interval, so the two read apart at a glance.
  void addPerformanceBars() {
    for (const VariantPoint& point : chart_.points) {
      const Rgb color = seriesColor(point.series_index);
      const double x = point.at.intensity_flop_per_byte;
      if (point.min_max) {
        line(projection_.toPixel({x, point.min_max->low}), projection_.toPixel({x, point.min_max->high}), color, 1.5,
             StrokeDash::dotted);
      }
      if (point.median_interval) {
        const PixelPoint low = projection_.toPixel({x, point.median_interval->low});
        const PixelPoint high = projection_.toPixel({x, point.median_interval->high});
        const double cap = style_.marker_radius_px * 0.9;
        line(low, high, color, 4);
        line({low.x_px - cap, low.y_px}, {low.x_px + cap, low.y_px}, color, 2.5);
        line({high.x_px - cap, high.y_px}, {high.x_px + cap, high.y_px}, color, 2.5);
      }
    }
  }

  // A variant's markers at each memory level, joined by a line at its rate: how far apart they
  // stand is how much each level of the hierarchy filters the traffic of the one above it.
  void addLevelMarkers() {
    for (const VariantPoint& point : chart_.points) {
      if (point.levels.empty()) continue;
      double left = point.at.intensity_flop_per_byte, right = left;
      for (const LevelMarker& level : point.levels) {
        left = std::min(left, level.at.intensity_flop_per_byte);
        right = std::max(right, level.at.intensity_flop_per_byte);
      }
      const double y = projection_.yPx(point.at.gflops);
      line({projection_.xPx(left), y}, {projection_.xPx(right), y}, seriesColor(point.series_index), 2);
      for (const LevelMarker& level : point.levels) {
        scene_.items.push_back(SceneMarker{projection_.toPixel(level.at), levelShape(level.at.level),
                                           style_.marker_radius_px * kLevelMarkerScale,
                                           seriesColor(point.series_index), level.details});
      }
    }
  }

  MarkerShape pointShape(const VariantPoint& point) const {
    return chart_.hierarchical ? levelShape(point.at.level) : seriesShape(point.series_index);
  }

  void addPoints() {
    addPerformanceBars();
    for (const VariantPoint& point : chart_.points) {
      const PixelPoint center = projection_.toPixel(point.at);
      scene_.items.push_back(SceneMarker{center, pointShape(point), style_.marker_radius_px,
                                         seriesColor(point.series_index), point.details, point.missed_noise_target});
      if (point.above_roof) {
        // A red "!" on the marker's upper right: the tooltip and the table say why.
        const double r = style_.marker_radius_px;
        text("!", {center.x_px + r * 0.9, center.y_px - r * 0.6}, style_.point_label_font_px, TextAlign::start,
             kAboveRoofMark, true);
        label_obstacles_.push_back(Box{center.x_px + r * 0.9, center.y_px - r * 0.6 - style_.point_label_font_px * 0.8,
                                       center.x_px + r * 0.9 + style_.point_label_font_px * 0.4, center.y_px - r * 0.6});
      }
    }
    // Params labels go beside their point where they cover no marker, no peak label and no other
    // params label; points that sit on top of each other keep only the first label (the hover
    // text and the table have the rest).
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
        const Box box{baseline.x_px, baseline.y_px - font * 0.8, baseline.x_px + width, baseline.y_px + font * 0.2};
        const bool inside = box.left >= area_.left && box.right <= area_.right && box.top >= area_.top &&
                            box.bottom <= area_.bottom;
        const bool overlaps = std::any_of(label_obstacles_.begin(), label_obstacles_.end(),
                                          [&](const Box& other) { return box.overlaps(other); });
        if (!inside || overlaps) continue;
        text(point.short_label, baseline, font, TextAlign::start, kMutedText);
        label_obstacles_.push_back(box);
        break;
      }
    }
  }

  void addEmptyNote() {
    if (!chart_.points.empty()) return;
    const std::string note = chart_.unplaced.empty() ? "no normal-mode record in this family"
                                                     : "no variant can be placed on log-log axes:";
    const PixelPoint center{(area_.left + area_.right) / 2, (area_.top + area_.bottom) / 2};
    const double box_width = area_.width() - 20, box_height = style_.legend_font_px * 3.4;
    scene_.items.push_back(SceneRect{{center.x_px - box_width / 2, center.y_px - style_.legend_font_px * 1.4},
                                     box_width, box_height, kWhite, kMajorGrid, 1});
    text(note, center, style_.legend_font_px, TextAlign::middle, kMutedText);
    if (!chart_.unplaced.empty()) {
      text(truncatedToWidth(chart_.unplaced.front().reason, style_.legend_font_px, area_.width() - 40),
           {center.x_px, center.y_px + style_.legend_font_px * 1.4}, style_.legend_font_px, TextAlign::middle,
           kMutedText);
    }
  }

  void addLegend() {
    const double left = area_.right + 30;
    const double font = style_.legend_font_px;
    const double row_px = font * 1.5;
    const double text_left = left + 64;
    const double max_text_px = style_.width_px - text_left - 10;
    double y = area_.top + font;

    text("Models", {left, y}, font, TextAlign::start, kBlack, true);
    y += row_px;
    for (const ChartModel& model : chart_.models) {
      line({left, y - font * 0.35}, {left + 52, y - font * 0.35}, roofColor(model.role), roofWidthPx(model.role),
           roofDash(model.role, CeilingKind::fp32_peak));
      text(truncatedToWidth(model.short_name, font, max_text_px), {text_left, y}, font, TextAlign::start);
      y += font * 1.15;
      text(model.role_text, {text_left, y}, font * 0.9, TextAlign::start, kMutedText);
      y += row_px;
    }
    const bool has_local_roof = std::any_of(chart_.ceilings.begin(), chart_.ceilings.end(), [](const Ceiling& c) {
      return c.kind == CeilingKind::local_bandwidth;
    });
    if (has_local_roof) {
      line({left, y - font * 0.35}, {left + 52, y - font * 0.35}, kMutedText, 3, StrokeDash::dotted);
      text("local-memory roof", {text_left, y}, font, TextAlign::start);
      y += row_px;
    }

    if (chart_.hierarchical) y = addLevelLegend(left, y);

    y += font * 0.6;
    text("Variants (normal mode)", {left, y}, font, TextAlign::start, kBlack, true);
    y += row_px;
    for (std::size_t index = 0; index < chart_.series.size(); ++index) {
      const MarkerShape shape = chart_.hierarchical ? MarkerShape::circle : seriesShape(index);
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35}, shape, style_.marker_radius_px,
                                         seriesColor(index), {}});
      text(truncatedToWidth(chart_.series[index].variant, font, max_text_px), {text_left, y}, font,
           TextAlign::start);
      y += row_px;
    }
    y = addBarsLegend(y);
    if (!chart_.unplaced.empty()) {
      y += font * 0.6;
      const std::size_t count = chart_.unplaced.size();
      text(std::to_string(count) + (count == 1 ? " record" : " records") + " not on the chart", {left, y},
           font * 0.9, TextAlign::start, kMutedText);
      y += font * 1.2;
      text("(errors, no FLOPs): see the table", {left, y}, font * 0.9, TextAlign::start, kMutedText);
    }
  }

  // What the bars and hollow markers mean, once per chart, when it has any; returns the next row's y.
  double addBarsLegend(double y) {
    const bool has_bars = std::any_of(chart_.points.begin(), chart_.points.end(),
                                      [](const VariantPoint& p) { return p.median_interval || p.min_max; });
    const bool has_missed = std::any_of(chart_.points.begin(), chart_.points.end(),
                                        [](const VariantPoint& p) { return p.missed_noise_target; });
    if (!has_bars && !has_missed) return y;
    const double left = area_.right + 30;
    const double font = style_.legend_font_px;
    const double text_left = left + 64;
    const double mid_x = left + 26;
    y += font * 0.6;
    text("Performance bars", {left, y}, font, TextAlign::start, kBlack, true);
    y += font * 1.5;
    if (has_bars) {
      line({mid_x, y - font * 0.9}, {mid_x, y + font * 0.2}, kMutedText, 4);
      text("95% interval of median", {text_left, y}, font * 0.9, TextAlign::start);
      y += font * 1.4;
      line({mid_x, y - font * 0.9}, {mid_x, y + font * 0.2}, kMutedText, 1.5, StrokeDash::dotted);
      text("fastest to slowest run", {text_left, y}, font * 0.9, TextAlign::start);
      y += font * 1.4;
    }
    if (has_missed) {
      scene_.items.push_back(SceneMarker{{mid_x, y - font * 0.35}, MarkerShape::circle, style_.marker_radius_px,
                                         kMutedText, {}, true});
      text("hollow: noise target missed", {text_left, y}, font * 0.9, TextAlign::start);
      y += font * 1.4;
    }
    return y;
  }

  // Which shape is which memory level, for the levels some point has; returns the next row's y.
  double addLevelLegend(double left, double y) {
    const double font = style_.legend_font_px;
    std::vector<MemoryLevel> present;
    for (const VariantPoint& point : chart_.points) {
      present.push_back(point.at.level);
      for (const LevelMarker& level : point.levels) present.push_back(level.at.level);
    }
    y += font * 0.6;
    text("Memory levels (shape)", {left, y}, font, TextAlign::start, kBlack, true);
    y += font * 1.5;
    for (MemoryLevel level : {MemoryLevel::global, MemoryLevel::l1, MemoryLevel::local, MemoryLevel::l2, MemoryLevel::dram}) {
      if (std::find(present.begin(), present.end(), level) == present.end()) continue;
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35}, levelShape(level),
                                         style_.marker_radius_px * kLevelMarkerScale, kMutedText, {}});
      text(levelDisplayName(level), {left + 64, y}, font, TextAlign::start);
      y += font * 1.5;
    }
    return y;
  }

  static Rgb seriesColor(std::size_t index) {
    return kSeriesColors[index % (sizeof kSeriesColors / sizeof kSeriesColors[0])];
  }
  static MarkerShape seriesShape(std::size_t index) {
    return kSeriesShapes[index % (sizeof kSeriesShapes / sizeof kSeriesShapes[0])];
  }

  const RooflineChart& chart_;
  const ChartStyle& style_;
  PlotArea area_;
  LogLogProjection projection_;
  ChartScene scene_;
  std::vector<Box> label_obstacles_;  // what a new label must not cover: markers and placed labels
};

}  // namespace

ChartScene layoutRooflineChart(const RooflineChart& chart, const ChartStyle& style) {
  return SceneBuilder(chart, style).build();
}

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
    case MarkerShape::circle: break;
  }
  return {};
}

double estimatedTextWidthPx(const std::string& text, double font_px) {
  // Average advance of DejaVu Sans / Verdana-like faces; count code points, not bytes.
  std::size_t code_points = 0;
  for (unsigned char byte : text) {
    if ((byte & 0xC0) != 0x80) ++code_points;
  }
  return static_cast<double>(code_points) * font_px * 0.58;
}

}  // namespace rooflab::reports
