#pragma once
// The four profiling timestamps of one OpenCL command, with the ones a driver leaves unreported
// filled in from the next stage. NVIDIA's OpenCL on an H100 reports 0 for a stage of a
// clEnqueueMapBuffer with CL_MAP_WRITE_INVALIDATE_REGION while its end is on the device clock, whose
// epoch is decades back: queued -> end then came to 1.8e18 ns. A 0 is never a real time on such a
// clock, so an unreported stage is taken to begin when the next reported one does (the command is
// charged no time it cannot show).
#include <cstdint>

#include "analyzer/support/cl.hpp"

namespace rooflab {

struct EventTimes {
  std::int64_t queued_ns = 0;
  std::int64_t submit_ns = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  bool reported = false;  // false: the driver gave no time at all (every stage 0)
};

// Stages reported as 0, or later than the next one, take the next one's time: end <- (none),
// start <- end, submit <- start, queued <- submit. A pure function, tested without a device.
EventTimes filledIn(EventTimes times);

// The command's timestamps (it must have completed), filled in as above.
EventTimes eventTimes(const cl::Event& event);

}  // namespace rooflab
