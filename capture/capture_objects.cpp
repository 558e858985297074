// The objects a program makes, recorded as it makes them: contexts, queues (with profiling switched
// on), buffers, and what the replay cannot reproduce (images, pipes, SVM, GL objects).
#include <cstring>

#include "capture/capture_state.hpp"

using namespace rooflab_capture;

namespace {

constexpr cl_context_properties kGlContextKeys[] = {0x2008 /*CL_GL_CONTEXT_KHR*/, 0x2009 /*EGL display*/,
                                                    0x200A /*GLX display*/, 0x200B /*WGL HDC*/, 0x200C /*CGL*/};

void recordContext(cl_context context, const cl_context_properties* properties, cl_uint devices, const char* call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  if (context == nullptr) return;
  const std::uint64_t id = state().next_id++;
  state().contexts[context] = id;
  writeLine(JsonLine("context").number("id", id).number("devices", devices).text("call", call).finish());
  if (devices > 1) noteUnsupported("multi-device context", call);
  for (const cl_context_properties* p = properties; p != nullptr && *p != 0; p += 2)
    for (const cl_context_properties key : kGlContextKeys)
      if (*p == key) noteUnsupported("GL sharing", call);
}

std::string deviceText(cl_device_id device, cl_device_info what) {
  char text[512] = {};
  if (next.clGetDeviceInfo(device, what, sizeof text - 1, text, nullptr) != CL_SUCCESS) return "";
  return text;
}

void nameDevice(cl_device_id device) {
  if (state().device_named) return;
  state().device_named = true;
  cl_platform_id platform = nullptr;
  char platform_name[512] = {};
  if (next.clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) == CL_SUCCESS)
    next.clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name - 1, platform_name, nullptr);
  writeLine(
      JsonLine("device").text("platform", platform_name).text("name", deviceText(device, CL_DEVICE_NAME)).finish());
}

cl_command_queue recordQueue(cl_command_queue queue, cl_context context, cl_device_id device,
                             cl_command_queue_properties asked, const char* call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  if (queue == nullptr) return queue;
  nameDevice(device);
  QueueState& q = state().queues[queue];
  q.id = state().next_id++;
  q.out_of_order = (asked & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  const auto found = state().contexts.find(context);
  writeLine(JsonLine("queue")
                .number("id", q.id)
                .number("context", found == state().contexts.end() ? 0 : found->second)
                .number("properties", asked)
                .flag("out_of_order", q.out_of_order)
                .finish());
  if (q.out_of_order) noteUnsupported("out-of-order queue", call);
  return queue;
}

cl_mem recordMemory(cl_mem mem, std::size_t bytes, cl_mem_flags flags, bool host_ptr, const char* unsupported,
                    std::uint64_t parent, const char* call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  if (mem == nullptr) return mem;
  BufferState& b = state().buffers[mem];
  b = BufferState{};
  b.id = state().next_id++;
  b.bytes = bytes;
  b.unsupported = unsupported;
  JsonLine line("buffer");
  line.number("id", b.id).number("bytes", bytes).number("flags", flags).flag("host_ptr", host_ptr);
  if (parent != 0) line.number("parent", parent);
  if (unsupported != nullptr) line.text("unsupported", unsupported);
  writeLine(line.text("call", call).finish());
  if (unsupported != nullptr) noteUnsupported(unsupported, call);
  return mem;
}

}  // namespace

CAPTURE_EXPORT cl_context CL_API_CALL clCreateContext(
    const cl_context_properties* properties, cl_uint num_devices, const cl_device_id* devices,
    void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* user_data, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_context context = next.clCreateContext(properties, num_devices, devices, notify, user_data, errcode_ret);
  recordContext(context, properties, num_devices, "clCreateContext");
  return context;
}

CAPTURE_EXPORT cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties* properties, cl_device_type type,
    void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* user_data, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_context context = next.clCreateContextFromType(properties, type, notify, user_data, errcode_ret);
  cl_uint devices = 0;
  if (context != nullptr) next.clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof devices, &devices, nullptr);
  recordContext(context, properties, devices, "clCreateContextFromType");
  return context;
}

CAPTURE_EXPORT cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                                 cl_command_queue_properties properties,
                                                                 cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  // Profiling on, so that every command's event has its times; the program's own flags stay.
  cl_command_queue queue =
      next.clCreateCommandQueue(context, device, properties | CL_QUEUE_PROFILING_ENABLE, errcode_ret);
  return recordQueue(queue, context, device, properties, "clCreateCommandQueue");
}

