#pragma once
// What the bar charts (an end-to-end run's strategies, a capture's timeline, a tuning search) share:
// their ink, their muted text, and the round steps of a linear time axis.
#include "reports/chart/chart_scene.hpp"

namespace rooflab::reports {

inline constexpr Rgb kInk{0x1a, 0x1a, 0x1a};
inline constexpr Rgb kMuted{0x66, 0x66, 0x66};

// A round step for a linear axis: 1, 2 or 5 times a power of ten, the smallest at least `span` / `ticks`.
double roundTickStep(double span, int ticks);

}  // namespace rooflab::reports
