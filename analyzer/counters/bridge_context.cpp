#include "analyzer/counters/bridge_context.hpp"

#include "analyzer/counters/bridge_cache.hpp"

#include <set>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/cupti_library.hpp"
#include "analyzer/data/device_info.hpp"

namespace rooflab::counters {
namespace bridge_detail {
namespace {

std::set<CUdevice>& keptContexts() {
  static std::set<CUdevice> kept;
  return kept;
}

}  // namespace

void resetPrimaryContexts() {
  // What the bridge keeps belongs to the contexts: it goes first, while they still exist.
  dropBridgeCaches();
  for (const CUdevice device : keptContexts())
    if (driver().primaryCtxReset) driver().primaryCtxReset(device);
}

CurrentPrimaryContext::CurrentPrimaryContext(CUdevice device) : device_(device) {
  if (!keptContexts().count(device_)) {
    CUcontext kept = nullptr;
    if (driver().primaryCtxRetain(&kept, device_) == CUDA_SUCCESS) keptContexts().insert(device_);
  }
  checkCuda(driver().primaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
  if (const CUresult r = driver().ctxPushCurrent(context_); r != CUDA_SUCCESS) {
    driver().primaryCtxRelease(device_);
    checkCuda(r, "cuCtxPushCurrent");
  }
}

CurrentPrimaryContext::~CurrentPrimaryContext() {
  CUcontext popped = nullptr;
  driver().ctxPopCurrent(&popped);
  // The context stays alive (keptContexts); a failed measurement resets it.
  driver().primaryCtxRelease(device_);
}

int chooseDeviceOrdinal(const std::string& name) {
  for (int ordinal = 0; !name.empty() && ordinal < driver().device_count; ++ordinal) {
    CUdevice device = 0;
    char device_name[256] = {};
    if (driver().deviceGet(&device, ordinal) != CUDA_SUCCESS) continue;
    if (driver().deviceGetName(device_name, sizeof device_name, device) != CUDA_SUCCESS) continue;
    if (name == device_name) return ordinal;
  }
  return 0;
}

}  // namespace bridge_detail

std::string bridgeUnavailableReason() { return cudaDriver().unavailable_reason; }

std::string countersUnavailableReason(const DeviceInfo& device) {
  if (!device.isNvidia()) return "not an NVIDIA device (vendor: " + device.vendor + ")";
  if (!cudaDriver().usable()) return cudaDriver().unavailable_reason;
  return cuptiLibrary().unavailable_reason;
}

}  // namespace rooflab::counters
