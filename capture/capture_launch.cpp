// Kernel launches: each distinct configuration (program source and options, kernel, argument kinds
// and scalar values, local sizes, NDRange) is one launch, written once; the buffers its arguments
// name are saved just before its first instance runs and just after it finishes. Later instances
// are commands that name the launch.
#include "capture/capture_command.hpp"

using namespace rooflab_capture;

namespace {

struct LaunchShape {
  cl_uint work_dim = 1;
  std::vector<std::size_t> global, offset, local;  // local empty: the program passed NULL
};

std::string argumentsJson(const KernelState& kernel) {
  std::string out = "[";
  for (std::size_t i = 0; i < kernel.args.size(); ++i) {
    const ArgumentValue& a = kernel.args[i];
    out += std::string(i ? "," : "") + "{\"kind\":" + jsonQuoted(a.kind);
    if (a.mem != nullptr) out += ",\"buffer\":" + std::to_string(a.buffer_id);
    if (a.kind == "local" || a.kind == "scalar") out += ",\"bytes\":" + std::to_string(a.size_bytes);
    if (a.kind == "scalar") out += ",\"value\":\"" + hexBytes(a.bytes.data(), a.bytes.size()) + "\"";
    out += "}";
  }
  return out + "]";
}

// The configuration's identity: what makes two launches the same to the replay.
std::string launchKey(const KernelState& kernel, const ProgramState* program, const LaunchShape& shape) {
  std::string key = program != nullptr ? program->source_blob + "\n" + program->options : "?";
  key += "\n" + kernel.name + "\n" + std::to_string(shape.work_dim) +
         jsonNumbers(shape.global.data(), shape.global.size()) + jsonNumbers(shape.offset.data(), shape.offset.size()) +
         jsonNumbers(shape.local.data(), shape.local.size());
  for (const ArgumentValue& a : kernel.args) {
    key += "|" + a.kind + ":" + std::to_string(a.size_bytes) + ":" + hexBytes(a.bytes.data(), a.bytes.size());
    if (a.mem != nullptr) key += ":" + std::to_string(state().buffers[a.mem].bytes);
  }
  return key;
}

// Why the replay cannot reproduce this launch, or "".
std::string notReplayable(const KernelState& kernel, const ProgramState* program, cl_command_queue queue) {
  if (program == nullptr) return "its program was not made from source the capture saw";
  if (program->kind != "source") return "its program was made from a " + program->kind + " program";
  if (state().queues[queue].out_of_order) return "it ran on an out-of-order queue";
  for (std::size_t i = 0; i < kernel.args.size(); ++i) {
    const ArgumentValue& a = kernel.args[i];
    if (a.kind == "unset") return "argument " + std::to_string(i) + " was never set";
    if (a.kind == "buffer" && a.mem == nullptr)
      return "argument " + std::to_string(i) + " is a buffer the capture did not see made";
    if (a.kind != "buffer" && a.kind != "local" && a.kind != "scalar" && a.kind != "null-buffer")
      return "argument " + std::to_string(i) + " is a " + a.kind;
  }
  return "";
}

// A wait list that holds an unfinished user event would block the capture's own read forever.
bool waitsOnUserEvent(cl_uint count, const cl_event* events) {
  for (cl_uint i = 0; i < count; ++i) {
    cl_command_type type = 0;
    cl_int status = CL_COMPLETE;
    next.clGetEventInfo(events[i], CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    next.clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (type == CL_COMMAND_USER && status > CL_COMPLETE) return true;
  }
  return false;
}

// Reads every buffer argument once the wait list is done and saves its bytes under data/.
void saveBuffers(const KernelState& kernel, std::uint64_t launch_id, const char* when, cl_command_queue queue,
                 cl_uint wait_count, const cl_event* wait_list) {
  std::vector<const void*> saved;
  for (const ArgumentValue& a : kernel.args) {
    if (a.kind != "buffer" || a.mem == nullptr) continue;
    bool again = false;
    for (const void* s : saved) again = again || s == a.mem;
    if (again) continue;
    saved.push_back(a.mem);
    const std::size_t bytes = state().buffers[a.mem].bytes;
    std::vector<unsigned char> host(bytes);
    const cl_int status =
        next.clEnqueueReadBuffer(queue, a.mem, CL_TRUE, 0, bytes, host.data(), wait_count, wait_list, nullptr);
    JsonLine line("saved");
    line.number("launch", launch_id).number("buffer", a.buffer_id).text("when", when);
    const std::string name = status == CL_SUCCESS ? saveBlob(host.data(), bytes) : "";
    if (!name.empty()) line.raw("data", "{\"name\":" + jsonQuoted(name) + ",\"bytes\":" + std::to_string(bytes) + "}");
    else
      line.text("error", status != CL_SUCCESS ? "the read failed with OpenCL error " + std::to_string(status)
                                              : std::string("the data file could not be written"));
    writeLine(line.finish());
  }
}

// A new configuration's line; returns its id and whether its buffers are to be saved.
std::uint64_t newLaunch(const KernelState& kernel, const ProgramState* program, const LaunchShape& shape,
                        cl_command_queue queue, bool& save) {
  const std::uint64_t id = state().next_id++;
  const std::string why = notReplayable(kernel, program, queue);
  JsonLine line("launch");
  line.number("id", id)
      .number("kernel", kernel.id)
      .number("work_dim", shape.work_dim)
      .raw("global", jsonNumbers(shape.global.data(), shape.global.size()));
  if (!shape.offset.empty()) line.raw("offset", jsonNumbers(shape.offset.data(), shape.offset.size()));
  line.raw("local", shape.local.empty() ? "null" : jsonNumbers(shape.local.data(), shape.local.size()))
      .raw("args", argumentsJson(kernel));
  if (!why.empty()) line.text("not_replayable", why);
  writeLine(line.finish());
  save = why.empty();
  return id;
}

cl_int launch(const char* call, cl_command_queue queue, cl_kernel kernel, const LaunchShape& shape, cl_uint num_events,
              const cl_event* wait_list, cl_event* program_event) {
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  const auto k = state().kernels.find(kernel);
  std::uint64_t launch_id = 0;
  bool first = false, save = false;
  if (k != state().kernels.end()) {
    const auto p = state().programs.find(k->second.program);
    const ProgramState* program = p == state().programs.end() ? nullptr : &p->second;
    auto [entry, inserted] = state().launches.emplace(launchKey(k->second, program, shape), 0);
    if (inserted) entry->second = newLaunch(k->second, program, shape, queue, save);
    launch_id = entry->second;
    first = inserted;
    if (save && waitsOnUserEvent(num_events, wait_list)) {
      writeLine(JsonLine("saved")
                    .number("launch", launch_id)
                    .text("when", "before")
                    .text("error", "the launch waits on a user event")
                    .finish());
      save = false;
    }
    if (save) saveBuffers(k->second, launch_id, "before", queue, num_events, wait_list);
  }
  cl_event own = nullptr;
  cl_event* event = program_event != nullptr ? program_event : &own;
  const std::uint64_t begin = nowNs();
  const cl_int status = next.clEnqueueNDRangeKernel(
      queue, kernel, shape.work_dim, shape.offset.empty() ? nullptr : shape.offset.data(), shape.global.data(),
      shape.local.empty() ? nullptr : shape.local.data(), num_events, wait_list, event);
  const std::uint64_t end = nowNs();
  if (first && save && status == CL_SUCCESS) saveBuffers(k->second, launch_id, "after", queue, 1, event);
  CommandFacts facts{call, "kernel", queue, false, num_events};
  facts.launch_id = launch_id;
  recordCommand(facts, status, status == CL_SUCCESS ? *event : nullptr, program_event != nullptr, begin, end);
  return status;
}

}  // namespace

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                                         const size_t* offset, const size_t* global,
                                                         const size_t* local, cl_uint num_events,
                                                         const cl_event* wait_list, cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  if (work_dim < 1 || work_dim > 3 || global == nullptr)  // the program's own error, as the device would give it
    return next.clEnqueueNDRangeKernel(queue, kernel, work_dim, offset, global, local, num_events, wait_list, event);
  LaunchShape shape;
  shape.work_dim = work_dim;
  shape.global.assign(global, global + work_dim);
  if (offset != nullptr) shape.offset.assign(offset, offset + work_dim);
  if (local != nullptr) shape.local.assign(local, local + work_dim);
  return launch("clEnqueueNDRangeKernel", queue, kernel, shape, num_events, wait_list, event);
}

CAPTURE_EXPORT cl_int CL_API_CALL clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events,
                                                const cl_event* wait_list, cl_event* event) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  LaunchShape shape;
  shape.global = {1};
  shape.local = {1};
  return launch("clEnqueueTask", queue, kernel, shape, num_events, wait_list, event);
}
