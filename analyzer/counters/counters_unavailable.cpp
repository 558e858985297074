// The counters API of a rooflab built without the CUDA Toolkit: everything reports why it is
// unavailable. analyzer/counters/CMakeLists.txt builds it in place of the CUDA sources.
#include "analyzer/counters/counters.hpp"
#include "analyzer/data/device_info.hpp"

#include <stdexcept>

namespace rooflab::counters {
namespace {
constexpr const char* kNoCuda = "counters unavailable: rooflab was built without the CUDA Toolkit";
}

std::string bridgeUnavailableReason() { return kNoCuda; }

std::string countersUnavailableReason(const DeviceInfo& device) {
  if (!device.isNvidia()) return "not an NVIDIA device (vendor: " + device.vendor + ")";
  return kNoCuda;
}

CounterSet measureBridged(const std::string&, std::map<std::string, HostBuffer>&, const std::vector<BridgeLaunch>&, int,
                          const BridgeOptions&) {
  return unavailableMeasurement(kNoCuda);
}

void releaseKeptBridge() noexcept {}

void prefetchBridged(const std::string&, const std::vector<BridgeLaunch>&, const BridgeOptions&) {}

std::vector<KernelOccupancy> bridgedOccupancy(const std::string&, const std::vector<OccupancyQuery>&,
                                              const BridgeDevice&) {
  throw std::runtime_error(kNoCuda);
}

}  // namespace rooflab::counters
