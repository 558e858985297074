#include "analyzer/support/event_times.hpp"

#include <algorithm>

namespace rooflab {

EventTimes filledIn(EventTimes times) {
  times.reported = times.queued_ns > 0 || times.submit_ns > 0 || times.start_ns > 0 || times.end_ns > 0;
  if (!times.reported) return times;
  // Walk back from the end: each stage is at most the next one, and a missing one is the next one.
  if (times.end_ns <= 0) times.end_ns = std::max({times.start_ns, times.submit_ns, times.queued_ns});
  auto fill = [](std::int64_t& stage, std::int64_t next) {
    if (stage <= 0 || stage > next) stage = next;
  };
  fill(times.start_ns, times.end_ns);
  fill(times.submit_ns, times.start_ns);
  fill(times.queued_ns, times.submit_ns);
  return times;
}

EventTimes eventTimes(const cl::Event& event) {
  EventTimes times;
  times.queued_ns = static_cast<std::int64_t>(event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>());
  times.submit_ns = static_cast<std::int64_t>(event.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>());
  times.start_ns = static_cast<std::int64_t>(event.getProfilingInfo<CL_PROFILING_COMMAND_START>());
  times.end_ns = static_cast<std::int64_t>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>());
  return filledIn(times);
}

}  // namespace rooflab
