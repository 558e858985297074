#pragma once
// A point's launches cut to their first work-groups, for counting under a simulator that would take
// too long over the whole launch (docs/work-counts.md, "Scaling").
#include <cstdint>
#include <vector>

#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

struct LaunchScale {
  std::uint64_t total_work_groups = 1;
  std::uint64_t counted_work_groups = 1;
};

// `point` with each launch's NDRange cut along its last dimension to whole rows of work-groups, at
// most `max_work_groups` of them (at least one row); `scales` gets each launch's work-groups before
// and after. A launch without a local size is kept whole (its work-groups are the runtime's choice).
ResolvedPoint scaledToWorkGroups(const ResolvedPoint& point, std::uint64_t max_work_groups,
                                 std::vector<LaunchScale>& scales);

}  // namespace rooflab
