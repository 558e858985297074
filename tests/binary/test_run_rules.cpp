// The rules every command that writes results holds to (run, merge, ab, tune), through the binary on
// PoCL: an output folder keeps the earlier run's results until the new ones exist and then leaves
// nothing of it beside them; no file rooflab did not write is overwritten; parts, journals and
// checkpoints of other kernels or settings are never mixed into one result, and what differs is named.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/json/json_file_io.hpp"
#include "binary/parts_workspace.hpp"
#include "tune/tunable_family.hpp"

using namespace rooflab;
using namespace rooflab::testing;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The adder batch at one size: two groups of two points, split in two parts.
void runTwoParts(const PartsWorkspace& w, const std::string& extra = "") {
  for (int part = 1; part <= 2; ++part) {
    const BinaryOutcome o = w.run("run cfg.toml --quiet --set N=1024 --shard " + std::to_string(part) +
                                  "/2 --out part" + std::to_string(part) + extra);
    ASSERT_EQ(o.exit_code, 0) << show(o);
  }
}

void writeJson(const fs::path& file, const json& j) { std::ofstream(file, std::ios::binary) << j.dump(2) << "\n"; }

}  // namespace

// A merge into a folder that holds a complete run: the earlier run's journal and charts do not stay
// beside the merged results, and the folder is the merge's once it has its results.
TEST(RunRules, MergeIntoAnEarlierRunsFolderLeavesNothingOfItBesideTheNewResults) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w("\"json\", \"png\"");
  ASSERT_EQ(w.run("run cfg.toml --quiet --set N=1024 --out W").exit_code, 0);
  const fs::path folder = w.dir.path() / "W";
  ASSERT_TRUE(fs::exists(folder / "journal.jsonl"));
  w.dir.write("W/notes.txt", "mine");
  runTwoParts(w);
  const BinaryOutcome o = w.run("merge part1 part2 --out W --formats json");
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_FALSE(fs::exists(folder / "journal.jsonl")) << "the earlier run's journal beside the merged results";
  for (const auto& entry : fs::directory_iterator(folder))
    EXPECT_NE(entry.path().extension(), ".png") << entry.path() << ": a chart of the earlier run";
  EXPECT_EQ(fileText(folder / "notes.txt"), "mine");
  ASSERT_TRUE(w.results("W").merge);
  // A second merge into it keeps the merge's results until its own exist, as `run` does.
  EXPECT_EQ(w.run("merge part1 part2 --out W --formats json").exit_code, 0);
  EXPECT_TRUE(contains(fileText(folder / ".rooflab-files"), "results.json"));
}

// A part's folder killed outright: its results.json is the first checkpoint, its journal holds every
// record. The merge reads the newest state, the journal, and finds nothing missing.
TEST(RunRules, MergeReadsTheNewestStateOfAKilledPartsFolder) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runTwoParts(w);
  json stale = readJsonFile(w.dir.path() / "part2/results.json");
  stale["status"] = "running";
  stale.erase("finished_at");
  stale["records"] = json::array({stale["records"][0]});
  writeJson(w.dir.path() / "part2/results.json", stale);
  const BinaryOutcome o = w.run("merge part1 part2 --out merged");
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_FALSE(contains(o.err, "have no record")) << o.err;
  EXPECT_TRUE(contains(o.err, "journal.jsonl")) << o.err;
  EXPECT_EQ(w.results("merged").records.size(), 4u);
}

// Completeness is about points: parts 1 and 2 of 5 hold every point of a batch of two groups.
TEST(RunRules, PartsThatHoldEveryPointAreComplete) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  for (int part = 1; part <= 2; ++part)
    ASSERT_EQ(w.run("run cfg.toml --quiet --set N=1024 --shard " + std::to_string(part) + "/5 --out part" +
                    std::to_string(part))
                  .exit_code,
              0);
  const BinaryOutcome o = w.run("merge part1 part2 --out merged");
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_FALSE(contains(o.err, "missing")) << o.err;
  EXPECT_EQ(w.results("merged").status, BatchStatus::complete);
}

