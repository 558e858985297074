#pragma once
// A batch's identity: what makes the parts `rooflab merge` joins parts of one batch.
#include <string>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/batch_plan.hpp"

namespace rooflab {

// 16 hexadecimal digits of a 64-bit FNV-1a hash of the plan as the worker receives it (every point
// as resolved: families, source paths, sizes, geometry, build options) and of the run settings that
// shape a measurement (repetitions, noise target, counters, ceilings, reference model, seed). The
// output folder, the formats and the device list are not part of it: parts run into folders of their
// own, on devices a merge compares apart.
std::string batchIdentity(const BatchPlan& plan, const RunSettings& run);

}  // namespace rooflab
