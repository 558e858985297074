#pragma once
// Wall time as rooflab measures its own steps: a monotonic clock, read in seconds.
#include <chrono>

namespace rooflab {

using WallClock = std::chrono::steady_clock;

inline double secondsSince(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

}  // namespace rooflab
