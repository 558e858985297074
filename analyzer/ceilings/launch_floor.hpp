#pragma once
// The launch floor: the device time of a kernel that does nothing, from its profiling event. No kernel
// runs faster, so at small sizes a kernel's rate cannot exceed its work over this time: the floor the
// rate-versus-size chart draws under every family (reports/chart/rate_vs_size_chart.hpp).
#include <optional>

#include "analyzer/device/device.hpp"

namespace rooflab {

// The median start-to-end time of an empty kernel over a few dozen launches, in ns; nullopt (never an
// error) when it cannot be measured.
std::optional<double> measureLaunchFloorNs(const SelectedDevice& device);

}  // namespace rooflab
