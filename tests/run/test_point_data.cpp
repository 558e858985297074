// A point's host data made ahead (analyzer/run/point_data.hpp): the next inputs key's inputs and C++
// reference, made on a background thread, are byte for byte what the record would have made itself;
// data made for a key the worker no longer comes to is dropped, not handed to another. The built-in
// families at fixed sizes: no OpenCL device is needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/run/point_data.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

constexpr std::uint64_t kSeed = 20121;

BatchPlan builtinPlan() {
  return planBatch(parseBatchConfig(std::string(kQuickCpuRun) + R"(
[[study]]
family = "nbody"
variants = ["naive", "tiled"]
params = { N = [1024, 2048] }
[[study]]
family = "vecadd"
variants = ["global"]
params = { N = 4096 }
)",
                                    "ahead.toml", ROOFLAB_SOURCE_DIR));
}

std::vector<const ResolvedPoint*> order(const BatchPlan& plan) {
  std::vector<const ResolvedPoint*> points;
  for (const PlannedPoint& p : plan.points) {
    EXPECT_TRUE(p.resolved) << p.resolve_error;
    if (p.resolved) points.push_back(&*p.resolved);
  }
  return points;
}

void expectSameBuffers(const HostBuffers& made, const HostBuffers& expected, const std::string& what) {
  ASSERT_EQ(made.size(), expected.size()) << what;
  for (const auto& [name, buffer] : expected) {
    ASSERT_TRUE(made.count(name)) << what << ": " << name;
    EXPECT_TRUE(made.at(name).bytes == buffer.bytes) << what << ": " << name;
  }
}

TEST(DataAhead, EachKeyIsMadeAheadAsTheRecordWouldMakeIt) {
  const BatchPlan plan = builtinPlan();
  const std::vector<const ResolvedPoint*> points = order(plan);
  ASSERT_EQ(points.size(), 5u);  // n-body at two sizes (two variants each), vecadd at one
  const std::string first = points[0]->inputsKey(), second = points[2]->inputsKey(), third = points[4]->inputsKey();
  EXPECT_EQ(points[1]->inputsKey(), first);  // the variants of one size share their inputs
  EXPECT_NE(first, second);

  DataAhead ahead(points, kSeed);
  ahead.startAfter("");  // the worker's first key, before its first record
  std::optional<PointData> made = ahead.take(first);
  ASSERT_TRUE(made.has_value());
  const HostBuffers inputs = makeHostInputs(*points[0], kSeed);
  expectSameBuffers(made->inputs, inputs, "n-body N=1024 inputs");
  ASSERT_EQ(made->references.count(referenceKey(*points[0])), 1u);
  expectSameBuffers(made->references.at(referenceKey(*points[0])), cpuReferenceOutputs(*points[0], inputs),
                    "n-body N=1024 reference");
  EXPECT_FALSE(ahead.take(first).has_value());  // handed over once

  ahead.startAfter(first);
  made = ahead.take(second);
  ASSERT_TRUE(made.has_value());
  expectSameBuffers(made->inputs, makeHostInputs(*points[2], kSeed), "n-body N=2048 inputs");

  // vecadd's reference is computed too: every family with a `cpu:` reference gets it.
  ahead.startAfter(second);
  made = ahead.take(third);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->references.size(), 1u);
  ahead.startAfter(third);  // the last key: nothing after it
  EXPECT_FALSE(ahead.take(third).has_value());
}

TEST(DataAhead, DataForAKeyTheWorkerSkipsIsDropped) {
  const BatchPlan plan = builtinPlan();
  const std::vector<const ResolvedPoint*> points = order(plan);
  ASSERT_EQ(points.size(), 5u);
  DataAhead ahead(points, kSeed);
  ahead.startAfter(points[0]->inputsKey());                      // makes n-body N=2048's
  EXPECT_FALSE(ahead.take(points[4]->inputsKey()).has_value());  // the worker went to vecadd instead
  EXPECT_FALSE(ahead.take(points[2]->inputsKey()).has_value());  // dropped, not kept for later
  ahead.startAfter(points[2]->inputsKey());                      // and the next one starts again
  EXPECT_TRUE(ahead.take(points[4]->inputsKey()).has_value());
}

TEST(DataAhead, AnEmptyOrderMakesNothing) {
  DataAhead ahead;
  ahead.startAfter("");
  EXPECT_FALSE(ahead.take("").has_value());
}

}  // namespace
}  // namespace rooflab::testing
