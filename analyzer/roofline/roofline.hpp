#pragma once
// The roofline maths: a kernel's attainable rate and bound on one device model.
#include <optional>

#include "analyzer/data/device_model.hpp"
#include "analyzer/data/roofline.hpp"

namespace rooflab {

// The bandwidth roof of a level on a model: DRAM for the dram and global levels (the course's global
// memory is DRAM), l2_gbps for L2, local_gbps for local memory and for L1 (on NVIDIA since Kepler L1
// and shared memory are one SRAM behind one data path). nullopt when the model has no such figure.
std::optional<double> levelBandwidthGbps(const DeviceModel& model, MemoryLevel level);

RooflinePlacement placeOnRoofline(const DeviceModel& model, const RooflineInput& input);

}  // namespace rooflab
