#include "analyzer/counters/device_match.hpp"

namespace rooflab::counters {
namespace {

std::string listed(const std::vector<CudaDeviceIdentity>& cuda) {
  std::string text;
  for (std::size_t i = 0; i < cuda.size(); ++i)
    text += (i ? ", " : "") + std::to_string(i) + " " + cuda[i].name +
            (cuda[i].pci ? " at " + toString(*cuda[i].pci) : std::string(" (no PCI location)"));
  return text.empty() ? "none" : text;
}

}  // namespace

std::optional<int> matchCudaDevice(const BridgeDevice& device, const std::vector<CudaDeviceIdentity>& cuda,
                                   std::string& why) {
  if (device.pci) {
    for (std::size_t i = 0; i < cuda.size(); ++i)
      if (cuda[i].pci && *cuda[i].pci == *device.pci) return static_cast<int>(i);
    why = "no CUDA device is at the OpenCL device's PCI location " + toString(*device.pci) +
          " (CUDA lists: " + listed(cuda) + ")";
    return std::nullopt;
  }
  if (device.name.empty()) {
    if (!cuda.empty()) return 0;
    why = "no CUDA device";
    return std::nullopt;
  }
  std::optional<int> found;
  int named = 0;
  for (std::size_t i = 0; i < cuda.size(); ++i)
    if (cuda[i].name == device.name) {
      ++named;
      if (!found) found = static_cast<int>(i);
    }
  if (named == 1) return found;
  why = named == 0
            ? "no CUDA device is named " + device.name + " (CUDA lists: " + listed(cuda) + ")"
            : std::to_string(named) + " CUDA devices are named " + device.name +
                  " and the OpenCL driver gave no PCI location to tell which one runs this device (CUDA lists: " +
                  listed(cuda) + ")";
  return std::nullopt;
}

}  // namespace rooflab::counters
