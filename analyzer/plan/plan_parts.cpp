#include "analyzer/plan/plan_parts.hpp"

#include <numeric>

namespace rooflab {

std::vector<std::vector<std::size_t>> dealPoints(const BatchPlan& plan, const std::vector<std::size_t>& points,
                                                 std::size_t count) {
  std::vector<std::vector<std::size_t>> parts(count);
  if (count == 0) return parts;
  std::size_t group = 0;
  for (std::size_t position = 0; position < points.size(); ++position) {
    const std::size_t i = points[position];
    parts[group % count].push_back(i);
    // A group ends where the plan's does, or where the points skip to another group.
    const bool last = position + 1 == points.size();
    if (plan.closesGroup(i) || (!last && points[position + 1] != i + 1)) ++group;
  }
  return parts;
}

std::vector<std::size_t> allPoints(const BatchPlan& plan) {
  std::vector<std::size_t> points(plan.points.size());
  std::iota(points.begin(), points.end(), std::size_t{0});
  return points;
}

std::vector<std::size_t> pointsOfPart(const BatchPlan& plan, std::size_t index, std::size_t count) {
  if (index == 0 || index > count) return {};
  return dealPoints(plan, allPoints(plan), count)[index - 1];
}

std::vector<std::size_t> partSizes(const BatchPlan& plan, std::size_t count) {
  std::vector<std::size_t> sizes;
  for (const std::vector<std::size_t>& part : dealPoints(plan, allPoints(plan), count)) sizes.push_back(part.size());
  return sizes;
}

}  // namespace rooflab
