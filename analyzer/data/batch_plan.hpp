#pragma once
// A planned batch as typed values: what plan/batch_plan.hpp makes of a config, once, and what the
// batch sends its worker process whole (the worker never plans again). Types only.
#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

// The points a config expands to, and the input problems found while expanding it (a broken
// manifest, an unknown family, a parameter that cannot size a buffer). Points point into
// `families`: a plan is moved, never copied.
struct BatchPlan {
  BatchPlan() = default;
  BatchPlan(BatchPlan&&) = default;
  BatchPlan& operator=(BatchPlan&&) = default;
  BatchPlan(const BatchPlan&) = delete;
  BatchPlan& operator=(const BatchPlan&) = delete;

  std::vector<FamilyManifest> families;  // owned here; points point into it
  std::vector<PlannedPoint> points;      // each resolved for its parameters, once
  // Every input problem of the batch (config, studied manifests, points that cannot be resolved):
  // a batch with any is refused before device work or file writes.
  std::vector<std::string> input_errors;
  std::vector<std::string> warnings;  // kernel-folder entries skipped, broken manifests of unstudied families

  std::size_t studiedFamilyCount() const;  // families with at least one point

  // Whether points[i] is the last of its variant at its parameters (the modes of one variant and
  // parameters follow each other).
  bool closesGroup(std::size_t i) const;
};

}  // namespace rooflab
