#pragma once
// The devices a batch runs on: the one [run] device selects, or the several it lists, used as
// [run] device_mode says (compare: every point on each; shard: the points split over them).
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/device/device.hpp"

namespace rooflab {

struct BatchDevices {
  std::vector<SelectedDevice> devices;  // in the order listed; one unless `mode` is set
  std::optional<DeviceMode> mode;       // set when the list names several devices
};

// Selects every device of `run.device`. Throws InputError (exit 2, before any device work) for a
// device the list names twice (by two selectors or `all` and another) and, for shard, for devices
// that are not identical (name, platform, driver); DeviceError when a selector matches no device.
BatchDevices selectBatchDevices(const RunSettings& run);

// "0:0 NVIDIA H100 [NVIDIA CUDA]": a device as the terminal names it.
std::string deviceLine(const DeviceInfo& info);

}  // namespace rooflab
