// The chart's scene: the legend (models, memory levels, mutants, variants, bars), shrunk until it fits.
#include "reports/chart/chart_scene.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/chart_scene_builder.hpp"

namespace rooflab::reports::scene_detail {

// The legend with whole variant names: at the style's font when it fits the canvas, else at a
// smaller one (a ladder of long names, with the level shapes, can be taller than the chart).
void SceneBuilder::addLegendThatFits() {
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
double SceneBuilder::addLegend(double font) {
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
  const bool has_local_roof = std::any_of(chart_.ceilings.begin(), chart_.ceilings.end(),
                                          [](const Ceiling& c) { return c.kind == CeilingKind::local_bandwidth; });
  if (has_local_roof) {
    line({left, y - font * 0.35}, {left + 52, y - font * 0.35}, kMutedText, 3, StrokeDash::dotted);
    text(chart_.dotted_roof_note, {text_left, y}, font, TextAlign::start);
    y += row_px;
  }

  for (const Ceiling& c : chart_.ceilings)
    if (c.kind == CeilingKind::launch_floor && !c.label.empty()) {
      line({left, y - font * 0.35}, {left + 52, y - font * 0.35}, roofColor(chart_.models[c.model_index].role), 3,
           StrokeDash::dotted);
      text(truncatedToWidth(c.short_label, font, max_text_px), {text_left, y}, font, TextAlign::start);
      y += row_px;
    }
  if (!chart_.marks.empty()) {
    scene_.items.push_back(SceneMarker{
        {left + 26, y - font * 0.35}, MarkerShape::cross, marker_radius, kMutedText, {}, false, std::nullopt});
    text("half of the plateau", {text_left, y}, font, TextAlign::start);
    y += row_px;
  }

  if (chart_.hierarchical) y = addLevelLegend(left, y, font, marker_radius);
  y = addAccessLegend(left, y, font, marker_radius);
  y = addMutantLegend(left, y, font, marker_radius);

  y += font * 0.6;
  text("Variants (normal mode)", {left, y}, font, TextAlign::start, kBlack, true);
  y += row_px;
  for (std::size_t index = 0; index < chart_.series.size(); ++index) {
    const SeriesTag tag{index, true};
    const MarkerShape shape = chart_.hierarchical ? MarkerShape::circle : seriesShape(index);
    scene_.items.push_back(
        SceneMarker{{left + 26, y - font * 0.35}, shape, marker_radius, seriesColor(index), {}, false, tag});
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
    text(std::to_string(count) + (count == 1 ? " record" : " records") + " not on the chart", {left, y}, font * 0.9,
         TextAlign::start, kMutedText);
    y += font * 1.2;
    text(chart_.unplaced_note, {left, y}, font * 0.9, TextAlign::start, kMutedText);
    y += row_px;
  }
  return y - font * 0.95;  // every row's baseline is at least 1.15 em above the next one's
}

// What the bars and hollow markers mean, once per chart, when it has any; returns the next row's y.
double SceneBuilder::addBarsLegend(double y, double font, double marker_radius) {
  const bool has_bars = std::any_of(chart_.points.begin(), chart_.points.end(),
                                    [](const VariantPoint& p) { return p.median_interval || p.min_max; });
  const bool has_missed = std::any_of(chart_.points.begin(), chart_.points.end(),
                                      [](const VariantPoint& p) { return p.missed_noise_target; });
  const bool has_launch_floor = std::any_of(chart_.points.begin(), chart_.points.end(),
                                            [](const VariantPoint& p) { return p.launch_floor_gflops.has_value(); });
  if (!has_bars && !has_missed && !has_launch_floor) return y;
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
    scene_.items.push_back(
        SceneMarker{{mid_x, y - font * 0.35}, MarkerShape::circle, marker_radius, kMutedText, {}, true, std::nullopt});
    text("hollow: noise target missed", {text_left, y}, font * 0.9, TextAlign::start);
    y += font * 1.4;
  }
  if (has_launch_floor) {
    line({left, y - font * 0.35}, {left + 52, y - font * 0.35}, kMutedText, 3, StrokeDash::dashed);
    text("launch floor: its work in", {text_left, y}, font * 0.9, TextAlign::start);
    y += font * 1.15;
    text("one launch latency (launch-bound)", {text_left, y}, font * 0.9, TextAlign::start);
    y += font * 1.4;
  }
  return y;
}

// The mutants' shapes, when some point has mutants; returns the next row's y.
double SceneBuilder::addMutantLegend(double left, double y, double font, double marker_radius) {
  bool present[2] = {false, false};
  for (const VariantPoint& point : chart_.points)
    for (const MutantMarker& mutant : point.mutants) present[mutant.mode == RunMode::compute_only ? 0 : 1] = true;
  if (!present[0] && !present[1]) return y;
  y += font * 0.6;
  text("Mutants (dotted to their variant)", {left, y}, font, TextAlign::start, kBlack, true);
  y += font * 1.5;
  for (const RunMode mode : {RunMode::compute_only, RunMode::memory_only}) {
    if (!present[mode == RunMode::compute_only ? 0 : 1]) continue;
    scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35},
                                       mutantShape(mode),
                                       marker_radius * kLevelMarkerScale,
                                       kMutedText,
                                       {},
                                       false,
                                       std::nullopt});
    text(modeName(mode) + " mutant", {left + 64, y}, font, TextAlign::start);
    y += font * 1.5;
  }
  return y;
}

// Which shape is which memory level, for the levels some point has; returns the next row's y.
double SceneBuilder::addLevelLegend(double left, double y, double font, double marker_radius) {
  std::vector<MemoryLevel> present;
  for (const VariantPoint& point : chart_.points) {
    present.push_back(point.at.level);
    for (const LevelMarker& level : point.levels) present.push_back(level.at.level);
  }
  y += font * 0.6;
  text("Memory levels (shape)", {left, y}, font, TextAlign::start, kBlack, true);
  y += font * 1.5;
  for (MemoryLevel level :
       {MemoryLevel::global, MemoryLevel::l1, MemoryLevel::local, MemoryLevel::l2, MemoryLevel::dram}) {
    if (std::find(present.begin(), present.end(), level) == present.end()) continue;
    scene_.items.push_back(SceneMarker{{left + 26, y - font * 0.35},
                                       levelShape(level),
                                       marker_radius * kLevelMarkerScale,
                                       kMutedText,
                                       {},
                                       false,
                                       std::nullopt});
    const auto named = chart_.level_names.find(level);
    text(named != chart_.level_names.end() ? named->second : levelDisplayName(level), {left + 64, y}, font,
         TextAlign::start);
    y += font * 1.5;
  }
  return y;
}

}  // namespace rooflab::reports::scene_detail
