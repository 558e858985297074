#pragma once
// A straight line fitted by weighted least squares: the host link's time as latency + bytes /
// bandwidth (analyzer/ceilings/ceilings_link.cpp) and any other cost that grows linearly with a size.
#include <cstddef>
#include <vector>

namespace rooflab {

struct LineSample {
  double x = 0;
  double y = 0;
};

struct LineFit {
  double intercept = 0;  // y at x = 0
  double slope = 0;      // dy/dx
  // The largest |y - fitted| / y over the samples (0 where y is 0): how far the line misses the
  // sample it fits worst, relative to that sample.
  double max_relative_residual = 0;
  std::size_t samples = 0;
  // The unconstrained fit gave a negative intercept or slope, which a cost cannot have: that part
  // was held at 0 and the other fitted alone.
  bool intercept_clamped = false;
  bool slope_clamped = false;
};

// Least squares on relative residuals (each sample weighted 1 / y^2), so that the small sizes that
// fix the intercept count as much as the large ones that fix the slope; an intercept or slope that
// comes out negative is held at 0. Throws std::invalid_argument with no sample, a sample that is
// not finite or a negative y.
LineFit fitLineRelative(const std::vector<LineSample>& samples);

}  // namespace rooflab
