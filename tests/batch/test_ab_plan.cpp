// An A/B run's schedule (analyzer/batch/ab_plan.hpp): two configs' plans merged into one batch, each
// variant's points of one side right after the same points of the other, the side that goes first
// alternating; what only one side plans is named and not run.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analyzer/batch/ab_plan.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {

TEST(AbPlan, TwoConfigsAreInterleavedAVariantAtATime) {
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  const std::string run = replaced(kQuickCpuRun, "modes = [\"normal\"]", "modes = [\"normal\", \"compute-only\"]");
  const BatchConfig baseline = parseBatchConfig(
      run + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\", \"float4\"]\nparams = { N = [65536] }\n", "a.toml",
      dir.path());
  const BatchConfig candidate = parseBatchConfig(run + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"float4\", "
                                                       "\"global\", \"local_staged\"]\nparams = { N = [65536] }\n",
                                                 "b.toml", dir.path());
  const BatchPlan a = planBatch(baseline), b = planBatch(candidate);
  ASSERT_TRUE(a.input_errors.empty() && b.input_errors.empty());

  const AbSchedule schedule = interleaveAbPlans(a, b);
  ASSERT_EQ(schedule.plan->points.size(), 8u);  // 2 variants x 2 modes x 2 sides
  ASSERT_EQ(schedule.sides.size(), 8u);
  const std::vector<AbSide> sides = {AbSide::baseline,  AbSide::baseline,  AbSide::candidate, AbSide::candidate,
                                     AbSide::candidate, AbSide::candidate, AbSide::baseline,  AbSide::baseline};
  EXPECT_EQ(schedule.sides, sides);
  const std::vector<std::string> variants = {"global", "global", "global", "global",
                                             "float4", "float4", "float4", "float4"};
  for (std::size_t i = 0; i < variants.size(); ++i)
    EXPECT_EQ(schedule.plan->points[i].run_point.variant->name, variants[i]) << i;
  // Each side's points keep their own group: the analysis concludes a side's variant on its own records.
  EXPECT_TRUE(schedule.plan->closesGroup(1));
  EXPECT_FALSE(schedule.plan->closesGroup(2));
  ASSERT_EQ(schedule.unmatched.size(), 1u);
  EXPECT_NE(schedule.unmatched[0].find("vecadd/local_staged"), std::string::npos) << schedule.unmatched[0];
  EXPECT_NE(schedule.unmatched[0].find("candidate only"), std::string::npos) << schedule.unmatched[0];
}

}  // namespace rooflab::testing
