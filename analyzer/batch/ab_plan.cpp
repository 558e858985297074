#include "analyzer/batch/ab_plan.hpp"

#include <map>

#include "analyzer/json/plan_json.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// The points of one variant at one set of parameters: plan.points[first .. last].
struct PointGroup {
  std::size_t first = 0;
  std::size_t last = 0;
};

std::string groupKey(const PlannedPoint& point) {
  std::string key = point.run_point.family->name + "/" + point.run_point.variant->name;
  for (const auto& [name, value] : point.run_point.params) key += " " + name + "=" + formatNumber(value);
  return key;
}

std::vector<std::pair<std::string, PointGroup>> groupsOf(const BatchPlan& plan) {
  std::vector<std::pair<std::string, PointGroup>> groups;
  std::size_t first = 0;
  for (std::size_t i = 0; i < plan.points.size(); ++i)
    if (plan.closesGroup(i)) {
      groups.push_back({groupKey(plan.points[first]), {first, i}});
      first = i + 1;
    }
  return groups;
}

}  // namespace

AbSchedule interleaveAbPlans(const BatchPlan& baseline, const BatchPlan& candidate) {
  AbSchedule schedule;
  const auto baseline_groups = groupsOf(baseline), candidate_groups = groupsOf(candidate);
  std::map<std::string, PointGroup> by_key;
  for (const auto& [key, group] : candidate_groups) by_key.emplace(key, group);
  std::vector<PlanPointRef> points;
  std::map<std::string, bool> matched;
  std::size_t pairs = 0;
  for (const auto& [key, group] : baseline_groups) {
    const auto other = by_key.find(key);
    if (other == by_key.end()) {
      schedule.unmatched.push_back(key + ": baseline only");
      continue;
    }
    matched[key] = true;
    // The side that goes first alternates, so that neither is always the one right after a build.
    const bool baseline_first = pairs++ % 2 == 0;
    for (int turn = 0; turn < 2; ++turn) {
      const bool baseline_now = (turn == 0) == baseline_first;
      const PointGroup& g = baseline_now ? group : other->second;
      for (std::size_t i = g.first; i <= g.last; ++i) {
        points.push_back({baseline_now ? 0u : 1u, i});
        schedule.sides.push_back(baseline_now ? AbSide::baseline : AbSide::candidate);
      }
    }
  }
  for (const auto& [key, group] : candidate_groups)
    if (!matched.count(key)) schedule.unmatched.push_back(key + ": candidate only");
  schedule.plan = planOfPoints({&baseline, &candidate}, points);
  return schedule;
}

}  // namespace rooflab
