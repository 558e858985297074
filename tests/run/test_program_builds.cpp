#include <gtest/gtest.h>

#include <cstdlib>

#include "analyzer/run/program_builds.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

const char* kSource = "kernel void scale(global float* x) { x[get_global_id(0)] *= FACTOR; }\n";

SelectedDevice buildCpuDevice() { return selectDevice("cpu"); }

}  // namespace

TEST(ProgramBuilds, BackgroundBuildsComeBackInAnyOrderWithTheirFailures) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const SelectedDevice device = buildCpuDevice();
  cl::Context context(device.device);
  ProgramBuilds builds(context, device.device, 2);
  ASSERT_EQ(builds.threads(), 2);
  EXPECT_TRUE(builds.idle());
  for (int i = 1; i <= 4; ++i) builds.enqueue("p" + std::to_string(i), kSource, "-D FACTOR=" + std::to_string(i));
  builds.enqueue("broken", "kernel void scale(global float* x) { not C }\n", "");
  builds.enqueue("p1", "this second source is ignored", "");  // queued once per key
  EXPECT_FALSE(builds.idle());  // five builds cannot all be done yet: "broken" is queued behind four

  const auto broken = builds.take("broken");
  ASSERT_TRUE(broken.has_value());
  EXPECT_FALSE(broken->ok);
  EXPECT_FALSE(broken->log.empty());
  EXPECT_EQ(broken->failure.rfind(" ():\n", 0), 0u) << broken->failure;
  for (int i = 4; i >= 1; --i) {
    const auto built = builds.take("p" + std::to_string(i));
    ASSERT_TRUE(built.has_value()) << i;
    EXPECT_TRUE(built->ok) << built->failure;
    EXPECT_GT(built->seconds, 0);
    cl::Kernel kernel(built->program, "scale");  // a usable program
  }
  EXPECT_TRUE(builds.idle());                   // every build done: the range profiler may stay enabled between records
  EXPECT_FALSE(builds.take("p1").has_value());  // taken already
  EXPECT_FALSE(builds.take("unknown").has_value());  // never queued

  // Builds still queued when the owner goes away are dropped, not waited for forever.
  for (int i = 0; i < 16; ++i) builds.enqueue("late" + std::to_string(i), kSource, "-D FACTOR=" + std::to_string(i));
}

TEST(ProgramBuilds, NoThreadsMeansEverythingIsBuiltByTheCaller) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const SelectedDevice device = buildCpuDevice();
  cl::Context context(device.device);
  ProgramBuilds builds(context, device.device, 0);
  builds.enqueue("p", kSource, "-D FACTOR=2");
  EXPECT_FALSE(builds.take("p").has_value());
  const ProgramBuild now = buildProgramNow(context, device.device, kSource, "-D FACTOR=2");
  EXPECT_TRUE(now.ok) << now.failure;
}

// ROOFLAB_BUILD_THREADS reaches the run through the command line (Cli.EnvironmentVariablesReachTheRun).
TEST(ProgramBuilds, ThreadCountFollowsTheSettingAndTheDeviceType) {
  {
    const std::optional<int> requested = parseBuildThreads("5");  // above the default's cap: the setting wins
    EXPECT_EQ(backgroundBuildThreads(true, requested), 5);
    EXPECT_EQ(backgroundBuildThreads(false, requested), 5);
  }
  {
    const std::optional<int> requested = parseBuildThreads("not a number");
    EXPECT_EQ(backgroundBuildThreads(true, requested), 0);  // CPU devices build on the batch's thread
    EXPECT_GE(backgroundBuildThreads(false, requested), 1);
    EXPECT_LE(backgroundBuildThreads(false, requested), 3);
  }
  EXPECT_EQ(parseBuildThreads("0"), 0);
  EXPECT_EQ(parseBuildThreads("1000"), 64);
  EXPECT_EQ(parseBuildThreads("-1"), std::nullopt);
  EXPECT_EQ(parseBuildThreads("2x"), std::nullopt);
  EXPECT_EQ(parseBuildThreads(""), std::nullopt);
}