// The merged file keeps what a part's file says of the whole run: the drift control, the cost.
TEST(RunRules, TheMergedFileKeepsTheRunsDriftControlAndCost) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runTwoParts(w);
  ASSERT_EQ(w.run("merge part1 part2 --out merged").exit_code, 0);
  const json part = readJsonFile(w.dir.path() / "part1/results.json");
  const json merged = readJsonFile(w.dir.path() / "merged/results.json");
  for (const char* key : {"drift_control", "cost"})
    if (part.contains(key)) EXPECT_TRUE(merged.contains(key)) << key;
  const BinaryOutcome phases = w.run("report merged/results.json --phases --formats json --out merged-report");
  EXPECT_FALSE(contains(phases.out + phases.err, "not recorded")) << show(phases);
  EXPECT_TRUE(contains(phases.out, "phases (wall ")) << show(phases);
}

// A sweep of sizes measures the launch floor its rate-versus-size chart draws; the merged file keeps
// it, and the sizes chosen, as each part's file does.
TEST(RunRules, TheMergedFileOfASizeSweepKeepsItsSizesAndLaunchFloor) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  w.dir.write(
      "sizes.toml",
      replaced(fileText(w.dir.path() / "cfg.toml"), "params = { N = [1024, 2048, 4096] }",
               "params = { N = { rule = \"fill\", waves = 16, max = 16384, sweep_from = 256, sweep_factor = 4 } }"));
  for (const char* part : {"1", "2"})
    ASSERT_EQ(w.run(std::string("run sizes.toml --quiet --shard ") + part + "/2 --out sizes" + part).exit_code, 0);
  const BinaryOutcome o = w.run("merge sizes1 sizes2 --out merged");
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const json part = readJsonFile(w.dir.path() / "sizes1/results.json");
  ASSERT_TRUE(part.contains("launch_floor_ns")) << "the part swept no size";
  const json merged = readJsonFile(w.dir.path() / "merged/results.json");
  EXPECT_EQ(merged.value("launch_floor_ns", json()), part["launch_floor_ns"]);
  EXPECT_EQ(merged.value("size_choices", json()), part["size_choices"]);
}

// A part run after a kernel file was edited is of another batch, and the merge says the sources
// differ; so does a part whose id was edited to match while its settings differ, and a record edited
// to a variant the batch does not plan is refused.
TEST(RunRules, MergeRefusesPartsOfOtherKernelContentsOrSettings) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runTwoParts(w);
  const std::string source = fileText(w.dir.path() / "kernels/adder/add.cl");
  w.dir.write("kernels/adder/add.cl", replaced(source, "1.0f", "1.0f + 0.0f"));
  ASSERT_EQ(w.run("run cfg.toml --quiet --set N=1024 --shard 2/2 --out edited").exit_code, 0);
  const BinaryOutcome sources = w.run("merge part1 edited --out merged");
  EXPECT_EQ(sources.exit_code, 2) << show(sources);
  EXPECT_TRUE(contains(sources.err, "kernel sources")) << sources.err;

  // Part 2 run with other repetitions and warm-up, its id then edited to part 1's.
  w.dir.write("kernels/adder/add.cl", source);
  w.dir.write("other.toml",
              replaced(replaced(fileText(w.dir.path() / "cfg.toml"), "repetitions = 1", "repetitions = 2"),
                       "warmup = 0", "warmup = 1"));
  ASSERT_EQ(w.run("run other.toml --quiet --set N=1024 --shard 2/2 --out other").exit_code, 0);
  json forged = readJsonFile(w.dir.path() / "other/results.json");
  forged["batch"]["id"] = readJsonFile(w.dir.path() / "part1/results.json")["batch"]["id"];
  writeJson(w.dir.path() / "other/results.json", forged);
  const BinaryOutcome settings = w.run("merge part1 other --out merged");
  EXPECT_EQ(settings.exit_code, 2) << show(settings);
  EXPECT_TRUE(contains(settings.err, "repetitions: 1 in part1, 2 in other")) << settings.err;
  // diff compares such runs, and says which settings differ.
  const BinaryOutcome diff = w.run("diff part2/results.json other/results.json");
  EXPECT_TRUE(contains(diff.out + diff.err, "repetitions 1 in OLD, 2 in NEW")) << show(diff);

  json ghost = readJsonFile(w.dir.path() / "part1/results.json");
  ghost["records"][0]["variant"] = "ghost";
  writeJson(w.dir.path() / "ghost.json", ghost);
  runTwoParts(w, "b");
  const BinaryOutcome outside = w.run("merge ghost.json part2b --out merged");
  EXPECT_EQ(outside.exit_code, 2) << show(outside);
  EXPECT_TRUE(contains(outside.err, "ghost")) << outside.err;
  EXPECT_FALSE(fs::exists(w.dir.path() / "merged"));
}

