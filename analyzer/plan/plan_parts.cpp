#include "analyzer/plan/plan_parts.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace rooflab {
namespace {

// Positions in `points` of each group (a variant at its params, its modes together), in order. A
// group ends where the plan's does, or where the points skip to another group.
std::vector<std::vector<std::size_t>> groupsOf(const BatchPlan& plan, const std::vector<std::size_t>& points) {
  std::vector<std::vector<std::size_t>> groups;
  bool open = false;
  for (std::size_t position = 0; position < points.size(); ++position) {
    if (!open) groups.emplace_back();
    groups.back().push_back(position);
    const std::size_t i = points[position];
    const bool last = position + 1 == points.size();
    open = !(plan.closesGroup(i) || (!last && points[position + 1] != i + 1));
  }
  return groups;
}

// What a group's points share: its family's inputs at its first point's sizes.
std::string inputSetOf(const PlannedPoint& point, std::size_t index) {
  if (!point.resolved) return "unresolved " + std::to_string(index);
  return point.run_point.family->name + "|" + point.resolved->inputsKey();
}

struct ShardUnit {
  std::vector<std::vector<std::size_t>> groups;  // positions, in plan order
  double seconds = 0;
};

// Units, costliest first, each to the part with the least so far; the parts' loads.
std::vector<double> assignUnits(const std::vector<ShardUnit>& units, std::size_t count,
                                std::vector<std::size_t>& part_of) {
  std::vector<std::size_t> order(units.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return units[a].seconds > units[b].seconds; });
  std::vector<double> loads(count, 0.0);
  part_of.assign(units.size(), 0);
  for (const std::size_t u : order) {
    const std::size_t part = static_cast<std::size_t>(std::min_element(loads.begin(), loads.end()) - loads.begin());
    part_of[u] = part;
    loads[part] += units[u].seconds;
  }
  return loads;
}

}  // namespace

std::vector<ShardGroups> shardPoints(const BatchPlan& plan, const std::vector<std::size_t>& points, std::size_t count,
                                     const std::vector<double>& seconds) {
  std::vector<ShardGroups> parts(count);
  if (count == 0) return parts;
  // A point's weight: its estimate, and a little for being a point, so that points the estimate
  // prices at nothing still spread.
  auto weight = [&](std::size_t position) { return (position < seconds.size() ? seconds[position] : 0.0) + 1e-3; };
  std::vector<ShardUnit> units;
  std::string last_set;
  for (std::vector<std::size_t>& group : groupsOf(plan, points)) {
    const std::string set = inputSetOf(plan.points[points[group.front()]], points[group.front()]);
    if (units.empty() || set != last_set) units.emplace_back();
    last_set = set;
    for (const std::size_t position : group) units.back().seconds += weight(position);
    units.back().groups.push_back(std::move(group));
  }
  double total = 0;
  for (const ShardUnit& unit : units) total += unit.seconds;
  std::vector<std::size_t> part_of;
  for (;;) {
    const std::vector<double> loads = assignUnits(units, count, part_of);
    if (*std::max_element(loads.begin(), loads.end()) <= 1.1 * total / double(count)) break;
    // The costliest input set still whole is dealt by its groups.
    auto whole = units.end();
    for (auto it = units.begin(); it != units.end(); ++it)
      if (it->groups.size() > 1 && (whole == units.end() || it->seconds > whole->seconds)) whole = it;
    if (whole == units.end()) break;
    ShardUnit split = std::move(*whole);
    const auto at = units.erase(whole);
    std::vector<ShardUnit> pieces;
    for (std::vector<std::size_t>& group : split.groups) {
      ShardUnit piece;
      for (const std::size_t position : group) piece.seconds += weight(position);
      piece.groups.push_back(std::move(group));
      pieces.push_back(std::move(piece));
    }
    units.insert(at, std::make_move_iterator(pieces.begin()), std::make_move_iterator(pieces.end()));
  }
  for (std::size_t u = 0; u < units.size(); ++u)
    for (const std::vector<std::size_t>& group : units[u].groups) {
      std::vector<std::size_t> indices;
      for (const std::size_t position : group) indices.push_back(points[position]);
      parts[part_of[u]].push_back(std::move(indices));
    }
  for (ShardGroups& part : parts) std::sort(part.begin(), part.end());
  return parts;
}

std::vector<std::vector<std::size_t>> dealPoints(const BatchPlan& plan, const std::vector<std::size_t>& points,
                                                 std::size_t count) {
  std::vector<std::vector<std::size_t>> parts(count);
  if (count == 0) return parts;
  std::size_t group = 0;
  for (const std::vector<std::size_t>& positions : groupsOf(plan, points)) {
    for (const std::size_t position : positions) parts[group % count].push_back(points[position]);
    ++group;
  }
  return parts;
}

std::vector<std::size_t> orderByMetricSet(const BatchPlan& plan, const std::vector<std::size_t>& points) {
  std::vector<std::size_t> ordered, mutants;
  auto closeSet = [&] {
    ordered.insert(ordered.end(), mutants.begin(), mutants.end());
    mutants.clear();
  };
  std::string last_set;
  for (const std::vector<std::size_t>& group : groupsOf(plan, points)) {
    const std::size_t first = points[group.front()];
    const std::string set = inputSetOf(plan.points[first], first);
    if (set != last_set) closeSet();
    last_set = set;
    for (const std::size_t position : group)
      (isMutantMode(plan.points[points[position]].run_point.mode) ? mutants : ordered).push_back(points[position]);
  }
  closeSet();
  return ordered;
}

bool sameInputSet(const BatchPlan& plan, std::size_t a, std::size_t b) {
  return inputSetOf(plan.points[a], a) == inputSetOf(plan.points[b], b);
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
