#pragma once
// libcuda, opened at run time. rooflab must start on machines without an NVIDIA driver (there is no
// libcuda.so.1 there, and the toolkit's stubs/libcuda.so is for linking only), so nothing links
// against libcuda: cuda.h gives the types, dlopen/dlsym give the functions.
#include <cuda.h>

#include <stdexcept>
#include <string>

namespace rooflab::counters {

struct CudaDriver {
  std::string unavailable_reason;  // "" when every function loaded, cuInit succeeded and a device exists
  int driver_version = 0;          // cuDriverGetVersion, e.g. 13000
  int device_count = 0;

  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driverGetVersion = nullptr;
  decltype(&::cuGetErrorName) getErrorName = nullptr;
  decltype(&::cuGetErrorString) getErrorString = nullptr;
  decltype(&::cuDeviceGetCount) deviceGetCount = nullptr;
  decltype(&::cuDeviceGet) deviceGet = nullptr;
  decltype(&::cuDeviceGetName) deviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) deviceGetAttribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primaryCtxRelease = nullptr;
  decltype(&::cuDevicePrimaryCtxReset) primaryCtxReset = nullptr;
  decltype(&::cuCtxPushCurrent) ctxPushCurrent = nullptr;
  decltype(&::cuCtxPopCurrent) ctxPopCurrent = nullptr;
  decltype(&::cuCtxSynchronize) ctxSynchronize = nullptr;
  decltype(&::cuMemAlloc) memAlloc = nullptr;
  decltype(&::cuMemFree) memFree = nullptr;
  decltype(&::cuMemcpyHtoD) memcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) memcpyDtoH = nullptr;
  decltype(&::cuMemcpyDtoD) memcpyDtoD = nullptr;
  decltype(&::cuMemsetD8) memsetD8 = nullptr;
  decltype(&::cuModuleLoadDataEx) moduleLoadDataEx = nullptr;
  decltype(&::cuModuleUnload) moduleUnload = nullptr;
  decltype(&::cuLinkCreate) linkCreate = nullptr;
  decltype(&::cuLinkAddData) linkAddData = nullptr;
  decltype(&::cuLinkComplete) linkComplete = nullptr;
  decltype(&::cuLinkDestroy) linkDestroy = nullptr;
  decltype(&::cuModuleGetFunction) moduleGetFunction = nullptr;
  decltype(&::cuFuncGetAttribute) funcGetAttribute = nullptr;
  decltype(&::cuFuncSetAttribute) funcSetAttribute = nullptr;
  decltype(&::cuLaunchKernel) launchKernel = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancyMaxActiveBlocksPerMultiprocessor = nullptr;
  decltype(&::cuEventCreate) eventCreate = nullptr;
  decltype(&::cuEventRecord) eventRecord = nullptr;
  decltype(&::cuEventSynchronize) eventSynchronize = nullptr;
  decltype(&::cuEventElapsedTime) eventElapsedTime = nullptr;
  decltype(&::cuEventDestroy) eventDestroy = nullptr;

  bool usable() const { return unavailable_reason.empty(); }
  // "CUDA_ERROR_INVALID_PTX (218): a PTX JIT compilation failed".
  std::string errorText(CUresult result) const;
};

// Loaded (and cuInit called) once, on first use; never unloaded.
const CudaDriver& cudaDriver();

// A failed driver call; the bridge turns it into a reason.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws CudaError("<call>: <errorText>") unless result is CUDA_SUCCESS.
void checkCuda(CUresult result, const std::string& call);

}  // namespace rooflab::counters
