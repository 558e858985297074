#pragma once
// A point's work counted under oclgrind (docs/work-counts.md): this binary re-executed as
// `rooflab __launch-once CONFIG POINT MAX_GROUPS` under `oclgrind --inst-counts`, which runs the
// point's launches once on oclgrind's simulated device, their histograms read back.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "analyzer/data/work_count.hpp"

namespace rooflab {

// `rooflab __launch-once`: the plan of the config at `config_path`, its point `point_index` (plan
// order) cut to `max_work_groups` work-groups a launch, launched once on the config's device. 0 when
// it ran; 1 with the error on stderr otherwise.
int runLaunchOnce(const std::filesystem::path& config_path, std::size_t point_index, std::uint64_t max_work_groups);

// The work of each launch of the point, counted by oclgrind over at most `max_work_groups` of its
// work-groups and scaled to the whole launch. Throws InputError for a config or point that does not
// plan, std::runtime_error when oclgrind is missing, times out after `timeout_s`, or the launch fails.
std::vector<MeasuredWork> countPointWork(const std::filesystem::path& config_path, std::size_t point_index,
                                         std::uint64_t max_work_groups, double timeout_s);

// `rooflab __count-work CONFIG POINT [MAX_GROUPS]`: countPointWork's family.toml lines, a launch each.
int runCountWork(const std::filesystem::path& config_path, std::size_t point_index, std::uint64_t max_work_groups);

}  // namespace rooflab
