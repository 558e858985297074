#include "analyzer/device/device.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/memory_limit.hpp"
#include "analyzer/support/suggestion.hpp"

namespace rooflab {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// NVIDIA's cl_nv_device_attribute_query: the device's PCI bus, device ("slot") and domain numbers.
constexpr cl_device_info kPciBusIdNv = 0x4008, kPciSlotIdNv = 0x4009, kPciDomainIdNv = 0x400A;

std::optional<PciLocation> pciLocation(const cl::Device& device) {
  if (device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_device_attribute_query") == std::string::npos)
    return std::nullopt;
  cl_uint bus = 0, slot = 0, domain = 0;
  if (clGetDeviceInfo(device(), kPciBusIdNv, sizeof bus, &bus, nullptr) != CL_SUCCESS ||
      clGetDeviceInfo(device(), kPciSlotIdNv, sizeof slot, &slot, nullptr) != CL_SUCCESS)
    return std::nullopt;
  // Older drivers know bus and slot only: the domain is then 0, as on most machines.
  if (clGetDeviceInfo(device(), kPciDomainIdNv, sizeof domain, &domain, nullptr) != CL_SUCCESS) domain = 0;
  return PciLocation{domain, bus, slot};
}

std::string typeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  return "OTHER";
}

// CLHPP strings may carry the terminating NUL; trim it and trailing blanks.
std::string clean(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

DeviceInfo describe(const cl::Platform& platform, const cl::Device& device, int p, int d) {
  DeviceInfo info;
  info.platform_index = p;
  info.device_index = d;
  info.platform = clean(platform.getInfo<CL_PLATFORM_NAME>());
  info.name = clean(device.getInfo<CL_DEVICE_NAME>());
  info.vendor = clean(device.getInfo<CL_DEVICE_VENDOR>());
  info.type = typeName(device.getInfo<CL_DEVICE_TYPE>());
  info.opencl_version = clean(device.getInfo<CL_DEVICE_VERSION>());
  info.driver_version = clean(device.getInfo<CL_DRIVER_VERSION>());
  info.compute_units = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  info.clock_mhz = device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
  info.global_mem_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  info.local_mem_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  info.max_alloc_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  info.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  info.max_work_item_sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  info.timer_resolution_ns = device.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>();
  info.global_mem_cache_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
  info.pci_location = pciLocation(device);
  return info;
}

}  // namespace

std::string toString(const PciLocation& location) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x", location.domain, location.bus, location.device);
  return text;
}

std::optional<PciLocation> parsePciLocation(const std::string& text) {
  std::vector<std::uint32_t> fields;
  const std::string location = text.substr(0, text.find('.'));
  for (std::size_t start = 0;;) {
    const std::size_t colon = location.find(':', start);
    const std::string field = location.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, 16);
    if (field.empty() || field.size() > 8 || error != std::errc() || end != field.data() + field.size())
      return std::nullopt;
    fields.push_back(value);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (fields.size() == 2) fields.insert(fields.begin(), 0);
  if (fields.size() != 3) return std::nullopt;
  return PciLocation{fields[0], fields[1], fields[2]};
}

bool DeviceInfo::isNvidia() const {
  return lower(vendor).find("nvidia") != std::string::npos || lower(platform).find("nvidia") != std::string::npos;
}

std::vector<SelectedDevice> discoverDevices() {
  std::vector<SelectedDevice> found;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return found;  // CL_PLATFORM_NOT_FOUND_KHR: no ICD registered
  }
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      try {
        found.push_back({describe(platforms[p], devices[d], int(p), int(d)), platforms[p], devices[d]});
      } catch (const cl::Error&) {
      }
    }
  }
  return found;
}

namespace {

// What a selector that matches nothing gets: the nearest keyword, platform or device name (or a word
// of one, as selectors match parts of names) and the devices there are.
std::string unmatchedSelector(const std::string& selector, const std::vector<SelectedDevice>& all) {
  std::vector<std::string> candidates = {"auto", "gpu", "cpu"};
  std::string available;
  for (const auto& dev : all) {
    for (const std::string* name : {&dev.info.name, &dev.info.platform}) {
      candidates.push_back(*name);
      std::string word;
      for (char c : *name + " ") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
          word += c;
        } else {
          if (word.size() >= 3) candidates.push_back(word);
          word.clear();
        }
      }
    }
    available += (available.empty() ? "" : ", ") + std::to_string(dev.info.platform_index) + ":" +
                 std::to_string(dev.info.device_index) + " " + dev.info.name + " [" + dev.info.platform + "]";
  }
  return "device selector '" + selector + "' matches no platform or device name" + didYouMean(selector, candidates) +
         "; devices: " + available + " (see `rooflab devices`)";
}

}  // namespace

