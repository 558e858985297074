#pragma once
// What a batch will cost before it starts: printed beside its point count, so that a sweep that
// explodes combinatorially says so before it runs.
#include <string>

#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// Seconds: each point's timed runs (its runs at the roofline time of its analytic work on the
// device's model, or half its noise-target budget, whichever is longer), plus its share of builds,
// counters on NVIDIA, and a fixed cost for recording. The constants were measured on the default
// config (batch_estimate.cpp); the order of magnitude is what it is for.
double estimateBatchSeconds(const BatchPlan& plan, const RooflineModels& models, const RunSettings& settings,
                            const DeviceInfo& device);

// "about 40 s", "about 3.5 min", "about 2.1 h".
std::string formatEstimate(double seconds);

}  // namespace rooflab
