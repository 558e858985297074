#pragma once
// A batch's plan as JSON, for the worker process: the families as read and every point as resolved,
// so that the worker runs exactly what the batch planned and never reads a manifest. Part of the JSON
// edge. The encoding is a private wire format between a batch and the worker it spawns from the same
// binary (enumerations travel as their numbers); it is never written to a file.
#include <memory>

#include <nlohmann/json.hpp>

#include "analyzer/data/batch_plan.hpp"

namespace rooflab {

// The families, the points and their resolved values; input errors and warnings stay with the batch.
nlohmann::json planToJson(const BatchPlan& plan);
// Throws std::invalid_argument when the JSON is not a plan, or a point names a family, variant,
// what-if or buffer the plan's families lack.
std::shared_ptr<const BatchPlan> planFromJson(const nlohmann::json& j);

}  // namespace rooflab