SelectedDevice selectDevice(const std::string& selector) {
  std::vector<SelectedDevice> all = discoverDevices();
  if (all.empty()) {
    // Under an address-space limit an installed driver can fail to load: say so rather than blame
    // the installation alone.
    if (const auto limit = addressSpaceLimitBytes())
      throw DeviceError("no OpenCL device found: this process may use at most " + std::to_string(*limit >> 20) +
                        " MiB of address space (ulimit -v), and an OpenCL driver may not load within it; raise the "
                        "limit, or check that an ICD such as pocl-opencl-icd is installed");
    throw DeviceError("no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)");
  }
  const std::string sel = lower(selector.empty() ? "auto" : selector);
  auto firstOfType = [&](const char* type) -> const SelectedDevice* {
    for (const auto& d : all)
      if (d.info.type == type) return &d;
    return nullptr;
  };
  if (sel == "auto") {
    if (auto* gpu = firstOfType("GPU")) return *gpu;
    if (auto* cpu = firstOfType("CPU")) return *cpu;
    return all.front();
  }
  if (sel == "gpu" || sel == "cpu") {
    if (auto* d = firstOfType(sel == "gpu" ? "GPU" : "CPU")) return *d;
    throw DeviceError("device selector '" + selector + "': no " + (sel == "gpu" ? "GPU" : "CPU") + " device among " +
                      std::to_string(all.size()) + " found (see `rooflab devices`)");
  }
  if (sel.find(':') != std::string::npos && std::all_of(sel.begin(), sel.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == ':';
      })) {
    // Exactly two indices: "0:", ":1", "0:0:0" and indices beyond int are errors, not guesses.
    int p = -1, d = -1;
    const char* begin = sel.data();
    const char* end = sel.data() + sel.size();
    auto [after_p, ec_p] = std::from_chars(begin, end, p);
    bool ok = ec_p == std::errc() && after_p < end && *after_p == ':';
    if (ok) {
      auto [after_d, ec_d] = std::from_chars(after_p + 1, end, d);
      ok = ec_d == std::errc() && after_d == end && after_p + 1 != end;
    }
    if (!ok)
      throw DeviceError("device selector '" + selector + "': expected P:D with two indices (see `rooflab devices`)");
    for (const auto& dev : all)
      if (dev.info.platform_index == p && dev.info.device_index == d) return dev;
    throw DeviceError("device selector '" + selector + "': no device " + std::to_string(d) + " on platform " +
                      std::to_string(p) + " (see `rooflab devices`)");
  }
  if (sel.rfind("pci:", 0) == 0) {
    const std::optional<PciLocation> location = parsePciLocation(sel.substr(4));
    if (!location)
      throw DeviceError("device selector '" + selector +
                        "': expected pci: and a PCI location such as 0000:1b:00 (see `rooflab devices`)");
    for (const auto& dev : all)
      if (dev.info.pci_location && *dev.info.pci_location == *location) return dev;
    throw DeviceError("device selector '" + selector + "': no device at PCI " + toString(*location) +
                      " (see `rooflab devices`, which gives each GPU's)");
  }
  for (const auto& dev : all)
    if (lower(dev.info.name).find(sel) != std::string::npos || lower(dev.info.platform).find(sel) != std::string::npos)
      return dev;
  throw DeviceError(unmatchedSelector(selector, all));
}

std::vector<SelectedDevice> selectDevices(const std::string& selectors) {
  std::vector<SelectedDevice> selected;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = selectors.find(',', start);
    std::string one = selectors.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    one.erase(0, one.find_first_not_of(" \t"));
    one.erase(one.find_last_not_of(" \t") + 1);
    if (lower(one) == "all") {
      const std::vector<SelectedDevice> all = discoverDevices();
      if (all.empty()) selectDevice("auto");  // the error that says why there is none
      selected.insert(selected.end(), all.begin(), all.end());
    } else if (!one.empty() || selectors.find(',') == std::string::npos) {
      selected.push_back(selectDevice(one));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (selected.empty())
    throw DeviceError("device selector '" + selectors + "' names no device (see `rooflab devices`)");
  return selected;
}

std::string deviceKey(const DeviceInfo& info) {
  return std::to_string(info.platform_index) + ":" + std::to_string(info.device_index);
}

std::string workerDeviceSelector(const DeviceInfo& info) {
  if (!info.pci_location) return deviceKey(info);
  std::size_t at_location = 0;
  for (const SelectedDevice& dev : discoverDevices())
    if (dev.info.pci_location && *dev.info.pci_location == *info.pci_location) ++at_location;
  return at_location == 1 ? "pci:" + toString(*info.pci_location) : deviceKey(info);
}

}  // namespace rooflab
