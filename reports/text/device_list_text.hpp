#pragma once
// `rooflab devices`: each OpenCL device under its platform, with its limits and the datasheet model
// matched to it, in words.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/device_model.hpp"

namespace rooflab::reports {

struct ListedDevice {
  DeviceInfo info;
  std::optional<DeviceModel> model;  // the datasheet model matched to it, if any
};

// One block per device, a platform line before its first device.
std::string deviceListText(const std::vector<ListedDevice>& devices);

}  // namespace rooflab::reports
