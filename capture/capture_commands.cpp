// Transfers, maps, markers and the calls that wait: each enqueue is one line of the log, and the
// waits are where the capture reads the times of the commands that have completed.
#include "capture/capture_command.hpp"

using namespace rooflab_capture;

namespace rooflab_capture {

namespace {
// A host loop that never waits still gets its times read before the held events pile up.
constexpr std::size_t kPendingLimit = 1024;

std::uint64_t idOf(const void* handle, const std::unordered_map<const void*, BufferState>& buffers) {
  const auto found = buffers.find(handle);
  return found == buffers.end() ? 0 : found->second.id;
}
}  // namespace

void recordCommand(const CommandFacts& facts, cl_int status, cl_event event, bool program_event,
                   std::uint64_t host_begin_ns, std::uint64_t host_end_ns) {
  State& s = state();
  const std::uint64_t sequence = s.next_sequence++;
  const auto queue = s.queues.find(facts.queue);
  JsonLine line("command");
  line.number("seq", sequence)
      .number("queue", queue == s.queues.end() ? 0 : queue->second.id)
      .text("kind", facts.kind)
      .text("call", facts.call)
      .number("host_begin_ns", host_begin_ns)
      .number("host_end_ns", host_end_ns)
      .flag("blocking", facts.blocking)
      .number("wait_list", facts.wait_list_size)
      .integer("status", status);
  if (facts.buffer != nullptr) line.number("buffer", idOf(facts.buffer, s.buffers));
  if (facts.other_buffer != nullptr) line.number("other_buffer", idOf(facts.other_buffer, s.buffers));
  if (facts.bytes != 0) line.number("bytes", facts.bytes);
  if (facts.map_flags != 0) line.number("map_flags", facts.map_flags);
  if (facts.launch_id != 0) line.number("launch", facts.launch_id);
  writeLine(line.finish());
  if (event != nullptr) {
    // The program's event stays the program's: the capture holds a reference of its own.
    if (program_event) next.clRetainEvent(event);
    s.pending.push_back({sequence, event});
  }
  if (facts.blocking || s.pending.size() >= kPendingLimit) collectEventTimes(false);
}

}  // namespace rooflab_capture

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                                      size_t offset, size_t size, void* ptr, cl_uint num_events,
                                                      const cl_event* wait_list, cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  const CommandFacts facts{
      "clEnqueueReadBuffer", "read", queue, blocking == CL_TRUE, num_events, buffer, nullptr, size};
  return runCommand(facts, event, [&](cl_event* e) {
    return next.clEnqueueReadBuffer(queue, buffer, blocking, offset, size, ptr, num_events, wait_list, e);
  });
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                                       size_t offset, size_t size, const void* ptr, cl_uint num_events,
                                                       const cl_event* wait_list, cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  const CommandFacts facts{
      "clEnqueueWriteBuffer", "write", queue, blocking == CL_TRUE, num_events, buffer, nullptr, size};
  return runCommand(facts, event, [&](cl_event* e) {
    return next.clEnqueueWriteBuffer(queue, buffer, blocking, offset, size, ptr, num_events, wait_list, e);
  });
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue queue, cl_mem source, cl_mem destination,
                                                      size_t source_offset, size_t destination_offset, size_t size,
                                                      cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  const CommandFacts facts{"clEnqueueCopyBuffer", "copy", queue, false, num_events, source, destination, size};
  return runCommand(facts, event, [&](cl_event* e) {
    return next.clEnqueueCopyBuffer(queue, source, destination, source_offset, destination_offset, size, num_events,
                                    wait_list, e);
  });
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer, const void* pattern,
                                                      size_t pattern_size, size_t offset, size_t size,
                                                      cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  if (!ensureNext() || next.clEnqueueFillBuffer == nullptr) return CL_INVALID_OPERATION;
  const CommandFacts facts{"clEnqueueFillBuffer", "fill", queue, false, num_events, buffer, nullptr, size};
  return runCommand(facts, event, [&](cl_event* e) {
    return next.clEnqueueFillBuffer(queue, buffer, pattern, pattern_size, offset, size, num_events, wait_list, e);
  });
}

CAPTURE_EXPORT void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                                    cl_map_flags flags, size_t offset, size_t size, cl_uint num_events,
                                                    const cl_event* wait_list, cl_event* event, cl_int* errcode_ret) {
  if (!ensureNext()) {
    if (errcode_ret != nullptr) *errcode_ret = CL_INVALID_COMMAND_QUEUE;
    return nullptr;
  }
  void* mapped = nullptr;
  const CommandFacts facts{
      "clEnqueueMapBuffer", "map", queue, blocking == CL_TRUE, num_events, buffer, nullptr, size, flags};
  const cl_int status = runCommand(facts, event, [&](cl_event* e) {
    cl_int code = CL_SUCCESS;
    mapped = next.clEnqueueMapBuffer(queue, buffer, blocking, flags, offset, size, num_events, wait_list, e, &code);
    return code;
  });
  if (errcode_ret != nullptr) *errcode_ret = status;
  return mapped;
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue queue, cl_mem memory, void* mapped,
                                                          cl_uint num_events, const cl_event* wait_list,
                                                          cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  const CommandFacts facts{"clEnqueueUnmapMemObject", "unmap", queue, false, num_events, memory};
  return runCommand(facts, event, [&](cl_event* e) {
    return next.clEnqueueUnmapMemObject(queue, memory, mapped, num_events, wait_list, e);
  });
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint num_events,
                                                              const cl_event* wait_list, cl_event* event) {
  if (!ensureNext() || next.clEnqueueMarkerWithWaitList == nullptr) return CL_INVALID_OPERATION;
  const CommandFacts facts{"clEnqueueMarkerWithWaitList", "marker", queue, false, num_events};
  return runCommand(facts, event,
                    [&](cl_event* e) { return next.clEnqueueMarkerWithWaitList(queue, num_events, wait_list, e); });
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint num_events,
                                                               const cl_event* wait_list, cl_event* event) {
  if (!ensureNext() || next.clEnqueueBarrierWithWaitList == nullptr) return CL_INVALID_OPERATION;
  const CommandFacts facts{"clEnqueueBarrierWithWaitList", "barrier", queue, false, num_events};
  return runCommand(facts, event,
                    [&](cl_event* e) { return next.clEnqueueBarrierWithWaitList(queue, num_events, wait_list, e); });
}

namespace {
void recordWait(const char* call, cl_command_queue queue, std::uint64_t begin, cl_int status) {
  const std::uint64_t end = nowNs();
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  const auto found = state().queues.find(queue);
  JsonLine line("wait");
  line.text("call", call).number("host_begin_ns", begin).number("host_end_ns", end).integer("status", status);
  if (found != state().queues.end()) line.number("queue", found->second.id);
  writeLine(line.finish());
  collectEventTimes(false);
}
}  // namespace

CAPTURE_EXPORT cl_int CL_API_CALL clFinish(cl_command_queue queue) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  const std::uint64_t begin = nowNs();
  const cl_int status = next.clFinish(queue);
  recordWait("clFinish", queue, begin, status);
  return status;
}

CAPTURE_EXPORT cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* events) {
  if (!ensureNext()) return CL_INVALID_EVENT;
  const std::uint64_t begin = nowNs();
  const cl_int status = next.clWaitForEvents(num_events, events);
  recordWait("clWaitForEvents", nullptr, begin, status);
  return status;
}
