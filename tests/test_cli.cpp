// The rooflab binary end to end: the commands CI must be able to run on a CPU-only machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/device_model.hpp"
#include "analyzer/json_file.hpp"
#include "test_support.hpp"

using rooflab::testing::TempDir;

namespace {
struct CommandResult {
  int exit_code;
  std::string output;
};
// `environment`: assignments put before the command ("NAME=value ...").
CommandResult runRooflab(const std::string& args, const TempDir& dir, const std::string& environment = "") {
  const auto log = dir.path() / "cli.log";
  const std::string command = environment + " " + std::string(ROOFLAB_BINARY) + " " + args + " > " + log.string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {WEXITSTATUS(status), text.str()};
}
}  // namespace

TEST(Cli, ListShowsEveryFamilyAndVariant) {
  TempDir dir;
  const CommandResult r = runRooflab("list", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name : {"vecadd", "matmul", "reduce", "nbody", "naive_coalesced", "naive_uncoalesced", "tiled16",
                           "tiled32_2pt_transposed", "volkov_64x16", "blocked128_8x8", "step1_interleaved_divergent",
                           "step7_multiple_per_item", "tiled_unroll4", "broken_local_global_index", "local_staged"})
    EXPECT_NE(r.output.find(name), std::string::npos) << name;
}

TEST(Cli, CeilingsOnTheCpuWriteALoadableDeviceModel) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const auto model_path = dir.path() / "measured.toml";
  const CommandResult r = runRooflab("ceilings --device cpu --out " + model_path.string(), dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("DRAM copy"), std::string::npos) << r.output;
  const rooflab::DeviceModel model = rooflab::loadDeviceModel(model_path);
  EXPECT_GT(model.peak_gflops, 0);
  EXPECT_GT(model.dram_gbps, 0);
  ASSERT_TRUE(model.measured.has_value());
}

TEST(Cli, ReportReRendersSavedResultsWithoutADevice) {
  TempDir dir;
  const std::string fixture = std::string(ROOFLAB_SOURCE_DIR) + "/bench/results/2026-11-22-h100-catalogue/default-config.json";
  const CommandResult r = runRooflab("report " + fixture + " --out " + dir.path().string() + " --formats html,csv", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "report.html"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "results.csv"));
}

TEST(Cli, DiffExitsNonZeroOnARegression) {
  TempDir dir;
  const std::string base = std::string(ROOFLAB_SOURCE_DIR) + "/bench/results/2026-11-22-h100-catalogue/default-config.json";
  nlohmann::json slower = rooflab::readJsonFile(base);
  for (auto& r : slower["records"])
    if (r["timings"].is_object()) r["timings"]["kernel_ns"]["median"] = r["timings"]["kernel_ns"]["median"].get<double>() * 1.5;
  const auto slower_path = dir.path() / "slower.json";
  rooflab::writeJsonAtomically(slower_path, slower);
  EXPECT_EQ(runRooflab("diff " + base + " " + base, dir).exit_code, 0);
  const CommandResult r = runRooflab("diff " + base + " " + slower_path.string(), dir);
  EXPECT_EQ(r.exit_code, 1) << r.output;
}

TEST(Cli, BadCommandLinesExitWithCodeTwo) {
  TempDir dir;
  EXPECT_EQ(runRooflab("run --no-such-flag", dir).exit_code, 2);
  EXPECT_EQ(runRooflab("report /nonexistent/results.json", dir).exit_code, 2);
  EXPECT_EQ(runRooflab("run /nonexistent/config.toml", dir).exit_code, 2);
}

// The environment variables of README are read by the command line, and reach the run.
TEST(Cli, EnvironmentVariablesReachTheRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const auto config = dir.write("cfg.toml", "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nceilings = \"datasheet\"\n"
                                            "kernels = [\"" + std::string(ROOFLAB_SOURCE_DIR) + "/kernels\"]\n"
                                            "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = [65536] }\n");
  auto buildThreads = [&](const std::string& environment) {
    const std::string out = (dir.path() / "out").string();
    const CommandResult r = runRooflab("run " + config.string() + " --formats json --quiet --out " + out, dir, environment);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return rooflab::readJsonFile(dir.path() / "out" / "results.json")["build_threads"];
  };
  EXPECT_EQ(buildThreads(""), 0);  // a CPU device builds on the batch's thread
  EXPECT_EQ(buildThreads("ROOFLAB_BUILD_THREADS=2"), 2);
  EXPECT_EQ(buildThreads("ROOFLAB_BUILD_THREADS=none"), 0);
}
