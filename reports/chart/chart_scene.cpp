#include "reports/chart/chart_scene.hpp"

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

// The colour-blind-safe Okabe-Ito palette, then four dark tones of Paul Tol's that stay apart from
// it: a ladder of 10 rungs (matmul, reduce) gets 10 colours. A shape per variant is a second cue.
const Rgb kSeriesColors[] = {{0x00, 0x72, 0xb2}, {0xe6, 0x9f, 0x00}, {0x00, 0x9e, 0x73}, {0xd5, 0x5e, 0x00},
                             {0xcc, 0x79, 0xa7}, {0x56, 0xb4, 0xe9}, {0xf0, 0xe4, 0x42}, {0x99, 0x99, 0x99},
                             {0x88, 0x22, 0x55}, {0x33, 0x22, 0x88}, {0x99, 0x99, 0x33}, {0x66, 0x11, 0x00}};
constexpr std::size_t kSeriesColorCount = sizeof kSeriesColors / sizeof kSeriesColors[0];
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
  TextFootprint footprint() const { return TextFootprint{{{{left, top}, {right, top}, {right, bottom}, {left, bottom}}}}; }
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
    addMutantMarkers();
    addPoints();
    addEmptyNote();
    addLegendThatFits();
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

  // A text at a fixed place (title, ticks, legend): drawn, and kept clear by the labels placed later.
  void text(std::string content, PixelPoint baseline, double font_px, TextAlign align, Rgb color = kBlack,
            bool bold = false, double rotation_deg = 0, std::optional<SeriesTag> series = std::nullopt) {
    SceneText item{std::move(content), baseline, font_px, bold, align, rotation_deg, color, series};
    obstacles_.push_back(textFootprint(item));
    scene_.items.push_back(std::move(item));
  }
  void line(PixelPoint from, PixelPoint to, Rgb color, double width_px, StrokeDash dash = StrokeDash::solid,
            std::optional<SeriesTag> series = std::nullopt) {
    scene_.items.push_back(SceneLine{from, to, color, width_px, dash, series});
  }

  // A label at a candidate place: drawn when it covers no other text nor marker (and, for labels in
  // the plot, stays inside it); false when the caller must try its next place.
  bool placeLabel(const SceneText& label, bool inside_plot = true) {
    const TextFootprint footprint = textFootprint(label);
    if (inside_plot && !insidePlot(footprint)) return false;
    for (const TextFootprint& obstacle : obstacles_) {
      if (footprintsOverlap(footprint, obstacle)) return false;
    }
    obstacles_.push_back(footprint);
    scene_.items.push_back(label);
    return true;
  }

  bool insidePlot(const TextFootprint& footprint) const {
    return std::all_of(footprint.corners.begin(), footprint.corners.end(), [&](const PixelPoint& corner) {
      return corner.x_px >= area_.left && corner.x_px <= area_.right && corner.y_px >= area_.top &&
             corner.y_px <= area_.bottom;
    });
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
    for (const Ceiling& ceiling : chart_.ceilings) ordered.push_back(&ceiling);
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Ceiling* a, const Ceiling* b) {
      return labelPriority(*a) < labelPriority(*b);
    });
    for (const Ceiling* ceiling : ordered) {
      if (ceiling->kind == CeilingKind::fp32_peak) {
        addPeakLabel(*ceiling);
      } else {
        addSlopeLabel(*ceiling);
      }
    }
  }

  // A roof's line, so that no label is written across another roof (each sits beside its own).
  static TextFootprint lineFootprint(PixelPoint from, PixelPoint to, double half_width_px) {
    const double length = std::max(std::hypot(to.x_px - from.x_px, to.y_px - from.y_px), 1e-9);
    const double nx = -(to.y_px - from.y_px) / length * half_width_px, ny = (to.x_px - from.x_px) / length * half_width_px;
    return TextFootprint{{{{from.x_px + nx, from.y_px + ny}, {to.x_px + nx, to.y_px + ny}, {to.x_px - nx, to.y_px - ny},
                           {from.x_px - nx, from.y_px - ny}}}};
  }

  int labelPriority(const Ceiling& ceiling) const {
    const ModelRole role = chart_.models[ceiling.model_index].role;
    const int role_rank = role == ModelRole::measured_device ? 0 : role == ModelRole::reference ? 1 : 2;
    const int kind_rank = ceiling.kind == CeilingKind::fp32_peak ? 0 : ceiling.kind == CeilingKind::dram_bandwidth ? 1 : 2;
    return role_rank * 3 + kind_rank;
  }

  // A flat peak's label goes above its line at the right edge, else below it, else further left;
  // the name is dropped before the label is (the legend and the line style name the model).
  void addPeakLabel(const Ceiling& peak) {
    const ChartModel& model = chart_.models[peak.model_index];
    const double font = style_.ceiling_label_font_px;
    const double y = projection_.yPx(peak.value);
    const double line_left = projection_.xPx(peak.from.intensity_flop_per_byte);
    for (const std::string* label : {&peak.label, &peak.short_label}) {
      const double width = estimatedTextWidthPx(*label, font);
      // Its right end stays over the line; a short flat part lets it reach left over the slope.
      for (double right = area_.right - 10; right >= line_left + font && right - width >= area_.left;
           right -= std::max(width / 4, font)) {
        for (const double baseline : {y - 8, y + font + 6}) {
          if (placeLabel(SceneText{*label, {right, baseline}, font, false, TextAlign::end, 0, roofColor(model.role), std::nullopt}))
            return;
        }
      }
    }
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
      for (const double side_px : {8.0, -(font + 6.0)}) {  // baseline above, then below the line
        for (const double along : {0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9}) {
          const double center = std::clamp(along * length, width / 2 + 5, length - width / 2 - 5);
          const PixelPoint anchor{from.x_px + ux * center + uy * side_px, from.y_px + uy * center - ux * side_px};
          if (placeLabel(SceneText{*label, anchor, font, false, TextAlign::middle, angle_deg, roofColor(model.role),
                                   std::nullopt}))
            return;
        }
      }
    }
  }

  // Markers are placed before any label, so that no label covers a point.
  void reserveMarkerFootprints() {
    const double radius = style_.marker_radius_px;
    auto reserve = [&](const DataPoint& at) {
      const PixelPoint center = projection_.toPixel(at);
      obstacles_.push_back(Box{center.x_px - radius, center.y_px - radius, center.x_px + radius, center.y_px + radius}
                               .footprint());
    };
    for (const VariantPoint& point : chart_.points) {
      reserve(point.at);
      for (const LevelMarker& level : point.levels) reserve(level.at);
      for (const MutantMarker& mutant : point.mutants) reserve({point.at.intensity_flop_per_byte, mutant.gflops});
    }
  }

  static SeriesTag seriesTag(const VariantPoint& point) { return SeriesTag{point.series_index, false}; }

  // Under the markers: a thin whisker from the slowest to the fastest repetition, and over it a
  // thick capped bar for the median's confidence interval, so the two read apart at a glance.
  void addPerformanceBars() {
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
      line({projection_.xPx(left), y}, {projection_.xPx(right), y}, seriesColor(point.series_index), 2,
           StrokeDash::solid, seriesTag(point));
      for (const LevelMarker& level : point.levels) {
        scene_.items.push_back(SceneMarker{projection_.toPixel(level.at), levelShape(level.at.level),
                                           style_.marker_radius_px * kLevelMarkerScale,
                                           seriesColor(point.series_index), level.details, false, seriesTag(point)});
      }
    }
  }

  static MarkerShape mutantShape(RunMode mode) { return mode == RunMode::compute_only ? MarkerShape::plus : MarkerShape::cross; }

  // On request: each mutant at the point's intensity, joined to it by a dotted line, so the height
  // between them reads as the most that removing the memory (or compute) part could win.
  void addMutantMarkers() {
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

  MarkerShape pointShape(const VariantPoint& point) const {
    return chart_.hierarchical ? levelShape(point.at.level) : seriesShape(point.series_index);
  }

  // A red "!" beside a marker that stands above its roof (the tooltip and the table say why): on
  // its upper right, else at the first other corner where it covers nothing.
  void addAboveRoofMark(const VariantPoint& point) {
    const PixelPoint center = projection_.toPixel(point.at);
    const double r = style_.marker_radius_px, font = style_.point_label_font_px;
    const double mark_width = estimatedTextWidthPx("!", font);
    for (const double distance : {1.0, 2.0}) {
      const PixelPoint corners[] = {{center.x_px + r * 0.9 * distance, center.y_px - r * 0.6 * distance},
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

  void addPoints() {
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
        if (placeLabel(SceneText{point.short_label, baseline, font, false, TextAlign::start, 0, kMutedText,
                                 seriesTag(point)}))
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

  // The legend with whole variant names: at the style's font when it fits the canvas, else at a
  // smaller one (a ladder of long names, with the level shapes, can be taller than the chart).
  void addLegendThatFits() {
    const std::size_t items_before = scene_.items.size(), obstacles_before = obstacles_.size();
    const double bottom_limit = style_.height_px - 10;
    for (double scale = 1.0;; scale *= 0.9) {
      scene_.items.resize(items_before);
      obstacles_.resize(obstacles_before);
      const double bottom = addLegend(style_.legend_font_px * scale);
      if (bottom <= bottom_limit || scale < 0.6) return;
    }
  }

  // Returns how far down its last row reaches.
  double addLegend(double font) {
    const double left = area_.right + 30;
    const double row_px = font * 1.5;
    const double marker_radius = style_.marker_radius_px * font / style_.legend_font_px;
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

    if (chart_.hierarchical) y = addLevelLegend(left, y, font, marker_radius);
    y = addMutantLegend(left, y, font, marker_radius);

    y += font * 0.6;
    text("Variants (normal mode)", {left, y}, font, TextAlign::start, kBlack, true);
    y += row_px;
    for (std::size_t index = 0; index < chart_.series.size(); ++index) {
      const SeriesTag tag{index, true};
      const MarkerShape shape = chart_.hierarchical ? MarkerShape::circle : seriesShape(index);
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35}, shape, marker_radius, seriesColor(index),
                                         {}, false, tag});
      for (const std::string& piece : wrappedToWidth(chart_.series[index].variant, font, max_text_px)) {
        text(piece, {text_left, y}, font, TextAlign::start, kBlack, false, 0, tag);
        y += font * 1.15;
      }
      y += row_px - font * 1.15;
    }
    y = addBarsLegend(y, font, marker_radius);
    if (!chart_.unplaced.empty()) {
      y += font * 0.6;
      const std::size_t count = chart_.unplaced.size();
      text(std::to_string(count) + (count == 1 ? " record" : " records") + " not on the chart", {left, y},
           font * 0.9, TextAlign::start, kMutedText);
      y += font * 1.2;
      text("(errors, no FLOPs): see the table", {left, y}, font * 0.9, TextAlign::start, kMutedText);
      y += row_px;
    }
    return y - font * 0.95;  // every row's baseline is at least 1.15 em above the next one's
  }

  // What the bars and hollow markers mean, once per chart, when it has any; returns the next row's y.
  double addBarsLegend(double y, double font, double marker_radius) {
    const bool has_bars = std::any_of(chart_.points.begin(), chart_.points.end(),
                                      [](const VariantPoint& p) { return p.median_interval || p.min_max; });
    const bool has_missed = std::any_of(chart_.points.begin(), chart_.points.end(),
                                        [](const VariantPoint& p) { return p.missed_noise_target; });
    if (!has_bars && !has_missed) return y;
    const double left = area_.right + 30;
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
      scene_.items.push_back(SceneMarker{{mid_x, y - font * 0.35}, MarkerShape::circle, marker_radius, kMutedText, {}, true,
                                         std::nullopt});
      text("hollow: noise target missed", {text_left, y}, font * 0.9, TextAlign::start);
      y += font * 1.4;
    }
    return y;
  }

  // The mutants' shapes, when some point has mutants; returns the next row's y.
  double addMutantLegend(double left, double y, double font, double marker_radius) {
    bool present[2] = {false, false};
    for (const VariantPoint& point : chart_.points)
      for (const MutantMarker& mutant : point.mutants) present[mutant.mode == RunMode::compute_only ? 0 : 1] = true;
    if (!present[0] && !present[1]) return y;
    y += font * 0.6;
    text("Mutants (dotted to their variant)", {left, y}, font, TextAlign::start, kBlack, true);
    y += font * 1.5;
    for (const RunMode mode : {RunMode::compute_only, RunMode::memory_only}) {
      if (!present[mode == RunMode::compute_only ? 0 : 1]) continue;
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35}, mutantShape(mode), marker_radius * kLevelMarkerScale,
                                         kMutedText, {}, false, std::nullopt});
      text(modeName(mode) + " mutant", {left + 64, y}, font, TextAlign::start);
      y += font * 1.5;
    }
    return y;
  }

  // Which shape is which memory level, for the levels some point has; returns the next row's y.
  double addLevelLegend(double left, double y, double font, double marker_radius) {
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
      scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35}, levelShape(level), marker_radius * kLevelMarkerScale,
                                         kMutedText, {}, false, std::nullopt});
      text(levelDisplayName(level), {left + 64, y}, font, TextAlign::start);
      y += font * 1.5;
    }
    return y;
  }

  const RooflineChart& chart_;
  const ChartStyle& style_;
  PlotArea area_;
  LogLogProjection projection_;
  ChartScene scene_;
  std::vector<TextFootprint> obstacles_;  // what a new label must not cover: markers and texts so far
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
    case MarkerShape::plus:
    case MarkerShape::cross: {
      // A "+" outline of arm half-width w (a "x" is the same, turned 45 degrees).
      const double r = radius_px * 1.25, w = radius_px * 0.4;
      const double outline[12][2] = {{-w, -r}, {w, -r}, {w, -w}, {r, -w}, {r, w}, {w, w},
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

double estimatedTextWidthPx(const std::string& text, double font_px) {
  // Average advance of DejaVu Sans / Verdana-like faces; count code points, not bytes.
  std::size_t code_points = 0;
  for (unsigned char byte : text) {
    if ((byte & 0xC0) != 0x80) ++code_points;
  }
  return static_cast<double>(code_points) * font_px * 0.58;
}

}  // namespace rooflab::reports

namespace rooflab::reports {

Rgb seriesColor(std::size_t series_index) { return kSeriesColors[series_index % kSeriesColorCount]; }

// The shape moves on by one at each turn of the palette, so that colour and shape together repeat
// only after 12 x 6 variants.
MarkerShape seriesShape(std::size_t series_index) {
  constexpr std::size_t shape_count = sizeof kSeriesShapes / sizeof kSeriesShapes[0];
  return kSeriesShapes[(series_index + series_index / kSeriesColorCount) % shape_count];
}

TextFootprint textFootprint(const SceneText& text) {
  const double width = estimatedTextWidthPx(text.text, text.font_px);
  double left = 0;
  if (text.align == TextAlign::middle) left = -width / 2;
  if (text.align == TextAlign::end) left = -width;
  const double top = -text.font_px * 0.8, bottom = text.font_px * 0.2;
  const double angle = text.rotation_deg * kPi / 180.0;
  const double cos_a = std::cos(angle), sin_a = std::sin(angle);
  auto turned = [&](double x, double y) {
    return PixelPoint{text.baseline.x_px + x * cos_a - y * sin_a, text.baseline.y_px + x * sin_a + y * cos_a};
  };
  return TextFootprint{{turned(left, top), turned(left + width, top), turned(left + width, bottom), turned(left, bottom)}};
}

bool footprintsOverlap(const TextFootprint& a, const TextFootprint& b) {
  // Two convex shapes are apart when their projections on some edge's normal are apart.
  for (const TextFootprint* shape : {&a, &b}) {
    for (std::size_t edge = 0; edge < 4; ++edge) {
      const PixelPoint& p = shape->corners[edge];
      const PixelPoint& q = shape->corners[(edge + 1) % 4];
      const double normal_x = q.y_px - p.y_px, normal_y = p.x_px - q.x_px;
      if (normal_x == 0 && normal_y == 0) continue;
      auto project = [&](const TextFootprint& f, double& low, double& high) {
        low = high = f.corners[0].x_px * normal_x + f.corners[0].y_px * normal_y;
        for (const PixelPoint& corner : f.corners) {
          const double value = corner.x_px * normal_x + corner.y_px * normal_y;
          low = std::min(low, value);
          high = std::max(high, value);
        }
      };
      double a_low, a_high, b_low, b_high;
      project(a, a_low, a_high);
      project(b, b_low, b_high);
      const double tolerance = 1e-6 * std::hypot(normal_x, normal_y);
      if (a_high <= b_low + tolerance || b_high <= a_low + tolerance) return false;
    }
  }
  return true;
}

std::vector<std::string> wrappedToWidth(const std::string& text, double font_px, double max_width_px) {
  std::vector<std::string> lines;
  std::string rest = text;
  while (estimatedTextWidthPx(rest, font_px) > max_width_px) {
    // The longest head that fits, cut after a separator when one is in its second half.
    std::size_t fits = 0;
    for (std::size_t end = 1; end <= rest.size(); ++end) {
      if (end < rest.size() && (static_cast<unsigned char>(rest[end]) & 0xC0) == 0x80) continue;  // not inside a code point
      if (estimatedTextWidthPx(rest.substr(0, end), font_px) > max_width_px) break;
      fits = end;
    }
    if (fits == 0) fits = 1;
    std::size_t cut = fits;
    for (std::size_t at = fits; at > fits / 2; --at) {
      const char c = rest[at - 1];
      if (c == '_' || c == '-' || c == ' ') {
        cut = at;
        break;
      }
    }
    lines.push_back(rest.substr(0, cut));
    rest = rest.substr(cut);
  }
  lines.push_back(rest);
  return lines;
}

}  // namespace rooflab::reports
