// What a run costs rooflab itself, as a user sees it (docs/cost.md): `--phases` prints where the
// wall time went, the results keep it with the estimate against what the run took, every record is
// timed beside the control kernel, and `rooflab report --phases` prints the table of a saved run.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analyzer/json/json_file_io.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {

TEST(RunCost, PhasesEstimateAndDriftControlsAreRecordedAndPrinted) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  // 4 repetitions: below that no control kernel is timed (diff's test could never be significant).
  dir.write("run.toml",
            replaced(kQuickCpuRun, "repetitions = 1", "repetitions = 4") +
                "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\", \"float4\"]\nparams = { N = [65536] }\n");
  const BinaryOutcome run = runRooflab("run run.toml --phases --quiet", dir.path());
  ASSERT_EQ(run.exit_code, 0) << show(run);
  for (const char* line : {"phases (wall ", "start-up", "records: timed runs", "records: drift control",
                           "records: counters", "reports", "estimate: "})
    EXPECT_TRUE(contains(run.out, line)) << line << "\n" << show(run);

  const nlohmann::json results = readJsonFile(dir.path() / "out" / "results.json");
  const nlohmann::json& cost = results.at("cost");
  double sum = 0;
  for (const nlohmann::json& phase : cost.at("phases")) sum += phase.at("seconds").get<double>();
  EXPECT_NEAR(sum, cost.at("wall_seconds").get<double>(), 1e-6);
  EXPECT_EQ(cost.at("phases").back().at("name"), "other");
  const nlohmann::json& estimate = cost.at("estimate");
  EXPECT_GT(estimate.at("initial_seconds").get<double>(), 0);
  EXPECT_EQ(estimate.at("updates").size(), 2u);
  EXPECT_GT(estimate.at("actual_seconds").get<double>(), 0);
  EXPECT_TRUE(contains(results.at("drift_control").at("kernel").get<std::string>(), "rooflab_drift_control"));
  for (const nlohmann::json& record : results.at("records")) {
    EXPECT_GT(record.at("drift_control").at("median_ns").get<double>(), 0);
    EXPECT_GE(record.at("drift_control").at("repetitions_ns").size(), 1u);
    EXPECT_LE(record.at("drift_control").at("repetitions_ns").size(), record.at("timings").at("repetitions").size());
    EXPECT_TRUE(record.at("phase_seconds").contains("build"));
  }

  const BinaryOutcome report = runRooflab("report out/results.json --formats csv --phases", dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  EXPECT_TRUE(contains(report.out, "phases (wall ")) << show(report);
  EXPECT_TRUE(contains(report.out, "took ")) << show(report);
}

}  // namespace rooflab::testing
