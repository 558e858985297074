#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

// Where a device sits on the PCI bus: what tells two GPUs of the same name apart, and names the same
// GPU to OpenCL and CUDA, whatever order each lists its devices in.
struct PciLocation {
  std::uint32_t domain = 0;
  std::uint32_t bus = 0;
  std::uint32_t device = 0;
  bool operator==(const PciLocation& o) const { return domain == o.domain && bus == o.bus && device == o.device; }
};
std::string toString(const PciLocation& location);  // "0000:1b:00", as nvidia-smi writes a bus id
// "0000:1b:00", "1b:00" (domain 0) or nvidia-smi's "00000000:1B:00.0" (hexadecimal, any case; the
// function after the dot is ignored); nullopt for anything else.
std::optional<PciLocation> parsePciLocation(const std::string& text);

// What rooflab records about an OpenCL device (also written to results JSON).
struct DeviceInfo {
  int platform_index = 0;
  int device_index = 0;
  std::string platform;
  std::string name;
  std::string vendor;
  std::string type;  // GPU, CPU, ACCELERATOR, OTHER
  std::string opencl_version;
  std::string driver_version;
  std::uint32_t compute_units = 0;
  std::uint32_t clock_mhz = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t local_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;
  std::size_t max_work_group_size = 0;
  std::vector<std::size_t> max_work_item_sizes;
  std::uint64_t timer_resolution_ns = 0;
  std::uint64_t global_mem_cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; 0: unknown (older results)
  // NVIDIA's OpenCL gives it (cl_nv_device_attribute_query); not written to results: the counters'
  // bridge reads it in the process that runs the device.
  std::optional<PciLocation> pci_location;

  bool isNvidia() const;
  bool isGpu() const { return type == "GPU"; }
};

}  // namespace rooflab
