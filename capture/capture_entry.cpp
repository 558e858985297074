// How the capture comes into the program: as a layer of the OpenCL loader (OPENCL_LAYERS, the
// default), which receives the next dispatch table and returns its own; or preloaded in front of
// the program's libOpenCL (LD_PRELOAD), whose exported cl* functions forward to the real loader.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

#include "capture/capture_state.hpp"

#include <CL/cl_layer.h>

// clang-format 14 takes X(a) X(b) for a call of a call's result, indents each line deeper than the
// one before, and gives another layout on every run: these lists keep the layout written here.
// clang-format off
// The functions the capture records (their definitions are in capture_*.cpp).
#define ROOFLAB_CAPTURED_CALLS(X)                                                                                \
  X(clCreateContext) X(clCreateContextFromType) X(clCreateCommandQueue) X(clCreateCommandQueueWithProperties) \
  X(clReleaseCommandQueue) X(clCreateBuffer) X(clCreateBufferWithProperties) X(clCreateSubBuffer)              \
  X(clCreateImage) X(clCreateImage2D) X(clCreateImage3D) X(clCreatePipe) X(clCreateFromGLBuffer) X(clSVMAlloc) \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clCreateProgramWithIL)                           \
  X(clCreateProgramWithBuiltInKernels) X(clBuildProgram) X(clCompileProgram) X(clCreateKernel)                 \
  X(clCreateKernelsInProgram) X(clSetKernelArg) X(clSetKernelArgSVMPointer) X(clEnqueueReadBuffer)             \
  X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer) X(clEnqueueMapBuffer)                  \
  X(clEnqueueUnmapMemObject) X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList) X(clFinish)        \
  X(clWaitForEvents) X(clEnqueueNDRangeKernel) X(clEnqueueTask) X(clGetPlatformIDs) X(clGetDeviceIDs)
// The functions the capture calls for itself.
#define ROOFLAB_CAPTURE_HELPERS(X)                                                                        \
  X(clGetDeviceInfo) X(clGetPlatformInfo) X(clGetContextInfo) X(clGetProgramInfo) X(clGetProgramBuildInfo) \
  X(clGetKernelInfo) X(clGetKernelArgInfo) X(clGetEventInfo) X(clGetEventProfilingInfo) X(clRetainEvent)   \
  X(clReleaseEvent)
// clang-format on

namespace rooflab_capture {
namespace {

bool g_layer_ready = false;
cl_icd_dispatch g_layer_table{};

void* realFunction(void* loader, const char* name) {
  void* function = ::dlsym(RTLD_NEXT, name);
  if (function == nullptr && loader != nullptr) function = ::dlsym(loader, name);
  return function;
}

bool fillFromLoader() {
  // A program that links libOpenCL has it next in the search order; one that dlopen()s it later
  // gets the system loader.
  void* loader =
      ::dlsym(RTLD_NEXT, "clGetPlatformIDs") == nullptr ? ::dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL) : nullptr;
#define ROOFLAB_FILL(name) next.name = reinterpret_cast<decltype(next.name)>(realFunction(loader, #name));
  ROOFLAB_CAPTURED_CALLS(ROOFLAB_FILL)
  ROOFLAB_CAPTURE_HELPERS(ROOFLAB_FILL)
#undef ROOFLAB_FILL
  if (next.clCreateContext == nullptr || next.clGetEventInfo == nullptr) {
    std::fprintf(stderr, "rooflab capture: no OpenCL loader found behind the preloaded capture library\n");
    return false;
  }
  return true;
}

}  // namespace

bool ensureNext() {
  if (g_layer_ready) return true;
  static const bool filled = [] {
    setMechanism("preload");
    return fillFromLoader();
  }();
  return filled;
}

}  // namespace rooflab_capture

using namespace rooflab_capture;

CAPTURE_EXPORT cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size, void* value, size_t* size_ret) {
  static const char kName[] = "rooflab capture";
  const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
  const void* source = name == CL_LAYER_API_VERSION ? static_cast<const void*>(&version) : kName;
  const std::size_t bytes = name == CL_LAYER_API_VERSION ? sizeof version : sizeof kName;
  if (name != CL_LAYER_API_VERSION && name != CL_LAYER_NAME) return CL_INVALID_VALUE;
  if (value != nullptr) {
    if (size < bytes) return CL_INVALID_VALUE;
    std::memcpy(value, source, bytes);
  }
  if (size_ret != nullptr) *size_ret = bytes;
  return CL_SUCCESS;
}

CAPTURE_EXPORT cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target,
                                              cl_uint* num_entries_ret, const cl_icd_dispatch** layer_dispatch_ret) {
  const std::size_t table_entries = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (target == nullptr || num_entries_ret == nullptr || layer_dispatch_ret == nullptr) return CL_INVALID_VALUE;
  // An older loader's table is shorter: the entries it lacks stay null, and the capture forwards
  // nothing through them.
  std::memcpy(&next, target, (num_entries < table_entries ? num_entries : table_entries) * sizeof(void*));
  g_layer_table = next;
#define ROOFLAB_OVERRIDE(name) g_layer_table.name = &::name;
  ROOFLAB_CAPTURED_CALLS(ROOFLAB_OVERRIDE)
#undef ROOFLAB_OVERRIDE
  setMechanism("layer");
  g_layer_ready = true;
  *num_entries_ret = static_cast<cl_uint>(table_entries);
  *layer_dispatch_ret = &g_layer_table;
  return CL_SUCCESS;
}
