#include "analyzer/cli/capture_work.hpp"

#include <chrono>
#include <map>
#include <stdexcept>

#include "analyzer/capture/replay_config.hpp"
#include "analyzer/cli/work_count_command.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/workcount/oclgrind_counts.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// Each family's point in normal mode, by its plan index: the point __launch-once runs.
std::map<std::string, std::size_t> normalPoints(const fs::path& config) {
  const BatchConfig batch = loadBatchConfig(config);  // the plan's points point into it
  const BatchPlan plan = planBatch(batch);
  std::map<std::string, std::size_t> points;
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const RunPoint& point = plan.points[i].run_point;
    if (point.family != nullptr && point.mode == RunMode::normal) points.emplace(point.family->name, i);
  }
  return points;
}

// The error's first line and, for a failed launch, the simulator's last line: enough to say why.
std::string shortReason(const std::string& what) {
  const std::size_t first_end = what.find('\n');
  if (first_end == std::string::npos) return what;
  std::string tail = what.substr(first_end + 1);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  const std::size_t last_start = tail.rfind('\n');
  return what.substr(0, first_end) + " " + (last_start == std::string::npos ? tail : tail.substr(last_start + 1));
}

FamilyWorkCount countFamily(const fs::path& config, const std::string& family, std::size_t point) {
  FamilyWorkCount count;
  count.family = family;
  const auto started = std::chrono::steady_clock::now();
  try {
    const std::vector<MeasuredWork> works =
        countPointWork(config, point, kCaptureCountWorkGroups, kCaptureCountTimeoutS);
    if (works.size() != 1)
      throw std::runtime_error("oclgrind counted " + std::to_string(works.size()) + " launches, not 1");
    writeFamilyWork(config.parent_path() / "families" / family / "family.toml", works.front());
    count.work = works.front();
  } catch (const std::exception& e) {
    count.unmeasured_reason = shortReason(e.what());
  }
  count.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return count;
}

}  // namespace

std::vector<FamilyWorkCount> countCapturedWork(const fs::path& config, const std::vector<std::string>& families,
                                               const std::function<void(const FamilyWorkCount&)>& done) {
  std::vector<FamilyWorkCount> counts;
  std::string common_reason;
  std::map<std::string, std::size_t> points;
  if (!findOclgrind()) common_reason = "oclgrind is not installed (Debian: apt-get install oclgrind)";
  if (common_reason.empty()) try {
      points = normalPoints(config);
    } catch (const std::exception& e) {
      common_reason = "the replay config does not plan: " + shortReason(e.what());
    }
  for (const std::string& family : families) {
    FamilyWorkCount count;
    count.family = family;
    count.unmeasured_reason = common_reason;
    const auto point = points.find(family);
    if (common_reason.empty() && point == points.end())
      count.unmeasured_reason = "the replay config plans no point of it";
    if (count.unmeasured_reason.empty()) count = countFamily(config, family, point->second);
    done(count);
    counts.push_back(count);
  }
  return counts;
}

}  // namespace rooflab
