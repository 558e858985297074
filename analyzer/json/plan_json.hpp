#pragma once
// A batch's plan as JSON, for the worker process: the families as read and every point as resolved,
// so that the worker runs exactly what the batch planned and never reads a manifest. Part of the JSON
// edge. The encoding is a private wire format between a batch and the worker it spawns from the same
// binary (enumerations travel as their numbers); it is never written to a file.
#include <cstddef>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/data/batch_plan.hpp"

namespace rooflab {

// The families, the points and their resolved values; input errors and warnings stay with the batch.
nlohmann::json planToJson(const BatchPlan& plan);
// Throws std::invalid_argument when the JSON is not a plan, or a point names a family, variant,
// what-if or buffer the plan's families lack.
std::shared_ptr<const BatchPlan> planFromJson(const nlohmann::json& j);

// One point of one of several plans: plans[plan].points[point].
struct PlanPointRef {
  std::size_t plan = 0;
  std::size_t point = 0;
};
// A plan made of points of several plans, in the order given (an A/B run interleaves two plans'
// points): every family of every plan, each point resolved as it was. Warnings and input errors are
// the callers'.
std::shared_ptr<const BatchPlan> planOfPoints(const std::vector<const BatchPlan*>& plans,
                                              const std::vector<PlanPointRef>& points);

}  // namespace rooflab
