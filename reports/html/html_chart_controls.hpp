#pragma once
#include <string>
#include <vector>

#include "reports/chart/roofline_chart.hpp"

// The HTML chart's zoom and variant filter: controls under each chart, and one inline script and
// style sheet per page. Nothing is fetched: the page works offline and from a file.
namespace rooflab::reports {

// Under a chart's SVG, in the same <figure>: zoom buttons and one checkbox per variant, bound to
// the SVG items that carry its data-series index (svg_chart.cpp).
std::string chartControlsHtml(const RooflineChart& chart);
std::string chartControlsHtml(const std::vector<VariantSeries>& series);

// Once per page, at the end of <body>: the style and the script that drive every chart's controls.
std::string chartScriptHtml();

}  // namespace rooflab::reports
