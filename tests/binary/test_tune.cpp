// `rooflab tune` on PoCL, as a user runs it: a small space of a family written as users write one,
// with constraints that refuse configurations, a budget that ends the search, a configuration that
// fails to build and one that computes a wrong sum (both recorded and skipped), a Ctrl-C that keeps
// what was measured, a journal that a second run resumes from, and the tuned rung, the space's CSV and a manifest entry
// that keeps it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <signal.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "analyzer/json/json_file_io.hpp"
#include "background_run.hpp"
#include "test_support.hpp"
#include "tune/tunable_family.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rooflab::testing {
namespace {

const char* const kConfig = R"([run]
device = "cpu"
repetitions = 2
warmup = 0
max_time = 0.02
counters = "off"
ceilings = "datasheet"
formats = ["json", "csv", "html"]
kernels = ["kernels"]
out = "out"
[[study]]
family = "tadd"
)";

std::size_t lines(const fs::path& file) {
  std::istringstream text(fileText(file));
  std::size_t count = 0;
  for (std::string line; std::getline(text, line);) count += !line.empty();
  return count;
}

// Rows of the space's CSV: a build failure's reason holds the compiler's log, lines and all.
std::size_t configurationRows(const fs::path& csv) {
  std::istringstream text(fileText(csv));
  std::size_t count = 0;
  for (std::string line; std::getline(text, line);) count += line.rfind("32,", 0) == 0 || line.rfind("64,", 0) == 0;
  return count;
}

std::size_t countOutcome(const json& tuning, const std::string& outcome, bool resumed_only = false) {
  std::size_t count = 0;
  for (const json& c : tuning["configurations"])
    count += c["outcome"] == outcome && (!resumed_only || c.value("resumed", false));
  return count;
}

