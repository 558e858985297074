#include "analyzer/data/batch_plan.hpp"

#include <set>

namespace rooflab {

bool BatchPlan::closesGroup(std::size_t i) const {
  return i + 1 == points.size() || points[i + 1].run_point.variant != points[i].run_point.variant ||
         points[i + 1].run_point.params != points[i].run_point.params;
}

std::size_t BatchPlan::studiedFamilyCount() const {
  std::set<const FamilyManifest*> studied;
  for (const PlannedPoint& p : points) studied.insert(p.run_point.family);
  return studied.size();
}

}  // namespace rooflab
