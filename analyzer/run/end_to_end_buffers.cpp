#include "analyzer/run/end_to_end_buffers.hpp"

#include "analyzer/support/event_times.hpp"

namespace rooflab::end_to_end {

void poisonDevice(cl::CommandQueue& queue, cl::Buffer& buffer, const ElementType& type, std::size_t offset,
                  std::size_t bytes) {
  if (bytes == 0) return;
  if (type.scalar == ScalarKind::f32 && bytes % sizeof(cl_uint) == 0 && offset % sizeof(cl_uint) == 0)
    queue.enqueueFillBuffer<cl_uint>(buffer, 0x7fc00000u, offset, bytes);
  else if (type.scalar == ScalarKind::f64 && bytes % sizeof(cl_ulong) == 0 && offset % sizeof(cl_ulong) == 0)
    queue.enqueueFillBuffer<cl_ulong>(buffer, 0x7ff8000000000000ull, offset, bytes);
  else queue.enqueueFillBuffer<cl_uchar>(buffer, 0xA5, offset, bytes);
}

HostBuffer poisonedHost(const ResolvedBuffer& buffer) {
  HostBuffer host(buffer.spec->name, buffer.spec->type, static_cast<std::size_t>(buffer.count));
  poisonBuffer(host);
  return host;
}

void countCrossings(const ResolvedPoint& point, EndToEndRun& run) {
  for (const ResolvedBuffer& b : point.buffers) {
    if (b.scratch) continue;
    if (goesUp(b.spec->crossing())) {
      run.upload_bytes += b.bytes;
      ++run.upload_buffers;
    }
    if (comesDown(b.spec->crossing())) {
      run.download_bytes += b.bytes;
      ++run.download_buffers;
    }
  }
}

TimedCommand timed(const cl::Event& event, CommandPart part, int queue) {
  TimedCommand command;
  command.part = part;
  command.queue = queue;
  const EventTimes times = eventTimes(event);
  command.queued_ns = times.queued_ns;
  command.start_ns = times.start_ns;
  command.end_ns = times.end_ns;
  command.reported = times.reported;
  return command;
}

}  // namespace rooflab::end_to_end
