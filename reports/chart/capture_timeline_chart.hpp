#pragma once
// The timeline chart of a captured application (docs/capture-timeline.md): one lane per queue, a box
// per timed command from its start to its end coloured by its kind, a thin bar before each kernel for
// its launch overhead, a time axis under the lanes. Drawn as capture-timeline.png (png_charts.cpp)
// and inline in the HTML report (the same scene).
#include <optional>

#include "analyzer/data/capture_timeline.hpp"
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

// The colour of a command's kind, shared by the chart and the page's table.
Rgb timelineKindColor(CapturedCommandKind kind);
Rgb timelineLaunchColor();

// nullopt when no command has device times.
std::optional<ChartScene> layoutCaptureTimelineChart(const CaptureTimeline& timeline, const ChartStyle& style = {});

}  // namespace rooflab::reports
