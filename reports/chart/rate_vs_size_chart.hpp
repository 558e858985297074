#pragma once
// The rate-versus-size chart of a family (reports/text/size_response.hpp): achieved rate against
// problem size on log-log axes, a line per variant, the device's roofs at each size (the DRAM roof in
// GB/s; in GFLOP/s the lesser of the peak and the size's intensity times DRAM), the launch floor (each
// size's work over an empty kernel's time: no kernel is faster), and a cross where each variant
// reaches half of its plateau. Built as a RooflineChart (x: size, y: rate), so that the roofline's
// scene, drawers and HTML controls draw it.
#include <optional>
#include <string>

#include "reports/chart/roofline_chart.hpp"
#include "reports/text/size_response.hpp"

namespace rooflab::reports {

RooflineChart buildRateVsSizeChart(const AnalysedResults& results, const SizeResponse& response);

}  // namespace rooflab::reports
