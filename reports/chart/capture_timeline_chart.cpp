#include "reports/chart/capture_timeline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/chart/chart_style.hpp"
#include "reports/text/capture_timeline_text.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

constexpr double kLanePx = 56;
constexpr double kBoxPx = 34;
constexpr double kQueueLabelPx = 190;  // left of the lanes: the queue's name
constexpr double kRightPx = 40;
constexpr Rgb kLaneFill{0xf4, 0xf4, 0xf4};

constexpr CapturedCommandKind kLegendKinds[] = {
    CapturedCommandKind::kernel, CapturedCommandKind::write, CapturedCommandKind::read,  CapturedCommandKind::copy,
    CapturedCommandKind::fill,   CapturedCommandKind::map,   CapturedCommandKind::unmap, CapturedCommandKind::other};

// A round step for the time axis, about a sixth of `span`.
double timelineTickStep(double span) { return roundTickStep(span, 6); }

}  // namespace

Rgb timelineKindColor(CapturedCommandKind kind) {
  switch (kind) {
    case CapturedCommandKind::kernel: return {0x2c, 0xa0, 0x2c};
    case CapturedCommandKind::write: return {0x1f, 0x77, 0xb4};
    case CapturedCommandKind::read: return {0x94, 0x67, 0xbd};
    case CapturedCommandKind::copy: return {0x8c, 0x56, 0x4b};
    case CapturedCommandKind::fill: return {0x17, 0xbe, 0xcf};
    case CapturedCommandKind::map: return {0xd6, 0x27, 0x28};
    case CapturedCommandKind::unmap: return {0xe3, 0x77, 0xc2};
    default: return {0xa0, 0xa0, 0xa0};
  }
}

Rgb timelineLaunchColor() { return {0xff, 0x7f, 0x0e}; }

std::optional<ChartScene> layoutCaptureTimelineChart(const CaptureTimeline& timeline, const ChartStyle& style) {
  if (timeline.boxes.empty() || !(timeline.span_ns > 0)) return std::nullopt;
  std::map<std::uint64_t, std::size_t> lane_of;
  for (const TimelineQueue& queue : timeline.queues)
    if (queue.timed_commands > 0) lane_of.emplace(queue.id, lane_of.size());
  for (const TimelineBox& box : timeline.boxes) lane_of.emplace(box.queue_id, lane_of.size());
  const double font = style.legend_font_px, top = 130, left = kQueueLabelPx;
  const double width = style.width_px - kQueueLabelPx - kRightPx;
  ChartScene scene;
  scene.width_px = style.width_px;
  scene.height_px = top + double(lane_of.size()) * kLanePx + 90;
  scene.title = "Timeline: where the application's device time went";
  auto text = [&](std::string content, PixelPoint at, double size, TextAlign align, Rgb color, bool bold = false) {
    scene.items.push_back(SceneText{std::move(content), at, size, bold, align, 0, color, std::nullopt});
  };
  scene.items.push_back(SceneRect{{0, 0}, scene.width_px, scene.height_px, Rgb{0xff, 0xff, 0xff}, std::nullopt, 1});
  text(scene.title, {scene.width_px / 2, 44}, style.title_font_px, TextAlign::middle, kInk, true);
  double legend_x = left;
  auto legend = [&](const std::string& name, Rgb color) {
    scene.items.push_back(SceneRect{{legend_x, 72}, 26, 20, color, kInk, 1});
    text(name, {legend_x + 34, 89}, font, TextAlign::start, kInk);
    legend_x += 56 + estimatedTextWidthPx(name, font);
  };
  for (CapturedCommandKind kind : kLegendKinds) legend(toString(kind), timelineKindColor(kind));
  legend("launch overhead", timelineLaunchColor());

  const double scale = width / timeline.span_ns;
  for (const auto& [queue, lane] : lane_of) {
    const double y = top + double(lane) * kLanePx;
    scene.items.push_back(SceneRect{{left, y}, width, kBoxPx, kLaneFill, std::nullopt, 1});
    text("queue " + std::to_string(queue), {left - 14, y + kBoxPx * 0.7}, font, TextAlign::end, kInk);
  }
  for (const TimelineBox& box : timeline.boxes) {
    const double y = top + double(lane_of[box.queue_id]) * kLanePx;
    if (box.kind == CapturedCommandKind::kernel && box.start_ns > box.ready_ns)
      scene.items.push_back(SceneRect{{left + box.ready_ns * scale, y + kBoxPx * 0.4},
                                      std::max(1.0, (box.start_ns - box.ready_ns) * scale),
                                      kBoxPx * 0.2,
                                      timelineLaunchColor(),
                                      std::nullopt,
                                      1});
    // A command shorter than a pixel still shows, a pixel wide.
    scene.items.push_back(SceneRect{{left + box.start_ns * scale, y},
                                    std::max(1.0, (box.end_ns - box.start_ns) * scale),
                                    kBoxPx,
                                    timelineKindColor(box.kind),
                                    std::nullopt,
                                    1});
  }
  const double axis_y = top + double(lane_of.size()) * kLanePx;
  scene.items.push_back(SceneLine{{left, axis_y}, {left + width, axis_y}, kInk, 1.5, StrokeDash::solid, std::nullopt});
  const double step = timelineTickStep(timeline.span_ns);
  for (double t = 0; t <= timeline.span_ns * 1.0001; t += step) {
    const double px = left + t * scale;
    scene.items.push_back(SceneLine{{px, axis_y}, {px, axis_y + 8}, kInk, 1.5, StrokeDash::solid, std::nullopt});
    text(t == 0 ? "0" : formatDurationNs(t), {px, axis_y + 8 + font}, font * 0.9, TextAlign::middle, kMuted);
  }
  text("device time from the first command queued", {left + width / 2, axis_y + 16 + 2 * font}, font * 0.9,
       TextAlign::middle, kMuted);
  return scene;
}

}  // namespace rooflab::reports
