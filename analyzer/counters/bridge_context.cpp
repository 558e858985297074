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

int chooseDeviceOrdinal(const BridgeDevice& device) {
  std::vector<CudaDeviceIdentity> cuda;
  for (int ordinal = 0; ordinal < driver().device_count; ++ordinal) {
    CudaDeviceIdentity identity;
    CUdevice handle = 0;
    char name[256] = {};
    if (driver().deviceGet(&handle, ordinal) == CUDA_SUCCESS) {
      if (driver().deviceGetName(name, sizeof name, handle) == CUDA_SUCCESS) identity.name = name;
      int domain = 0, bus = 0, slot = 0;
      if (driver().deviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, handle) == CUDA_SUCCESS &&
          driver().deviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, handle) == CUDA_SUCCESS &&
          driver().deviceGetAttribute(&slot, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, handle) == CUDA_SUCCESS)
        identity.pci = PciLocation{std::uint32_t(domain), std::uint32_t(bus), std::uint32_t(slot)};
    }
    cuda.push_back(identity);
  }
  std::string why;
  if (const std::optional<int> ordinal = matchCudaDevice(device, cuda, why)) return *ordinal;
  throw BridgeError("which CUDA device runs " + device.name + ": " + why);
}

}  // namespace bridge_detail

std::string bridgeUnavailableReason() { return cudaDriver().unavailable_reason; }

std::string countersUnavailableReason(const DeviceInfo& device) {
  if (!device.isNvidia()) return "not an NVIDIA device (vendor: " + device.vendor + ")";
  if (!cudaDriver().usable()) return cudaDriver().unavailable_reason;
  return cuptiLibrary().unavailable_reason;
}

}  // namespace rooflab::counters