TEST(Tune, ABudgetedSearchSkipsWhatFailsAndASecondRunResumesFromTheJournal) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("tune.toml", kConfig);

  // The variant as written first (WG=32, VPI=1, FLAW=0), then the space's order: FLAW=1 does not
  // build, FLAW=2 sums wrong, then WG=32 VPI=2 FLAW=0 and FLAW=1: five evaluations.
  BinaryOutcome first = runRooflab("tune tune.toml --searcher exhaustive --budget 5", dir.path());
  ASSERT_EQ(first.exit_code, 0) << show(first);
  EXPECT_TRUE(contains(first.err, "rooflab: tune tadd/add N=4096 WG=32: 12 configurations, 9 valid (3 refused; e.g. "
                                  "constraint 'WG*VPI <= 64' is false); exhaustive searcher, at most 5 evaluations"))
      << show(first);
  EXPECT_TRUE(contains(first.err, "[2/5] WG=32 VPI=1 FLAW=1: build_failed")) << show(first);
  EXPECT_TRUE(contains(first.err, "[3/5] WG=32 VPI=1 FLAW=2: verification_failed")) << show(first);
  EXPECT_TRUE(contains(first.out, "stopped: the budget of 5 evaluations was spent")) << show(first);
  const fs::path out = dir.path() / "out";
  EXPECT_EQ(lines(out / "tune-journal.jsonl"), 5u);

  json results = readJsonFile(out / "results.json");
  ASSERT_EQ(results["tuning"].size(), 1u);
  json tuning = results["tuning"][0];
  EXPECT_EQ(tuning["evaluations"], 5);
  EXPECT_EQ(tuning["valid"], 9);
  EXPECT_EQ(countOutcome(tuning, "invalid"), 3u);
  EXPECT_EQ(countOutcome(tuning, "build_failed"), 2u);
  EXPECT_EQ(countOutcome(tuning, "verification_failed"), 1u);
  EXPECT_EQ(countOutcome(tuning, "ok"), 2u);
  for (const json& c : tuning["configurations"]) {
    if (c["outcome"] == "build_failed") EXPECT_TRUE(contains(c["reason"], "FLAW = 1 does not build")) << c.dump();
    if (c["outcome"] == "verification_failed") EXPECT_TRUE(contains(c["reason"], "verification failed")) << c.dump();
  }
  ASSERT_TRUE(tuning["best"].is_number());
  EXPECT_EQ(tuning["configurations"][tuning["best"].get<std::size_t>()]["values"][2], 0);  // a FLAW = 0 one
  EXPECT_EQ(tuning["tuned_variant"], "add_tuned");
  std::vector<std::string> variants;
  for (const json& record : results["records"]) variants.push_back(record["variant"]);
  EXPECT_EQ(variants, (std::vector<std::string>{"add", "add_tuned"}));  // as written, and the tuned rung
  EXPECT_TRUE(results["records"][1]["roofline"].contains("gtx670"));    // placed as any record
  EXPECT_EQ(configurationRows(out / "tune-tadd-add.csv"), 12u);         // the whole space
  EXPECT_TRUE(contains(fileText(out / "report.html"), "<h3>Tuning add</h3>"));

  // The tuned entry is a variant the manifest reads.
  const std::string snippet = fileText(out / "tuned-tadd-add.toml");
  EXPECT_TRUE(contains(snippet, "name = \"add_tuned\"")) << snippet;
  dir.write("kernels/tadd/family.toml", fileText(dir.path() / "kernels/tadd/family.toml") + "\n" + snippet);
  const BinaryOutcome list = runRooflab("list --kernels kernels", dir.path());
  EXPECT_EQ(list.exit_code, 0) << show(list);
  EXPECT_TRUE(contains(list.out, "add_tuned")) << show(list);

  // Without a budget the search goes on from the journal: its five come from there, then a Ctrl-C
  // ends the search after the configuration that runs, and keeps what was measured.
  {
    BackgroundRun run(rooflabCommand() + " tune tune.toml --searcher exhaustive", dir.path(),
                      dir.path() / "interrupted.log");
    ASSERT_TRUE(run.waitForOutput("[6/9]")) << run.text();
    run.signal(SIGINT);
    ASSERT_EQ(run.wait(120), 130) << run.text();
    EXPECT_TRUE(contains(run.text(), "[5/9] WG=32 VPI=2 FLAW=1: build_failed (from the journal)")) << run.text();
  }
  tuning = readJsonFile(out / "results.json")["tuning"][0];
  EXPECT_EQ(tuning["stop_reason"], "interrupted");
  const std::size_t interrupted_at = tuning["evaluations"];
  EXPECT_GE(interrupted_at, 6u);
  EXPECT_LT(interrupted_at, 9u);
  EXPECT_EQ(lines(out / "tune-journal.jsonl"), interrupted_at);

  // A second run resumes: what the journal holds is not run again, the rest is.
  const BinaryOutcome resumed = runRooflab("tune tune.toml --searcher exhaustive", dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << show(resumed);
  EXPECT_EQ(lines(out / "tune-journal.jsonl"), 9u);
  tuning = readJsonFile(out / "results.json")["tuning"][0];
  EXPECT_EQ(tuning["evaluations"], 9);
  EXPECT_EQ(tuning["stop_reason"], "every valid configuration was tried");
  EXPECT_EQ(countOutcome(tuning, "ok", true) + countOutcome(tuning, "build_failed", true) +
                countOutcome(tuning, "verification_failed", true),
            interrupted_at);

  // The guided searcher, journal emptied: its own configuration first, within its budget.
  const BinaryOutcome guided = runRooflab("tune tune.toml --searcher guided --budget 3 --fresh", dir.path());
  ASSERT_EQ(guided.exit_code, 0) << show(guided);
  EXPECT_EQ(lines(out / "tune-journal.jsonl"), 3u);
  tuning = readJsonFile(out / "results.json")["tuning"][0];
  EXPECT_EQ(tuning["searcher"], "guided");
  EXPECT_EQ(tuning["evaluations"], 3);
  EXPECT_EQ(tuning["configurations"][tuning["baseline"].get<std::size_t>()]["order"], 1);
}

TEST(Tune, AConfigWithoutATuningSpaceIsAnInputError) {
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  dir.write("c.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\n");
  const BinaryOutcome outcome = runRooflab("tune c.toml", dir.path());
  EXPECT_EQ(outcome.exit_code, 2) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "no studied variant declares a tuning space")) << show(outcome);
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  const BinaryOutcome searcher = runRooflab("tune c.toml --searcher annealing", dir.path());
  EXPECT_EQ(searcher.exit_code, 2) << show(searcher);
  EXPECT_TRUE(contains(searcher.err, "--searcher: unknown searcher 'annealing'")) << show(searcher);
}

}  // namespace
}  // namespace rooflab::testing
