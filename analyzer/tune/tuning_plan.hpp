#pragma once
// `rooflab tune` planned: every studied point of a variant with a tuning space becomes a search over
// its configurations, each a variant of its own (the base variant with the configuration's params and
// defines) resolved as the plan resolves any point. A configuration that a constraint refuses, or whose
// geometry the plan or the device refuses, is invalid and never runs. The points of the other
// studied variants are the ladder the tuned rung is placed among.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/data/batch_plan.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/tuning.hpp"

namespace rooflab {

struct TuningSearch {
  std::size_t family_index = 0;       // into the tuning plan's families
  std::string variant;                // the base variant
  ParamValues params;                 // the studied point
  TuningResult result;                // the space: dimensions, constraints, configurations (invalid ones marked)
  std::vector<std::size_t> point_of;  // per configuration: its point in the tuning plan, npos when invalid
  std::vector<std::size_t> valid;     // the valid configurations, in the space's order
  std::vector<ParamValues> named;     // per configuration: dimension name -> value (the journal's key)
};

struct TuningPlan {
  std::shared_ptr<BatchPlan> plan;  // the ladder's points first, then every valid configuration
  std::size_t ladder_points = 0;
  std::vector<TuningSearch> searches;
};

// Plans the searches of `sized` (a plan whose sizes are chosen), for `device`. The ladder holds the
// normal points of the variants without a space, and of tuned variants whose own configuration lies
// outside their space. A search's points follow each other, in the space's order.
TuningPlan planTuning(const BatchPlan& sized, const DeviceInfo& device);

// Puts the search's points in `order` (valid configurations, indices into result.configurations;
// the others after them), the order its searcher will try them: the worker builds programs ahead
// in the plan's order.
void orderConfigurationPoints(TuningPlan& tuning, std::size_t search, const std::vector<std::size_t>& order);

}  // namespace rooflab
