#pragma once
// The PTX bridge's CUDA device and context (counters.hpp): which CUDA device stands for the OpenCL one,
// and its primary context, kept alive between measurements; BridgeError. Internal to the bridge_*.cpp
// files, which need the CUDA Toolkit's headers.
#include <stdexcept>
#include <string>

#include "analyzer/counters/cuda_driver.hpp"
#include "analyzer/counters/device_match.hpp"

namespace rooflab::counters::bridge_detail {

// A launch or argument the bridge cannot express; becomes the reason.
class BridgeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline const CudaDriver& driver() { return cudaDriver(); }

// The device's primary context, current on this thread for the lifetime of the object.
// Creating a CUDA context takes a fifth of a second on an H100, and every bridged measurement and
// occupancy query needs one: the first use of a device retains its primary context once more for the
// rest of the process, so later measurements find it alive. A measurement that fails in the driver
// resets it (resetPrimaryContexts), so a faulting kernel's sticky error does not outlive it.
class CurrentPrimaryContext {
 public:
  explicit CurrentPrimaryContext(CUdevice device);
  ~CurrentPrimaryContext();
  CurrentPrimaryContext(const CurrentPrimaryContext&) = delete;
  CurrentPrimaryContext& operator=(const CurrentPrimaryContext&) = delete;
  CUcontext get() const { return context_; }

 private:
  CUdevice device_;
  CUcontext context_ = nullptr;
};

void resetPrimaryContexts();

// The CUDA device that is the OpenCL device (device_match.hpp); throws BridgeError, saying which devices
// CUDA lists, when none is.
int chooseDeviceOrdinal(const BridgeDevice& device);

}  // namespace rooflab::counters::bridge_detail
