#include "reports/chart/chart_style.hpp"

#include <cmath>

namespace rooflab::reports {

double roundTickStep(double span, int ticks) {
  const double raw = span / ticks;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0})
    if (factor * decade >= raw) return factor * decade;
  return 10 * decade;
}

}  // namespace rooflab::reports
