#pragma once
// A tuning search as a picture: one panel per dimension of its space, the rate of every configuration
// that ran against that dimension's value (its values evenly spaced, as categories), the best
// configuration marked in every panel, the variant as written outlined, and the configurations that
// failed along the bottom. Laid out as a ChartScene, so that the HTML (SVG) and the PNG (cairo) draw
// the same picture with the roofline's drawers.
#include "analyzer/data/tuning.hpp"
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

ChartScene layoutTuningChart(const TuningResult& result, const ChartStyle& style = {});

}  // namespace rooflab::reports
