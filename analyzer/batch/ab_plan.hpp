#pragma once
// An A/B run's schedule (`rooflab ab`, docs/cost.md "A/B runs"): the baseline's and the candidate's
// plans merged into one batch, each variant's points (all its modes at one set of parameters) of one
// side followed at once by the same points of the other, the side that goes first alternating from
// one variant to the next. Whatever drifts (a host load, a GPU clock) then drifts alike for both
// sides of every pair.
#include <memory>
#include <string>
#include <vector>

#include "analyzer/data/batch_plan.hpp"
#include "analyzer/data/run_cost.hpp"

namespace rooflab {

struct AbSchedule {
  std::shared_ptr<const BatchPlan> plan;  // the matched points of both sides, interleaved
  std::vector<AbSide> sides;              // one per point of `plan`
  // Variants at parameters that only one side plans: not run, and named ("matmul/tiled16 N=512: baseline only").
  std::vector<std::string> unmatched;
};

// Points match on family name, variant name and parameters; a variant's modes go with it.
AbSchedule interleaveAbPlans(const BatchPlan& baseline, const BatchPlan& candidate);

}  // namespace rooflab
