#pragma once
// Planning a batch: the points a config expands to, each resolved once, and the input problems found
// while expanding it.
#include "analyzer/config/config.hpp"
#include "analyzer/data/batch_plan.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"

namespace rooflab {

// Expands the config's studies, resolving each point once; never touches a device.
BatchPlan planBatch(const BatchConfig& config);

}  // namespace rooflab
