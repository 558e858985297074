// How a sharded batch splits its points over its devices (analyzer/plan/plan_parts.hpp, shardPoints):
// whole input sets where the estimates balance, whole groups always, each part in plan order. The
// plans are the built-in kernels'; the estimates are typed in.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/plan/plan_parts.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

BatchPlan planOf(const std::string& studies) {
  const std::string run = R"([run]
device = "cpu"
modes = ["normal", "memory-only"]
counters = "off"
ceilings = "datasheet"
formats = ["json"]
kernels = ["kernels"]
)";
  return planBatch(parseBatchConfig(run + studies, "shard.toml", ROOFLAB_SOURCE_DIR));
}

const char* const kTwoFamilies = R"(
[[study]]
family = "vecadd"
variants = ["global", "local_staged"]
[[study]]
family = "reduce"
variants = ["step1_interleaved_divergent", "step2_interleaved_strided"]
)";

std::vector<std::vector<std::size_t>> flat(const std::vector<ShardGroups>& groups) {
  std::vector<std::vector<std::size_t>> parts;
  for (const ShardGroups& part : groups) {
    parts.emplace_back();
    for (const auto& group : part) parts.back().insert(parts.back().end(), group.begin(), group.end());
  }
  return parts;
}

std::set<std::string> familiesOf(const BatchPlan& plan, const std::vector<std::size_t>& part) {
  std::set<std::string> families;
  for (const std::size_t i : part) families.insert(plan.points[i].run_point.family->name);
  return families;
}

// Every part in plan order, every point in one part, and each group's modes on one device.
void expectWholeGroups(const BatchPlan& plan, const std::vector<std::vector<std::size_t>>& parts) {
  std::vector<std::size_t> all;
  for (const auto& part : parts) {
    EXPECT_TRUE(std::is_sorted(part.begin(), part.end()));
    all.insert(all.end(), part.begin(), part.end());
    for (const std::size_t i : part)
      if (!plan.closesGroup(i)) EXPECT_NE(std::find(part.begin(), part.end(), i + 1), part.end()) << i;
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, allPoints(plan));
}

}  // namespace

TEST(ShardPoints, EachInputSetStaysOnOneDeviceWhenTheSharesBalance) {
  const BatchPlan plan = planOf(kTwoFamilies);
  ASSERT_TRUE(plan.input_errors.empty());
  ASSERT_EQ(plan.points.size(), 8u);
  const auto parts = flat(shardPoints(plan, allPoints(plan), 2, std::vector<double>(8, 1.0)));
  expectWholeGroups(plan, parts);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(familiesOf(plan, parts[0]).size(), 1u);
  EXPECT_EQ(familiesOf(plan, parts[1]).size(), 1u);
  EXPECT_NE(familiesOf(plan, parts[0]), familiesOf(plan, parts[1]));
}

TEST(ShardPoints, AnInputSetTooCostlyForOneDeviceIsDealtByItsGroups) {
  // vecadd's four points cost 10 s each, reduce's 1 s: vecadd whole on one device would leave the
  // other 34 s idle; its two groups go one to each device, reduce's set beside the cheaper.
  const BatchPlan plan = planOf(kTwoFamilies);
  std::vector<double> seconds;
  for (const PlannedPoint& point : plan.points) seconds.push_back(point.run_point.family->name == "vecadd" ? 10 : 1);
  const auto parts = flat(shardPoints(plan, allPoints(plan), 2, seconds));
  expectWholeGroups(plan, parts);
  EXPECT_TRUE(familiesOf(plan, parts[0]).count("vecadd"));
  EXPECT_TRUE(familiesOf(plan, parts[1]).count("vecadd"));
  const std::size_t with_reduce = familiesOf(plan, parts[0]).count("reduce") ? 0 : 1;
  EXPECT_EQ(familiesOf(plan, parts[1 - with_reduce]), std::set<std::string>{"vecadd"});
  EXPECT_EQ(parts[with_reduce].size(), 6u);
}

TEST(ShardPoints, OneInputSetIsSpreadOverTheDevicesByWholeGroups) {
  const BatchPlan plan = planOf(R"(
[[study]]
family = "reduce"
variants = ["step1_interleaved_divergent", "step2_interleaved_strided", "step3_sequential", "step4_first_add"]
)");
  ASSERT_EQ(plan.points.size(), 8u);
  const auto parts = flat(shardPoints(plan, allPoints(plan), 2, std::vector<double>(8, 0.0)));
  expectWholeGroups(plan, parts);
  EXPECT_EQ(parts[0].size(), 4u);
  EXPECT_EQ(parts[1].size(), 4u);
  // More devices than groups: the extra devices get nothing rather than half a group.
  const auto many = flat(shardPoints(plan, allPoints(plan), 5, std::vector<double>(8, 1.0)));
  expectWholeGroups(plan, many);
  EXPECT_EQ(std::count_if(many.begin(), many.end(), [](const auto& part) { return part.empty(); }), 1);
}

// A run that reads counters with the profiler kept: each input set's originals first, then its
// mutants, every one after its own original; a second input set only after the first is done.
TEST(OrderByMetricSet, EachInputSetRunsItsOriginalsThenItsMutants) {
  const BatchPlan plan = planOf(kTwoFamilies);
  ASSERT_EQ(plan.points.size(), 8u);
  const std::vector<std::size_t> ordered = orderByMetricSet(plan, allPoints(plan));
  std::vector<std::string> labels;
  for (const std::size_t i : ordered) {
    const RunPoint& point = plan.points[i].run_point;
    labels.push_back(point.variant->name + " " + modeName(point.mode));
  }
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "global normal", "local_staged normal", "global memory-only", "local_staged memory-only",
                        "step1_interleaved_divergent normal", "step2_interleaved_strided normal",
                        "step1_interleaved_divergent memory-only", "step2_interleaved_strided memory-only"}));
  EXPECT_TRUE(sameInputSet(plan, ordered[0], ordered[3]));
  EXPECT_FALSE(sameInputSet(plan, ordered[0], ordered[4]));
  // A part of the plan keeps to its own points.
  const std::vector<std::size_t> part{4, 5, 6, 7};
  EXPECT_EQ(orderByMetricSet(plan, part), (std::vector<std::size_t>{4, 6, 5, 7}));
}

}  // namespace rooflab::testing
