// The chart's scene: label placement (text sizes, footprints, overlap, and where roof and point labels go).
#include "reports/chart/chart_scene.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/chart_scene_builder.hpp"

namespace rooflab::reports::scene_detail {
namespace {

// Drops a whole UTF-8 sequence, never half of one.
void popLastCodePoint(std::string& text) {
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
  if (!text.empty()) text.pop_back();
}

}  // namespace

std::string truncatedToWidth(const std::string& text, double font_px, double max_width_px) {
  if (estimatedTextWidthPx(text, font_px) <= max_width_px) return text;
  std::string shortened = text;
  while (!shortened.empty() && estimatedTextWidthPx(shortened + "…", font_px) > max_width_px) {
    popLastCodePoint(shortened);
  }
  return shortened + "…";
}

// A label at a candidate place: drawn when it covers no other text nor marker (and, for labels in
// the plot, stays inside it); false when the caller must try its next place.
bool SceneBuilder::placeLabel(const SceneText& label, bool inside_plot) {
  const TextFootprint footprint = textFootprint(label);
  if (inside_plot && !insidePlot(footprint)) return false;
  for (const TextFootprint& obstacle : obstacles_) {
    if (footprintsOverlap(footprint, obstacle)) return false;
  }
  obstacles_.push_back(footprint);
  scene_.items.push_back(label);
  return true;
}

bool SceneBuilder::insidePlot(const TextFootprint& footprint) const {
  return std::all_of(footprint.corners.begin(), footprint.corners.end(), [&](const PixelPoint& corner) {
    return corner.x_px >= area_.left && corner.x_px <= area_.right && corner.y_px >= area_.top &&
           corner.y_px <= area_.bottom;
  });
}

int SceneBuilder::labelPriority(const Ceiling& ceiling) const {
  const ModelRole role = chart_.models[ceiling.model_index].role;
  const int role_rank = role == ModelRole::measured_device ? 0 : role == ModelRole::reference ? 1 : 2;
  const int kind_rank = ceiling.kind == CeilingKind::fp32_peak        ? 0
                        : ceiling.kind == CeilingKind::dram_bandwidth ? 1
                                                                      : 2;
  return role_rank * 3 + kind_rank;
}

// A flat peak's label goes above its line at the right edge, else below it, else further left;
// the name is dropped before the label is (the legend and the line style name the model).
void SceneBuilder::addPeakLabel(const Ceiling& peak) {
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
        if (placeLabel(SceneText{
                *label, {right, baseline}, font, false, TextAlign::end, 0, roofColor(model.role), std::nullopt}))
          return;
      }
    }
  }
}

// A slope's label runs along the line, rotated with it. It tries spots along the visible part
// of the line, above it and then below it, and takes the first that covers no other label nor
// marker: the device's and the reference's slopes are parallel and can be close together.
void SceneBuilder::addSlopeLabel(const Ceiling& ceiling) {
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

}  // namespace rooflab::reports::scene_detail

namespace rooflab::reports {

using scene_detail::kPi;

double estimatedTextWidthPx(const std::string& text, double font_px) {
  // Average advance of DejaVu Sans / Verdana-like faces; count code points, not bytes.
  std::size_t code_points = 0;
  for (unsigned char byte : text) {
    if ((byte & 0xC0) != 0x80) ++code_points;
  }
  return static_cast<double>(code_points) * font_px * 0.58;
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
  return TextFootprint{
      {turned(left, top), turned(left + width, top), turned(left + width, bottom), turned(left, bottom)}};
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
      if (end < rest.size() && (static_cast<unsigned char>(rest[end]) & 0xC0) == 0x80)
        continue;  // not inside a code point
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
