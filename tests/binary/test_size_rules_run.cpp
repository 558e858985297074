// Size rules and the rate-versus-size view on PoCL, as a user sees them: the size a rule chose is
// printed, kept in the results and shown in the report; a rule's sweep gives the rate-versus-size
// chart (HTML, PNG, CSV) over the launch floor; an explicit number still wins.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "analyzer/json/json_file_io.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rooflab::testing {
namespace {

const char* const kStudy = R"([[study]]
family = "vecadd"
variants = ["global", "float4"]
params = { N = { rule = "fill", waves = 16, max = 65536, sweep_from = 1024, sweep_factor = 4 } }
)";

TEST(SizeRulesRun, TheChosenSizeIsPrintedKeptAndSweptIntoARateVersusSizeChart) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  dir.write("sizes.toml",
            replaced(kQuickCpuRun, "formats = [\"json\"]", "formats = [\"json\", \"csv\", \"html\", \"png\"]") +
                std::string(kStudy));
  const BinaryOutcome outcome = runRooflab("run sizes.toml", dir.path());
  ASSERT_EQ(outcome.exit_code, 0) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "rooflab: vecadd: N = ")) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "(size rule \"fill\"): waves: 16 x ")) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "kernel time: not estimated (no roofs known for this device)")) << show(outcome);

  const json results = readJsonFile(dir.path() / "out/results.json");
  ASSERT_EQ(results["size_choices"].size(), 1u);
  const json& choice = results["size_choices"][0];
  EXPECT_EQ(choice["param"], "N");
  // float4's N/1024 work-groups decide: 16 x the host's cores, or the rule's max on a host of many.
  EXPECT_TRUE(choice["limited_by"] == "waves" || choice["limited_by"] == "max") << choice.dump();
  const std::vector<double> values = choice["values"];
  ASSERT_GE(values.size(), 3u);  // 1024, 4096, 16384 and the chosen size
  EXPECT_EQ(values.front(), 1024);
  EXPECT_EQ(values.back(), choice["value"].get<double>());
  EXPECT_TRUE(results["config"]["study"][0]["params"]["N"].is_object()) << "the config as run keeps the rule";
  EXPECT_EQ(results["records"].size(), 2 * values.size());
  EXPECT_GT(results["launch_floor_ns"].get<double>(), 0);

  const std::string html = fileText(dir.path() / "out/report.html");
  EXPECT_TRUE(contains(html, "Sizes chosen for this device")) << "the choice under the family's heading";
  EXPECT_TRUE(contains(html, "<h3>Rate against size</h3>"));
  EXPECT_TRUE(contains(html, "launch floor"));
  EXPECT_TRUE(contains(html, "Half-plateau N"));
  const std::string csv = fileText(dir.path() / "out/rate-vs-size-vecadd.csv");
  EXPECT_TRUE(contains(csv, "variant,others,param,size,rate,unit,median_ns,plateau_rate,half_plateau_size")) << csv;
  EXPECT_TRUE(contains(csv, "float4,,N,1024,")) << csv;
#ifdef ROOFLAB_HAVE_CAIRO
  EXPECT_TRUE(fs::exists(dir.path() / "out/rate-vs-size-vecadd.png"));
#endif

  // An explicit number wins over the rule.
  const BinaryOutcome set = runRooflab("run sizes.toml --set N=2048", dir.path());
  ASSERT_EQ(set.exit_code, 0) << show(set);
  EXPECT_FALSE(contains(set.err, "size rule")) << show(set);
  const json explicit_results = readJsonFile(dir.path() / "out/results.json");
  EXPECT_FALSE(explicit_results.contains("size_choices"));
  EXPECT_EQ(explicit_results["records"][0]["params"]["N"], 2048);
}

}  // namespace
}  // namespace rooflab::testing
