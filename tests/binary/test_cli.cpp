// The rooflab binary end to end: the commands CI must be able to run on a CPU-only machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/cli/commands.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/json/json_file_io.hpp"
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
  const std::string command =
      environment + " " + std::string(ROOFLAB_BINARY) + " " + args + " > " + log.string() + " 2>&1";
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

// --out is a folder, as in every command: the model is DIR/device-model.toml, DIR made when missing.
TEST(Cli, CeilingsOnTheCpuWriteALoadableDeviceModel) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const auto model_path = dir.path() / "measured" / rooflab::kCeilingsModelFile;
  const CommandResult r = runRooflab("ceilings --device cpu --out " + (dir.path() / "measured").string(), dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("device model: " + model_path.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DRAM copy"), std::string::npos) << r.output;
  const rooflab::DeviceModel model = rooflab::loadDeviceModel(model_path);
  EXPECT_GT(model.peak_gflops, 0);
  EXPECT_GT(model.dram_gbps, 0);
  ASSERT_TRUE(model.measured.has_value());
}

TEST(Cli, ReportReRendersSavedResultsWithoutADevice) {
  TempDir dir;
  const std::string fixture =
      std::string(ROOFLAB_SOURCE_DIR) + "/bench/results/2026-11-22-h100-catalogue/default-config.json";
  const CommandResult r =
      runRooflab("report " + fixture + " --out " + dir.path().string() + " --formats html,csv", dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "report.html"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "results.csv"));
}

// diff tests the repetitions: the slower copy is slower in every repetition, not only
// in its median.
TEST(Cli, DiffExitsNonZeroOnARegression) {
  TempDir dir;
  const std::string base =
      std::string(ROOFLAB_SOURCE_DIR) + "/bench/results/2026-11-22-h100-catalogue/default-config.json";
  nlohmann::json slower = rooflab::readJsonFile(base);
  for (auto& r : slower["records"]) {
    if (!r["timings"].is_object()) continue;
    r["timings"]["kernel_ns"]["median"] = r["timings"]["kernel_ns"]["median"].get<double>() * 1.5;
    for (auto& repetition : r["timings"]["repetitions"])
      repetition["kernel_ns"] = repetition["kernel_ns"].get<std::int64_t>() * 3 / 2;
  }
  const auto slower_path = dir.path() / "slower.json";
  rooflab::writeJsonAtomically(slower_path, slower);
  const CommandResult same = runRooflab("diff " + base + " " + base, dir);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("no regression among 69 matched records"), std::string::npos) << same.output;
  const CommandResult r = runRooflab("diff " + base + " " + slower_path.string(), dir);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("REGRESSED: "), std::string::npos) << r.output;
  // Faster is no failure.
  const CommandResult faster = runRooflab("diff " + slower_path.string() + " " + base, dir);
  EXPECT_EQ(faster.exit_code, 0) << faster.output;
  EXPECT_NE(faster.output.find("IMPROVED"), std::string::npos) << faster.output;
  // --threshold, the median rule's option, now sets the minimum effect, and says so.
  const CommandResult threshold = runRooflab("diff " + base + " " + slower_path.string() + " --threshold 0.6", dir);
  EXPECT_EQ(threshold.exit_code, 0) << threshold.output;
  EXPECT_NE(threshold.output.find("--threshold is now --min-effect"), std::string::npos) << threshold.output;
  EXPECT_EQ(runRooflab("diff " + base + " " + slower_path.string() + " --min-effect 0.6", dir).exit_code, 0);
  EXPECT_EQ(runRooflab("diff " + base + " " + base + " --alpha 1.5", dir).exit_code, 2);
}

TEST(Cli, DiffRefusesRunsOfAnotherDeviceWithExitTwo) {
  TempDir dir;
  const std::string gpu = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/results/gpu-h100-modes.json";
  const std::string cpu = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/results/cpu-pocl-small.json";
  const CommandResult refused = runRooflab("diff " + cpu + " " + gpu, dir);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("\"cpu-haswell-Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz\""), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("\"NVIDIA H100 80GB HBM3\""), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("--allow-other-device"), std::string::npos) << refused.output;
  // Allowed, the records that both ran are compared (none of these two fixtures share one).
  const CommandResult allowed = runRooflab("diff " + cpu + " " + gpu + " --allow-other-device", dir);
  EXPECT_EQ(allowed.exit_code, 2) << allowed.output;
  EXPECT_NE(allowed.output.find("nothing to compare: no record of OLD"), std::string::npos) << allowed.output;
  nlohmann::json other_platform = rooflab::readJsonFile(cpu);
  other_platform["device"]["platform"] = "Intel(R) OpenCL";
  const auto other_path = dir.path() / "other-platform.json";
  rooflab::writeJsonAtomically(other_path, other_platform);
  EXPECT_EQ(runRooflab("diff " + cpu + " " + other_path.string(), dir).exit_code, 2);
  const CommandResult compared = runRooflab("diff " + cpu + " " + other_path.string() + " --allow-other-device", dir);
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_NE(compared.output.find("warning: the runs were made on different devices"), std::string::npos)
      << compared.output;
}

TEST(Cli, DiffWithNothingMatchedExitsTwoAndSaysWhy) {
  TempDir dir;
  const std::string cpu = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/results/cpu-pocl-small.json";
  nlohmann::json running = rooflab::readJsonFile(cpu);
  running["records"] = nlohmann::json::array();
  running["status"] = "running";
  running.erase("summary");
  const auto running_path = dir.path() / "running.json";
  rooflab::writeJsonAtomically(running_path, running);
  const CommandResult r = runRooflab("diff " + cpu + " " + running_path.string(), dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("NEW has 0 records (status: running)"), std::string::npos) << r.output;
}

TEST(Cli, BadCommandLinesExitWithCodeTwo) {
  TempDir dir;
  EXPECT_EQ(runRooflab("run --no-such-flag", dir).exit_code, 2);
  EXPECT_EQ(runRooflab("report /nonexistent/results.json", dir).exit_code, 2);
  EXPECT_EQ(runRooflab("run /nonexistent/config.toml", dir).exit_code, 2);
}

// The environment variables (docs/using.md) are read by the command line, and reach the run.
TEST(Cli, EnvironmentVariablesReachTheRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const auto config =
      dir.write("cfg.toml", "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nceilings = \"datasheet\"\n"
                            "kernels = [\"" +
                                std::string(ROOFLAB_SOURCE_DIR) +
                                "/kernels\"]\n"
                                "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = [65536] }\n");
  auto buildThreads = [&](const std::string& environment) {
    const std::string out = (dir.path() / "out").string();
    const CommandResult r =
        runRooflab("run " + config.string() + " --formats json --quiet --out " + out, dir, environment);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return rooflab::readJsonFile(dir.path() / "out" / "results.json")["build_threads"];
  };
  EXPECT_EQ(buildThreads(""), 0);  // a CPU device builds on the batch's thread
  EXPECT_EQ(buildThreads("ROOFLAB_BUILD_THREADS=2"), 2);
  EXPECT_EQ(buildThreads("ROOFLAB_BUILD_THREADS=none"), 0);
}
