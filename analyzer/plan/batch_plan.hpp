#pragma once
// Planning a batch: the points a config expands to, each resolved once, and the input problems found
// while expanding it.
#include "analyzer/config/config.hpp"
#include "analyzer/data/batch_plan.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/plan/size_rules.hpp"

namespace rooflab {

// Expands the config's studies, resolving each point once; never touches a device. A param given as
// a size rule runs at its family default here; the rule itself is checked (sizeRuleProblem).
BatchPlan planBatch(const BatchConfig& config);

// Whether a study gives a param as a size rule: the plan then needs the device (chooseSizes).
bool hasSizeRules(const BatchConfig& config);
// Every size rule's value on this device (config's --set values win over rules), for a config whose
// plan had no input error. Throws InputError when a rule cannot be met on this device.
std::vector<SizeChoice> chooseSizes(const BatchConfig& config, const BatchPlan& plan, const SizeDevice& device);
// The config with each chosen rule replaced by its values: what is planned and run.
BatchConfig withChosenSizes(BatchConfig config, const std::vector<SizeChoice>& choices);

}  // namespace rooflab
