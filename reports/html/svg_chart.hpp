#pragma once
#include <string>

#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

// One <svg class="roofline"> element, inline in the HTML report. It scales with the page
// (viewBox) and shows each point's details on hover through an SVG <title>, which needs no script.
std::string renderSvgChart(const ChartScene& scene, const std::string& family);

}  // namespace rooflab::reports
