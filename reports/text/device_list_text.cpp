#include "reports/text/device_list_text.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string deviceText(const ListedDevice& device) {
  const DeviceInfo& i = device.info;
  const std::string at = std::to_string(i.platform_index) + ":" + std::to_string(i.device_index);
  std::string text = "  " + at + "  " + i.name + "  [" + i.type + ", " + i.vendor + "]\n";
  text += "        " + i.opencl_version + ", driver " + i.driver_version + "\n";
  text += "        " + std::to_string(i.compute_units) + " compute units at " + std::to_string(i.clock_mhz) +
          " MHz; global memory " + formatFixedAsWritten(double(i.global_mem_bytes) / kGiB, 2) +
          " GiB (max allocation " + formatFixedAsWritten(double(i.max_alloc_bytes) / kGiB, 2) + " GiB); local memory " +
          std::to_string(i.local_mem_bytes / 1024) + " KiB\n";
  std::string sizes;
  for (std::size_t size : i.max_work_item_sizes) sizes += (sizes.empty() ? "" : "x") + std::to_string(size);
  text += "        max work-group " + std::to_string(i.max_work_group_size) + " (per dimension " + sizes +
          "); profiling timer resolution " + std::to_string(i.timer_resolution_ns) + " ns\n";
  if (i.pci_location)
    text += "        PCI " + toString(*i.pci_location) +
            " (the CUDA device at this location is the one its counters are read on)\n";
  if (const std::optional<DeviceModel>& model = device.model)
    text += "        device model: " + model->key + " (" + model->display_name +
            "): " + formatFixedAsWritten(model->peak_gflops, 0) + " GFLOP/s FP32, " +
            formatFixedAsWritten(model->dram_gbps, 1) + " GB/s DRAM\n";
  else
    text += "        device model: none in configs/devices; `rooflab run` measures one (`rooflab ceilings --device " +
            at + "` saves it)\n";
  return text;
}

}  // namespace

std::string deviceListText(const std::vector<ListedDevice>& devices) {
  std::string text;
  std::string platform;
  for (const ListedDevice& device : devices) {
    if (device.info.platform != platform) {
      platform = device.info.platform;
      text += "platform " + std::to_string(device.info.platform_index) + ": " + platform + "\n";
    }
    text += deviceText(device);
  }
  return text;
}

}  // namespace rooflab::reports
