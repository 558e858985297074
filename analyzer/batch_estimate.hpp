#pragma once
// What a batch will cost before it starts: printed beside its point count, so that a sweep that
// explodes combinatorially says so before it runs.
#include <string>

#include "analyzer/batch_plan.hpp"
#include "analyzer/config.hpp"
#include "analyzer/roofline_models.hpp"

namespace rooflab {

// Seconds: each point's runs (warm-up and timed) at the roofline time of its analytic work on the
// device's model (measured, else datasheet, else reference), plus a fixed cost per point for its
// build, uploads, read-back, verification and recording (a trivial kernel costs 2.2 ms a point on
// PoCL, bench/worker-overhead.sh; a point that builds its program costs tens of ms). A lower bound
// for kernels far below their roof; the order of magnitude is what it is for.
double estimateBatchSeconds(const BatchPlan& plan, const RooflineModels& models, const RunSettings& settings);

// "about 40 s", "about 3.5 min", "about 2.1 h".
std::string formatEstimate(double seconds);

}  // namespace rooflab
