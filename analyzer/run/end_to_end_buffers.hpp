#pragma once
// What the end-to-end runs (analyzer/run/end_to_end_runner.cpp, end_to_end_overlap.cpp) share: a
// buffer's device poison, the poisoned host array, a command's timestamps, the part of a run's setup
// that is not timed.
#include <cstdint>
#include <map>
#include <string>

#include "analyzer/data/resolved_point.hpp"
#include "analyzer/run/end_to_end_timeline.hpp"
#include "analyzer/support/cl.hpp"
#include "analyzer/support/host_buffer.hpp"

namespace rooflab::end_to_end {

// Fills `bytes` of `buffer` from `offset` with the NaN (floats) or 0xA5 pattern the kernel runs
// poison outputs with: an element the kernel did not write fails verification. Not waited for.
void poisonDevice(cl::CommandQueue& queue, cl::Buffer& buffer, const ElementType& type, std::size_t offset,
                  std::size_t bytes);

// A host output array: the buffer's elements, poisoned.
HostBuffer poisonedHost(const ResolvedBuffer& buffer);

// The bytes and buffers that cross the link each run (what goes up, what comes down), into `run`.
void countCrossings(const ResolvedPoint& point, EndToEndRun& run);

// The command `event` timed, as part `part` of a run on queue `queue`.
TimedCommand timed(const cl::Event& event, CommandPart part, int queue);

// Whether the runs give the buffer's contents from the host: inputs that cross up, and read_write
// buffers that do not cross (their starting contents are uploaded before each run, untimed).
inline bool hasInput(const BufferSpec& spec) { return spec.access != BufferAccess::write; }

}  // namespace rooflab::end_to_end