CAPTURE_EXPORT cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                               const cl_queue_properties* properties,
                                                                               cl_int* errcode_ret) {
  if (!ensureNext() || next.clCreateCommandQueueWithProperties == nullptr)
    return failWith(errcode_ret, CL_INVALID_OPERATION), nullptr;
  std::vector<cl_queue_properties> with_profiling;
  cl_command_queue_properties asked = 0;
  bool had_flags = false;
  for (const cl_queue_properties* p = properties; p != nullptr && *p != 0; p += 2) {
    with_profiling.push_back(p[0]);
    with_profiling.push_back(p[1]);
    if (p[0] == CL_QUEUE_PROPERTIES) {
      had_flags = true;
      asked = p[1];
      with_profiling.back() |= CL_QUEUE_PROFILING_ENABLE;
    }
  }
  if (!had_flags) with_profiling.insert(with_profiling.end(), {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE});
  with_profiling.push_back(0);
  cl_command_queue queue = next.clCreateCommandQueueWithProperties(context, device, with_profiling.data(), errcode_ret);
  return recordQueue(queue, context, device, asked, "clCreateCommandQueueWithProperties");
}

CAPTURE_EXPORT cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue) {
  if (!ensureNext()) return CL_INVALID_COMMAND_QUEUE;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    countCall();
    collectEventTimes(false);
  }
  return next.clReleaseCommandQueue(queue);
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                                 cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem = next.clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
  return recordMemory(mem, size, flags, host_ptr != nullptr, nullptr, 0, "clCreateBuffer");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                               cl_mem_flags flags, size_t size, void* host_ptr,
                                                               cl_int* errcode_ret) {
  if (!ensureNext() || next.clCreateBufferWithProperties == nullptr)
    return failWith(errcode_ret, CL_INVALID_OPERATION), nullptr;
  cl_mem mem = next.clCreateBufferWithProperties(context, properties, flags, size, host_ptr, errcode_ret);
  return recordMemory(mem, size, flags, host_ptr != nullptr, nullptr, 0, "clCreateBufferWithProperties");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                                    const void* info, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem = next.clCreateSubBuffer(buffer, flags, type, info, errcode_ret);
  std::uint64_t parent = 0;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    const auto found = state().buffers.find(buffer);
    if (found != state().buffers.end()) parent = found->second.id;
  }
  const std::size_t bytes = info != nullptr ? static_cast<const cl_buffer_region*>(info)->size : 0;
  return recordMemory(mem, bytes, flags, false, "sub-buffer", parent, "clCreateSubBuffer");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                                                const cl_image_desc* desc, void* host_ptr, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem = next.clCreateImage(context, flags, format, desc, host_ptr, errcode_ret);
  return recordMemory(mem, 0, flags, host_ptr != nullptr, "image", 0, "clCreateImage");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                                                  size_t width, size_t height, size_t row_pitch, void* host_ptr,
                                                  cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem = next.clCreateImage2D(context, flags, format, width, height, row_pitch, host_ptr, errcode_ret);
  return recordMemory(mem, 0, flags, host_ptr != nullptr, "image", 0, "clCreateImage2D");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                                                  size_t width, size_t height, size_t depth, size_t row_pitch,
                                                  size_t slice_pitch, void* host_ptr, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem =
      next.clCreateImage3D(context, flags, format, width, height, depth, row_pitch, slice_pitch, host_ptr, errcode_ret);
  return recordMemory(mem, 0, flags, host_ptr != nullptr, "image", 0, "clCreateImage3D");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint packet_size,
                                               cl_uint max_packets, const cl_pipe_properties* properties,
                                               cl_int* errcode_ret) {
  if (!ensureNext() || next.clCreatePipe == nullptr) return failWith(errcode_ret, CL_INVALID_OPERATION), nullptr;
  cl_mem mem = next.clCreatePipe(context, flags, packet_size, max_packets, properties, errcode_ret);
  return recordMemory(mem, 0, flags, false, "pipe", 0, "clCreatePipe");
}

CAPTURE_EXPORT cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint object,
                                                       cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_mem mem = next.clCreateFromGLBuffer(context, flags, object, errcode_ret);
  return recordMemory(mem, 0, flags, false, "GL sharing", 0, "clCreateFromGLBuffer");
}

CAPTURE_EXPORT void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                            cl_uint alignment) {
  if (!ensureNext() || next.clSVMAlloc == nullptr) return nullptr;
  void* pointer = next.clSVMAlloc(context, flags, size, alignment);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  noteUnsupported("svm", "clSVMAlloc");
  return pointer;
}

// Counted only: a program that stops after asking for platforms or devices still shows its
// OpenCL calls were seen.
CAPTURE_EXPORT cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                   cl_uint* num_platforms) {
  if (!ensureNext()) return CL_OUT_OF_HOST_MEMORY;
  const cl_int status = next.clGetPlatformIDs(num_entries, platforms, num_platforms);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  return status;
}

CAPTURE_EXPORT cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                                 cl_device_id* devices, cl_uint* num_devices) {
  if (!ensureNext()) return CL_OUT_OF_HOST_MEMORY;
  const cl_int status = next.clGetDeviceIDs(platform, type, num_entries, devices, num_devices);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  return status;
}
