#include "analyzer/stats/linear_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rooflab {
namespace {

double weightOf(const LineSample& sample) { return sample.y > 0 ? 1.0 / (sample.y * sample.y) : 1.0; }

}  // namespace

LineFit fitLineRelative(const std::vector<LineSample>& samples) {
  if (samples.empty()) throw std::invalid_argument("a line needs at least one sample");
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const LineSample& s : samples) {
    if (!std::isfinite(s.x) || !std::isfinite(s.y) || s.y < 0)
      throw std::invalid_argument("a line's samples must be finite, with y at least 0");
    const double w = weightOf(s);
    sw += w;
    sx += w * s.x;
    sy += w * s.y;
    sxx += w * s.x * s.x;
    sxy += w * s.x * s.y;
  }
  LineFit fit;
  fit.samples = samples.size();
  const double determinant = sw * sxx - sx * sx;
  // One distinct x: no slope can be told; the line is flat through the weighted mean.
  if (std::fabs(determinant) <= 1e-12 * sw * sxx) {
    fit.intercept = sy / sw;
  } else {
    fit.slope = (sw * sxy - sx * sy) / determinant;
    fit.intercept = (sy - fit.slope * sx) / sw;
  }
  if (fit.slope < 0) {
    fit.slope_clamped = true;
    fit.slope = 0;
    fit.intercept = sy / sw;
  }
  if (fit.intercept < 0) {
    fit.intercept_clamped = true;
    fit.intercept = 0;
    fit.slope = sxx > 0 ? std::max(0.0, sxy / sxx) : 0;
  }
  for (const LineSample& s : samples)
    if (s.y > 0)
      fit.max_relative_residual =
          std::max(fit.max_relative_residual, std::fabs(s.y - (fit.intercept + fit.slope * s.x)) / s.y);
  return fit;
}

}  // namespace rooflab
