#include <gtest/gtest.h>

#include <cstdlib>

#include "analyzer/batch.hpp"
#include "analyzer/program_builds.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::TempDir;

namespace {

const char* kSource = "kernel void scale(global float* x) { x[get_global_id(0)] *= FACTOR; }\n";

SelectedDevice cpuDevice() { return selectDevice("cpu"); }

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) unsetenv(name_);
    else setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

}  // namespace

TEST(ProgramBuilds, BackgroundBuildsComeBackInAnyOrderWithTheirFailures) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const SelectedDevice device = cpuDevice();
  cl::Context context(device.device);
  ProgramBuilds builds(context, device.device, 2);
  ASSERT_EQ(builds.threads(), 2);
  for (int i = 1; i <= 4; ++i) builds.enqueue("p" + std::to_string(i), kSource, "-D FACTOR=" + std::to_string(i));
  builds.enqueue("broken", "kernel void scale(global float* x) { not C }\n", "");
  builds.enqueue("p1", "this second source is ignored", "");  // queued once per key

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
  EXPECT_FALSE(builds.take("p1").has_value());       // taken already
  EXPECT_FALSE(builds.take("unknown").has_value());  // never queued

  // Builds still queued when the owner goes away are dropped, not waited for forever.
  for (int i = 0; i < 16; ++i) builds.enqueue("late" + std::to_string(i), kSource, "-D FACTOR=" + std::to_string(i));
}

TEST(ProgramBuilds, NoThreadsMeansEverythingIsBuiltByTheCaller) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const SelectedDevice device = cpuDevice();
  cl::Context context(device.device);
  ProgramBuilds builds(context, device.device, 0);
  builds.enqueue("p", kSource, "-D FACTOR=2");
  EXPECT_FALSE(builds.take("p").has_value());
  const ProgramBuild now = buildProgramNow(context, device.device, kSource, "-D FACTOR=2");
  EXPECT_TRUE(now.ok) << now.failure;
}

TEST(ProgramBuilds, ThreadCountFollowsTheEnvironmentAndTheDeviceType) {
  {
    ScopedEnv env("ROOFLAB_BUILD_THREADS", "3");
    EXPECT_EQ(backgroundBuildThreads(true), 3);
    EXPECT_EQ(backgroundBuildThreads(false), 3);
  }
  {
    ScopedEnv env("ROOFLAB_BUILD_THREADS", "not a number");
    EXPECT_EQ(backgroundBuildThreads(true), 0);  // CPU devices build on the batch's thread
    EXPECT_GE(backgroundBuildThreads(false), 1);
    EXPECT_LE(backgroundBuildThreads(false), 8);
  }
}

// A whole batch with background builds gives the records a sequential batch gives, failures included.
TEST(ProgramBuilds, BatchWithBackgroundBuildsKeepsEveryRecord) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/adder/k.cl",
            "kernel void add(global const float* a, global const float* b, global float* c, int n) {\n"
            "  int i = get_global_id(0);\n"
            "  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));\n}\n");
  dir.write("kernels/adder/broken.cl", "kernel void add(global float* a) { this is not C }\n");
  dir.write("kernels/adder/family.toml", rooflab::testing::vecaddFamilyHeader("adder") + R"([[variants]]
name = "good"
source = "k.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
[[variants]]
name = "broken_build"
source = "broken.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
)");
  const std::string text = "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 1\n"
                           "modes = [\"normal\", \"compute-only\", \"memory-only\"]\nceilings = \"datasheet\"\n"
                           "kernels = [\"kernels\"]\nout = \"" + (dir.path() / "out").string() +
                           "\"\nformats = [\"json\"]\n[[study]]\nfamily = \"adder\"\nparams = { N = [1024, 2048] }\n";
  const BatchConfig config = parseBatchConfig(text, "cfg.toml", dir.path());
  ScopedEnv env("ROOFLAB_BUILD_THREADS", "2");
  BatchOptions options;
  options.progress = false;
  const BatchOutcome outcome = runBatch(config, options);
  const nlohmann::json& results = outcome.results;
  EXPECT_EQ(results["build_threads"], 2);
  ASSERT_EQ(results["records"].size(), 12u);
  for (const auto& r : results["records"]) {
    if (r["variant"] == "good") {
      EXPECT_EQ(r["status"], "ok") << r["error"];
      if (r["mode"] == "normal") EXPECT_EQ(r["verification"]["status"], "passed");
    } else if (r["mode"] == "normal") {
      EXPECT_EQ(r["status"], "error");
      EXPECT_NE(r["error"].get<std::string>().find("OpenCL build of broken.cl failed"), std::string::npos) << r["error"];
    } else {
      EXPECT_EQ(r["status"], "skipped");  // no annotations: mutants are never built
    }
  }
}
