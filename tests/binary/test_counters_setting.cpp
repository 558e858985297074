// [run] counters as a user sets it: "on" means on, so a device that cannot give counters stops the run
// before any device work, with the reason; "auto" runs there with timings alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace rooflab::testing {
namespace {

std::string vecaddConfig(const std::string& counters) {
  return replaced(kQuickCpuRun, "counters = \"off\"", "counters = \"" + counters + "\"") +
         "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = [1024] }\n";
}

TEST(CountersSetting, OnStopsBeforeDeviceWorkWhereCountersCannotBeRead) {
  if (!hasOpenclCpuDevice()) GTEST_SKIP() << "no OpenCL CPU device (PoCL)";
  TempDir dir;
  std::filesystem::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  dir.write("on.toml", vecaddConfig("on"));
  const BinaryOutcome on = runRooflab("run on.toml", dir.path());
  EXPECT_EQ(on.exit_code, 3) << show(on);
  EXPECT_TRUE(contains(on.err, "[run] counters = \"on\", but counters cannot be read on")) << show(on);
  EXPECT_TRUE(contains(on.err, "counters = \"auto\" runs with timings alone")) << show(on);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "results.json")) << "no record may be written";

  dir.write("auto.toml", vecaddConfig("auto"));
  const BinaryOutcome automatic = runRooflab("run auto.toml", dir.path());
  EXPECT_EQ(automatic.exit_code, 0) << show(automatic);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / "results.json")) << show(automatic);
}

}  // namespace
}  // namespace rooflab::testing
