#pragma once
#include <string>

#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

// One <svg class="roofline"> element, inline in the HTML report. It scales with the page
// (viewBox) and shows each point's details on hover through an SVG <title>, which needs no script.
// `kind` names a chart other than the roofline ("bandwidth", "instructions") in a data-chart attribute.
// "#1a1a1a".
std::string hexColor(Rgb color);

std::string renderSvgChart(const ChartScene& scene, const std::string& family, const std::string& kind = "");

}  // namespace rooflab::reports
