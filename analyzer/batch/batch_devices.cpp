#include "analyzer/batch/batch_devices.hpp"

#include "analyzer/support/errors.hpp"

namespace rooflab {
namespace {

bool sameDevice(const DeviceInfo& a, const DeviceInfo& b) {
  return a.platform_index == b.platform_index && a.device_index == b.device_index;
}

bool identical(const DeviceInfo& a, const DeviceInfo& b) {
  return a.name == b.name && a.platform == b.platform && a.driver_version == b.driver_version;
}

}  // namespace

std::string deviceLine(const DeviceInfo& info) {
  return deviceKey(info) + " " + info.name + " [" + info.platform + "]";
}

BatchDevices selectBatchDevices(const RunSettings& run) {
  BatchDevices selected;
  selected.devices = selectDevices(run.device);
  if (selected.devices.size() == 1) return selected;
  selected.mode = run.device_mode;
  const std::string mode = toString(run.device_mode);
  const std::string list = "device list '" + run.device + "' (" + mode + ")";
  for (std::size_t i = 0; i < selected.devices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (sameDevice(selected.devices[i].info, selected.devices[j].info))
        throw InputError(list + ": " + deviceLine(selected.devices[i].info) + " is listed twice; " +
                         (run.device_mode == DeviceMode::compare ? "compare runs every point once on each device"
                                                                 : "shard gives each device one worker") +
                         ": list each device once (`rooflab devices` shows their P:D indices)");
  if (run.device_mode == DeviceMode::shard)
    for (const SelectedDevice& device : selected.devices)
      if (!identical(device.info, selected.devices.front().info))
        throw InputError(list + ": shard splits the points over identical devices, and " + deviceLine(device.info) +
                         " (driver " + device.info.driver_version + ") is not " +
                         deviceLine(selected.devices.front().info) + " (driver " +
                         selected.devices.front().info.driver_version +
                         "); device_mode = \"compare\" runs every point on each device");
  return selected;
}

}  // namespace rooflab
