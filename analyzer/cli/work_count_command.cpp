#include "analyzer/cli/work_count_command.hpp"

#include <cstdio>
#include <stdexcept>

#include "analyzer/config/config.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/run/runner.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/workcount/launch_scale.hpp"
#include "analyzer/workcount/oclgrind_counts.hpp"

namespace rooflab {
namespace {

struct PlannedLaunches {
  BatchConfig config;
  BatchPlan plan;
  const ResolvedPoint* point = nullptr;
};

PlannedLaunches planPoint(const std::filesystem::path& config_path, std::size_t point_index) {
  PlannedLaunches planned{loadBatchConfig(config_path), {}, nullptr};
  planned.plan = planBatch(planned.config);
  if (!planned.plan.input_errors.empty()) throw InputError(planned.plan.input_errors.front());
  if (point_index >= planned.plan.points.size())
    throw InputError(config_path.string() + ": no point " + std::to_string(point_index) + " (the batch plans " +
                     std::to_string(planned.plan.points.size()) + ")");
  const PlannedPoint& point = planned.plan.points[point_index];
  if (!point.resolved) throw InputError(point.resolve_error);
  planned.point = &*point.resolved;
  return planned;
}

}  // namespace

int runLaunchOnce(const std::filesystem::path& config_path, std::size_t point_index, std::uint64_t max_work_groups) {
  try {
    const PlannedLaunches planned = planPoint(config_path, point_index);
    std::vector<LaunchScale> scales;
    const ResolvedPoint scaled = scaledToWorkGroups(*planned.point, max_work_groups, scales);
    VariantRunner runner(selectDevice(planned.config.run.device), planned.config.run);
    runner.launchOnce(scaled);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooflab: %s\n", e.what());
    return 1;
  }
}

std::vector<MeasuredWork> countPointWork(const std::filesystem::path& config_path, std::size_t point_index,
                                         std::uint64_t max_work_groups, double timeout_s) {
  const PlannedLaunches planned = planPoint(config_path, point_index);
  std::vector<LaunchScale> scales;
  const ResolvedPoint scaled = scaledToWorkGroups(*planned.point, max_work_groups, scales);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const OclgrindRun run = runUnderOclgrind({self, "__launch-once", std::filesystem::absolute(config_path).string(),
                                            std::to_string(point_index), std::to_string(max_work_groups)},
                                           timeout_s);
  if (run.timed_out)
    throw std::runtime_error("oclgrind: the launch did not end within " + std::to_string(int(timeout_s)) +
                             " s (fewer work-groups count faster)");
  if (run.exit_code != 0) throw std::runtime_error("oclgrind: the launch failed:\n" + run.output);
  const std::vector<LaunchInstructionCounts> launches = parseOclgrindInstCounts(run.output);
  if (launches.size() < scaled.launches.size())
    throw std::runtime_error("oclgrind counted " + std::to_string(launches.size()) + " launches of the point's " +
                             std::to_string(scaled.launches.size()) + ":\n" + run.output);
  // The point's launches run first and in order; anything after them is not the point's.
  std::vector<MeasuredWork> works;
  for (std::size_t i = 0; i < scaled.launches.size(); ++i)
    works.push_back(measuredWork(launches[i], scales[i].counted_work_groups, scales[i].total_work_groups));
  return works;
}

int runCountWork(const std::filesystem::path& config_path, std::size_t point_index, std::uint64_t max_work_groups) {
  const std::vector<MeasuredWork> works = countPointWork(config_path, point_index, max_work_groups, 600);
  for (const MeasuredWork& work : works)
    std::printf("# kernel %s\n%s", work.kernel.c_str(), familyWorkToml(work).c_str());
  return 0;
}

}  // namespace rooflab
