#include "analyzer/workcount/launch_scale.hpp"

#include <algorithm>

namespace rooflab {

ResolvedPoint scaledToWorkGroups(const ResolvedPoint& point, std::uint64_t max_work_groups,
                                 std::vector<LaunchScale>& scales) {
  ResolvedPoint scaled = point;
  scales.clear();
  for (ResolvedLaunch& launch : scaled.launches) {
    LaunchGeometry& geometry = launch.geometry;
    LaunchScale scale;
    if (geometry.local.size() != geometry.global.size() || geometry.global.empty()) {
      scales.push_back(scale);
      continue;
    }
    std::vector<std::uint64_t> groups;
    for (std::size_t d = 0; d < geometry.global.size(); ++d)
      groups.push_back(
          std::uint64_t((geometry.global[d] + geometry.local[d] - 1) / std::max<std::int64_t>(1, geometry.local[d])));
    std::uint64_t row = 1;  // the work-groups of every dimension but the last
    for (std::size_t d = 0; d + 1 < groups.size(); ++d) row *= groups[d];
    scale.total_work_groups = row * groups.back();
    const std::uint64_t rows =
        std::clamp<std::uint64_t>(max_work_groups / std::max<std::uint64_t>(1, row), 1, groups.back());
    geometry.global.back() = std::min<std::int64_t>(geometry.global.back(), std::int64_t(rows) * geometry.local.back());
    scale.counted_work_groups = row * rows;
    scales.push_back(scale);
  }
  return scaled;
}

}  // namespace rooflab