// A record edited to a point the batch does not plan (another size) is refused too, naming it.
TEST(RunRules, MergeRefusesARecordMovedToAPointOutsideTheBatch) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runTwoParts(w);
  json moved = readJsonFile(w.dir.path() / "part1/results.json");
  moved["records"][0]["params"]["N"] = 999;
  writeJson(w.dir.path() / "moved.json", moved);
  const BinaryOutcome o = w.run("merge moved.json part2 --out merged");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "N=999")) << o.err;
  EXPECT_FALSE(fs::exists(w.dir.path() / "merged"));
}

// `rooflab ab` never overwrites a side's file it did not write, and runs both sides with one [run]
// section, saying which of the candidate's settings it does not use.
TEST(RunRules, AbKeepsAFileItDidNotWriteAndRunsBothSidesAlike) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  w.dir.write("D/baseline/results.json", "{\"mine\": true}\n");
  const BinaryOutcome refused =
      w.run("ab cfg.toml --baseline-kernels kernels --candidate-kernels kernels --set N=1024 --out D");
  EXPECT_EQ(refused.exit_code, 2) << show(refused);
  EXPECT_TRUE(contains(refused.err, "baseline/results.json")) << refused.err;
  EXPECT_EQ(fileText(w.dir.path() / "D/baseline/results.json"), "{\"mine\": true}\n");

  const std::string config = fileText(w.dir.path() / "cfg.toml");
  w.dir.write("cand.toml", replaced(replaced(replaced(config, "repetitions = 1", "repetitions = 3"),
                                             "modes = [\"normal\", \"memory-only\"]", "modes = [\"normal\"]"),
                                    "device = \"cpu\"", "device = \"gpu\""));
  const BinaryOutcome ab = w.run("ab cfg.toml cand.toml --set N=1024 --quiet --out E");
  EXPECT_TRUE(contains(ab.err, "repetitions")) << show(ab);
  EXPECT_TRUE(contains(ab.err, "modes")) << show(ab);
  EXPECT_TRUE(contains(ab.err, "[run] device = gpu")) << show(ab);
  EXPECT_EQ(w.results("E/baseline").records.size(), w.results("E/candidate").records.size());
}

// A point listed twice by --set runs once or is refused: never a results file report refuses.
TEST(RunRules, APointListedTwiceIsRefused) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const BinaryOutcome o = w.run("run cfg.toml --quiet --set N=1024,1024 --out twice");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "1024")) << o.err;
}

