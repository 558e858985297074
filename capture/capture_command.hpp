#pragma once
// An enqueued command as the capture records it: the program's call runs with the program's own
// event, or with one the capture owns when the program passed none, so that every command's times
// can be read once it is complete (docs/capture.md, "Event times").
#include "capture/capture_state.hpp"

namespace rooflab_capture {

struct CommandFacts {
  const char* call = "";
  const char* kind = "other";  // kernel | write | read | copy | fill | map | unmap | marker | barrier | other
  cl_command_queue queue = nullptr;
  bool blocking = false;
  cl_uint wait_list_size = 0;
  cl_mem buffer = nullptr;
  cl_mem other_buffer = nullptr;
  std::uint64_t bytes = 0;
  std::uint64_t map_flags = 0;
  std::uint64_t launch_id = 0;  // kernels: their launch (0: none)
};

// Writes the command's line and keeps its event until its times are read. Call with the mutex held.
void recordCommand(const CommandFacts& facts, cl_int status, cl_event event, bool program_event,
                   std::uint64_t host_begin_ns, std::uint64_t host_end_ns);

// Runs `enqueue(event)` outside the lock (it may block), then records it.
template <class Enqueue>
cl_int runCommand(const CommandFacts& facts, cl_event* program_event, Enqueue&& enqueue) {
  cl_event own = nullptr;
  cl_event* event = program_event != nullptr ? program_event : &own;
  const std::uint64_t begin = nowNs();
  const cl_int status = enqueue(event);
  const std::uint64_t end = nowNs();
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  recordCommand(facts, status, status == CL_SUCCESS ? *event : nullptr, program_event != nullptr, begin, end);
  return status;
}

}  // namespace rooflab_capture
