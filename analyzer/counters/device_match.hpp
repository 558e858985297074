#pragma once
// Which CUDA device is the OpenCL device a worker runs: the bridge must count on that one. Two
// workers that both took CUDA device 0 lost records to CUPTI_ERROR_HARDWARE_BUSY while the second GPU
// counted nothing, so the match is by PCI location, and by name only where the name is unique.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/device_info.hpp"

namespace rooflab::counters {

// The OpenCL device as the bridge is told it: its name and, where the driver gives it, its PCI location.
struct BridgeDevice {
  std::string name;
  std::optional<PciLocation> pci;
};

// A CUDA device as the driver lists it, at its ordinal.
struct CudaDeviceIdentity {
  std::string name;
  std::optional<PciLocation> pci;
};

// The ordinal of the CUDA device that is `device`: the one at its PCI location; without a location,
// the only one of its name; without a name either, device 0. Otherwise nullopt, and `why` says
// which devices there were.
std::optional<int> matchCudaDevice(const BridgeDevice& device, const std::vector<CudaDeviceIdentity>& cuda,
                                   std::string& why);

}  // namespace rooflab::counters
