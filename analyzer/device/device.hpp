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

// A device selector: auto (first GPU, else CPU), gpu, cpu, "P:D", "pci:BUS" (the device at that PCI
// location, as parsePciLocation reads it), or a substring of the platform or device name
// (case-insensitive). Throws DeviceError when nothing matches.
SelectedDevice selectDevice(const std::string& selector);

// A list of selectors joined by commas (`cpu,gpu`, `0:0,0:1`), each as selectDevice takes it, or
// `all` (every device of every platform), in the order given. A device two selectors name is listed
// as often as they name it: the caller decides what that means. Throws DeviceError as selectDevice.
std::vector<SelectedDevice> selectDevices(const std::string& selectors);

// "P:D": a device's indices as `rooflab devices` lists them, and as a selector takes them.
std::string deviceKey(const DeviceInfo& info);

// The selector a worker process opens this very device by: "pci:" and its location when no other
// device has it, whatever order the worker's platforms come in (an ICD that fails in one process
// and not in another shifts the indices); else its P:D indices.
std::string workerDeviceSelector(const DeviceInfo& info);

}  // namespace rooflab
