#include "analyzer/counters/cuda_driver.hpp"

#include <dlfcn.h>

#include <initializer_list>
#include <stdexcept>

namespace rooflab::counters {
namespace {

// The first of `names` the library exports (versioned names first: cuda.h maps cuMemAlloc to
// cuMemAlloc_v2 and so on, and dlsym sees only the exported names).
template <class Fn>
void loadSymbol(void* library, Fn& fn, std::initializer_list<const char*> names, std::string& missing) {
  for (const char* name : names) {
    if (void* symbol = dlsym(library, name)) {
      fn = reinterpret_cast<Fn>(symbol);
      return;
    }
  }
  missing += (missing.empty() ? "" : ", ") + std::string(*names.begin());
}

CudaDriver loadDriver() {
  CudaDriver d;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    const char* error = dlerror();
    d.unavailable_reason =
        std::string("cannot load libcuda.so.1 (is the NVIDIA driver installed?): ") + (error ? error : "unknown error");
    return d;
  }
  std::string missing;
  loadSymbol(library, d.init, {"cuInit"}, missing);
  loadSymbol(library, d.driverGetVersion, {"cuDriverGetVersion"}, missing);
  loadSymbol(library, d.getErrorName, {"cuGetErrorName"}, missing);
  loadSymbol(library, d.getErrorString, {"cuGetErrorString"}, missing);
  loadSymbol(library, d.deviceGetCount, {"cuDeviceGetCount"}, missing);
  loadSymbol(library, d.deviceGet, {"cuDeviceGet"}, missing);
  loadSymbol(library, d.deviceGetName, {"cuDeviceGetName"}, missing);
  loadSymbol(library, d.deviceGetAttribute, {"cuDeviceGetAttribute"}, missing);
  loadSymbol(library, d.primaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, missing);
  loadSymbol(library, d.primaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}, missing);
  loadSymbol(library, d.primaryCtxReset, {"cuDevicePrimaryCtxReset_v2", "cuDevicePrimaryCtxReset"}, missing);
  loadSymbol(library, d.ctxPushCurrent, {"cuCtxPushCurrent_v2"}, missing);
  loadSymbol(library, d.ctxPopCurrent, {"cuCtxPopCurrent_v2"}, missing);
  loadSymbol(library, d.ctxSynchronize, {"cuCtxSynchronize"}, missing);
  loadSymbol(library, d.memAlloc, {"cuMemAlloc_v2"}, missing);
  loadSymbol(library, d.memFree, {"cuMemFree_v2"}, missing);
  loadSymbol(library, d.memcpyHtoD, {"cuMemcpyHtoD_v2"}, missing);
  loadSymbol(library, d.memcpyDtoH, {"cuMemcpyDtoH_v2"}, missing);
  loadSymbol(library, d.memcpyDtoD, {"cuMemcpyDtoD_v2"}, missing);
  loadSymbol(library, d.memsetD8, {"cuMemsetD8_v2"}, missing);
  loadSymbol(library, d.moduleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
  loadSymbol(library, d.moduleUnload, {"cuModuleUnload"}, missing);
  loadSymbol(library, d.linkCreate, {"cuLinkCreate_v2", "cuLinkCreate"}, missing);
  loadSymbol(library, d.linkAddData, {"cuLinkAddData_v2", "cuLinkAddData"}, missing);
  loadSymbol(library, d.linkComplete, {"cuLinkComplete"}, missing);
  loadSymbol(library, d.linkDestroy, {"cuLinkDestroy"}, missing);
  loadSymbol(library, d.moduleGetFunction, {"cuModuleGetFunction"}, missing);
  loadSymbol(library, d.funcGetAttribute, {"cuFuncGetAttribute"}, missing);
  loadSymbol(library, d.funcSetAttribute, {"cuFuncSetAttribute"}, missing);
  loadSymbol(library, d.launchKernel, {"cuLaunchKernel"}, missing);
  loadSymbol(library, d.occupancyMaxActiveBlocksPerMultiprocessor, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"},
             missing);
  loadSymbol(library, d.eventCreate, {"cuEventCreate"}, missing);
  loadSymbol(library, d.eventRecord, {"cuEventRecord"}, missing);
  loadSymbol(library, d.eventSynchronize, {"cuEventSynchronize"}, missing);
  loadSymbol(library, d.eventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  loadSymbol(library, d.eventDestroy, {"cuEventDestroy_v2"}, missing);
  if (!missing.empty()) {
    d.unavailable_reason = "libcuda.so.1 lacks " + missing + " (NVIDIA driver too old?)";
    return d;
  }

  const CUresult init = d.init(0);
  if (init == CUDA_ERROR_STUB_LIBRARY) {
    d.unavailable_reason = "libcuda.so.1 is the CUDA Toolkit's link stub, not an NVIDIA driver";
    return d;
  }
  if (init != CUDA_SUCCESS) {
    d.unavailable_reason = "cuInit failed: " + d.errorText(init);
    return d;
  }
  d.driverGetVersion(&d.driver_version);
  if (const CUresult count = d.deviceGetCount(&d.device_count); count != CUDA_SUCCESS) {
    d.unavailable_reason = "cuDeviceGetCount failed: " + d.errorText(count);
  } else if (d.device_count == 0) {
    d.unavailable_reason = "no CUDA device";
  }
  return d;
}

}  // namespace

std::string CudaDriver::errorText(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (getErrorName) getErrorName(result, &name);
  if (getErrorString) getErrorString(result, &text);
  std::string out = name ? name : "CUDA error";
  out += " (" + std::to_string(static_cast<int>(result)) + ")";
  if (text) out += std::string(": ") + text;
  return out;
}

const CudaDriver& cudaDriver() {
  static const CudaDriver driver = loadDriver();
  return driver;
}

void checkCuda(CUresult result, const std::string& call) {
  if (result != CUDA_SUCCESS) throw CudaError(call + ": " + cudaDriver().errorText(result));
}

}  // namespace rooflab::counters
