#pragma once
// The captured application's section of the HTML report (docs/capture-timeline.md): the timeline
// chart (inline SVG, the scene capture-timeline.png draws), where the time went, the transfers beside
// the link ceilings and what another strategy would save, the hotspots.
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

// "" when the document has no capture timeline.
std::string captureTimelineSectionHtml(const AnalysedResults& results, const ChartStyle& style);

}  // namespace rooflab::reports