namespace {

std::size_t countText(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

// The tuning journal holds what was measured with these kernels and settings: an edited kernel, or
// other repetitions, measure again and say why; a torn last line is dropped and said, and the next
// entry starts a line of its own.
TEST(RunRules, TheTuneJournalIsNotReusedForOtherKernelsOrSettings) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("tune.toml", kTunableFamilyConfig);
  const BinaryOutcome first = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  ASSERT_EQ(first.exit_code, 0) << show(first);

  const std::string source = fileText(dir.path() / "kernels/tadd/tadd.cl");
  dir.write("kernels/tadd/tadd.cl", "#error \"broken\"\n" + source);
  const BinaryOutcome broken = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_NE(broken.exit_code, 0) << show(broken);
  EXPECT_FALSE(contains(broken.err, "(from the journal)")) << broken.err;
  EXPECT_TRUE(contains(broken.err, "kernel sources")) << broken.err;

  dir.write("kernels/tadd/tadd.cl", source);
  dir.write("tune.toml", replaced(kTunableFamilyConfig, "repetitions = 2", "repetitions = 3"));
  const BinaryOutcome more = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_EQ(more.exit_code, 0) << show(more);
  EXPECT_FALSE(contains(more.err, "(from the journal)")) << more.err;
  EXPECT_TRUE(contains(more.err, "repetitions")) << more.err;

  // Tear the last line: it is dropped with a warning, measured again once, and the journal's lines
  // all parse afterwards.
  const fs::path journal = dir.path() / "out/tune-journal.jsonl";
  std::string text = fileText(journal);
  text.resize(text.size() - 20);
  std::ofstream(journal, std::ios::binary | std::ios::trunc) << text;
  const BinaryOutcome resumed = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_EQ(resumed.exit_code, 0) << show(resumed);
  EXPECT_TRUE(contains(resumed.err, "torn")) << resumed.err;
  EXPECT_EQ(countText(resumed.err, "(from the journal)"), 1u) << resumed.err;
  std::istringstream lines(fileText(journal));
  for (std::string line; std::getline(lines, line);)
    EXPECT_FALSE(json::parse(line, nullptr, false).is_discarded()) << line;
  const BinaryOutcome again = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_EQ(countText(again.err, "(from the journal)"), 2u) << again.err;
}

// A tune that failed on a broken kernel: once the kernel is fixed, its configurations are measured
// again, not taken from the journal as they failed.
TEST(RunRules, AKernelFixedAfterAFailedTuneIsMeasuredAgain) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("tune.toml", kTunableFamilyConfig);
  const std::string source = fileText(dir.path() / "kernels/tadd/tadd.cl");
  dir.write("kernels/tadd/tadd.cl", "#error \"broken\"\n" + source);
  const BinaryOutcome broken = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_NE(broken.exit_code, 0) << show(broken);

  dir.write("kernels/tadd/tadd.cl", source);
  const BinaryOutcome fixed = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  EXPECT_EQ(fixed.exit_code, 0) << show(fixed);
  EXPECT_FALSE(contains(fixed.err, "(from the journal)")) << fixed.err;
  EXPECT_TRUE(contains(fixed.err, "[1/2] WG=32 VPI=1 FLAW=0: ")) << fixed.err;
  EXPECT_FALSE(contains(fixed.err, "FLAW=0: build_failed")) << fixed.err;
}

// A studied variant named as the tuned rung would be: the rung takes another name, and the results
// file has one record per name, which report reads.
TEST(RunRules, TheTunedRungNeverTakesAStudiedVariantsName) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("kernels/tadd/family.toml",
            fileText(dir.path() / "kernels/tadd/family.toml") +
                "[[variants]]\nname = \"add_tuned\"\nsource = \"tadd.cl\"\nkernel = \"tadd\"\n"
                "args = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"WG*ceil(N/WG)\"]\nlocal = [\"WG\"]\n"
                "defines = { VPI = 1, FLAW = 0 }\n");
  dir.write("tune.toml", kTunableFamilyConfig);
  const BinaryOutcome tuned = runRooflab("tune tune.toml --searcher exhaustive --budget 2", dir.path());
  ASSERT_EQ(tuned.exit_code, 0) << show(tuned);
  const json results = readJsonFile(dir.path() / "out/results.json");
  std::set<std::string> names;
  for (const json& record : results["records"])
    EXPECT_TRUE(names.insert(record["variant"].get<std::string>()).second) << record["variant"];
  const BinaryOutcome report = runRooflab("report out/results.json --formats json --out rep", dir.path());
  EXPECT_EQ(report.exit_code, 0) << show(report);
}
