#pragma once
#include <vector>

#include "analyzer/support/cl.hpp"
#include "analyzer/data/device_info.hpp"

namespace rooflab {

struct SelectedDevice {
  DeviceInfo info;
  cl::Platform platform;
  cl::Device device;
};

// Every device of every platform; platforms that fail to answer are skipped, not fatal.
std::vector<SelectedDevice> discoverDevices();

// SEL of DESIGN.md: auto (first GPU, else CPU), gpu, cpu, "P:D", or a substring of the platform or
// device name (case-insensitive). Throws DeviceError when nothing matches.
SelectedDevice selectDevice(const std::string& selector);

}  // namespace rooflab
