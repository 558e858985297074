// Loops that must end and options that must be checked, through the binary as a user runs it: a
// tuning space too large to check, a size rule's sweep of too many steps, options whose text the
// command line took as given (--shard "", --device "cpu,", --seed -1, Slurm's variables), and
// messages that say what happened (an infinite output, a name holding an escape sequence, a size
// that did not evaluate, a diff of medians that moved).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "analyzer/json/json_file_io.hpp"
#include "background_run.hpp"
#include "binary/parts_workspace.hpp"
#include "test_support.hpp"
#include "tune/tunable_family.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rooflab::testing {
namespace {

// A run that would hang on a loop that never ends is cut short here: exit 124, a failure.
const char* const kTimeLimit = "timeout -s KILL 60 ";

// A one-variant vecadd family whose global size is `global`.
void writeVaddFamily(const TempDir& dir, const std::string& global) {
  dir.write("kernels/vadd/family.toml", vecaddFamilyHeader("vadd") +
                                            "[[variants]]\nname = \"plain\"\nsource = \"vadd.cl\"\n"
                                            "kernel = \"vadd\"\nargs = [\"a\", \"b\", \"c\"]\nglobal = [\"" +
                                            global + "\"]\nlocal = [\"64\"]\n");
  dir.write("kernels/vadd/vadd.cl",
            "kernel void vadd(global const float* a, global const float* b, global float* c) {\n"
            "  const size_t i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n");
}

std::string valueList(int count) {
  std::string text = "[";
  for (int i = 1; i <= count; ++i) text += (i > 1 ? ", " : "") + std::to_string(i);
  return text + "]";
}

// The tunable family with its space replaced by `space` (the lines under [variants.tune.params]).
void writeFamilyWithSpace(const TempDir& dir, const std::string& space) {
  writeTunableFamily(dir);
  const fs::path manifest = dir.path() / "kernels/tadd/family.toml";
  dir.write("kernels/tadd/family.toml",
            replaced(fileText(manifest), "WG = [32, 64]\nVPI = [1, 2]\nFLAW = [0, 1, 2]\n", space));
}

TEST(LoopBounds, ATuningSpaceTooLargeToCheckIsAnInputErrorBeforeAnythingIsCreated) {
  TempDir dir;
  writeFamilyWithSpace(dir, "A = " + valueList(100) + "\nB = " + valueList(100) + "\nC = " + valueList(100) + "\n");
  dir.write("tune.toml", kTunableFamilyConfig);
  const BinaryOutcome o = runRooflab("tune tune.toml --budget 3", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "variants[0].tune.params")) << show(o);
  EXPECT_TRUE(
      contains(o.err, "the space has 1000000 configurations (A 100 x B 100 x C 100 values), more than the 2048"))
      << show(o);
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << show(o);
}

// The largest space allowed takes seconds to check and to hand to the worker; a Ctrl-C there ends
// the command within a second (nothing was measured), as one during the search keeps what was.
TEST(LoopBounds, ACtrlCWhileALargeSpaceIsPreparedEndsTheCommandAtOnce) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeFamilyWithSpace(dir, "WG = [32, 64]\nX = " + valueList(1000) + "\n");
  dir.write("tune.toml", kTunableFamilyConfig);
  BackgroundRun run(rooflabCommand() + " tune tune.toml --budget 3", dir.path(), dir.path() / "tune.log");
  ASSERT_TRUE(run.waitUntil([&] { return fs::exists(dir.path() / "out"); }, 60)) << run.text();
  run.signal(SIGINT);
  const auto signalled = Clock::now();
  const int exit_code = run.wait(30);
  const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  EXPECT_EQ(exit_code, 130) << run.text();
  EXPECT_LT(seconds, 2.0) << run.text();
  EXPECT_FALSE(contains(run.text(), "[1/3]")) << run.text();
}

// The space of a million configurations as a user tuned it, and two Ctrl-Cs a second later: the
// command has ended by then (the space is refused) or ends at once; it never goes on without a word.
TEST(LoopBounds, CtrlCEndsATuneOfAMillionConfigurationsAtOnce) {
  TempDir dir;
  writeFamilyWithSpace(dir, "A = " + valueList(100) + "\nB = " + valueList(100) + "\nC = " + valueList(100) + "\n");
  dir.write("tune.toml", kTunableFamilyConfig);
  BackgroundRun run(rooflabCommand() + " tune tune.toml --budget 3", dir.path(), dir.path() / "tune.log");
  run.waitUntil([] { return false; }, 1.0);
  run.signal(SIGINT);
  run.signal(SIGINT);
  const auto signalled = Clock::now();
  const int exit_code = run.wait(10);
  const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  EXPECT_TRUE(exit_code == 2 || exit_code == 130) << "exit " << exit_code << "\n" << run.text();
  EXPECT_LT(seconds, 2.0) << run.text();
  EXPECT_FALSE(contains(run.text(), "[1/3]")) << run.text();
}

TEST(LoopBounds, AnEmptyListOfValuesSaysItIsEmpty) {
  TempDir dir;
  writeFamilyWithSpace(dir, "WG = [32, 64]\nUNR = []\n");
  dir.write("tune.toml", kTunableFamilyConfig);
  const BinaryOutcome o = runRooflab("tune tune.toml", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "UNR: is an empty array: give at least one value to try")) << show(o);
}

TEST(LoopBounds, ASizeSweepOfTooManyStepsNamesItsFactor) {
  TempDir dir;
  writeVaddFamily(dir, "N");
  dir.write("run.toml", std::string(kQuickCpuRun) + R"([[study]]
family = "vadd"
params = { N = { rule = "fill", max = 65536, sweep_from = 64, sweep_factor = 1.0000000000000002 } }
)");
  const BinaryOutcome o = runRooflab("run run.toml --quiet", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "sweep_factor")) << show(o);
  EXPECT_TRUE(contains(o.err, "a sweep has at most 256 steps: use a factor of at least 1.028")) << show(o);
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << show(o);
}

TEST(OptionChecks, EmptyOrWrongSelectorsShardsAndSeedsAreInputErrorsBeforeAnythingIsCreated) {
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("tune.toml", kTunableFamilyConfig);
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"tadd\"\n");
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"run run.toml --shard ''", "--shard '': expected I/N"},
      {"run run.toml --device 'cpu,'", "--device 'cpu,': selector 2 is empty"},
      {"run run.toml --device ''", "--device '': names no device"},
      {"tune tune.toml --device cpu,cpu", "--device 'cpu,cpu': this command runs on one device"},
      {"tune tune.toml --device all", "--device 'all': this command runs on one device, and all names every device"},
      {"tune tune.toml --seed -1", "--seed '-1': expected a whole number from 0 to 18446744073709551615"},
      {"run run.toml --repetitions 0", "--repetitions 0: must be 1 to 100000"},
      {"run run.toml --max-noise 0", "--max-noise 0: must be a finite number above 0"},
      {"tune tune.toml --min-time -1", "--min-time -1: must be a finite number, 0 or above"},
      {"run run.toml --min-time 2 --max-time 1",
       "--min-time (2 s) must not exceed --max-time or the config's max_time (1 s)"},
  };
  for (const Case& c : cases) {
    const BinaryOutcome o = runRooflab(c.args, dir.path(), kTimeLimit);
    EXPECT_EQ(o.exit_code, 2) << c.args << "\n" << show(o);
    EXPECT_TRUE(contains(o.err, c.message)) << c.args << "\n" << show(o);
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << c.args << "\n" << show(o);
  }
  // Several mistakes at once, each on its line.
  const BinaryOutcome both = runRooflab("tune tune.toml --seed -1 --device all --budget 0", dir.path(), kTimeLimit);
  EXPECT_EQ(both.exit_code, 2) << show(both);
  EXPECT_TRUE(contains(both.err, "--seed '-1'") && contains(both.err, "--device 'all'") &&
              contains(both.err, "--budget"))
      << show(both);
}

// The measurement flags override the config's keys of the same names, for the run and its records.
TEST(OptionChecks, MeasurementFlagsOverTheConfigsRunKeys) {
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"tadd\"\nvariants = [\"add\"]\n");
  const BinaryOutcome o = runRooflab("run run.toml --quiet --formats json --repetitions 3 --max-noise 0.5 --min-time 0 "
                                     "--max-time 0.05",
                                     dir.path(), kTimeLimit);
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.err, "at least 3 timed runs each, to ±50% noise within 0.05 s")) << show(o);
  const ResultsDocument results = readResultsFile(dir.path() / "out" / "results.json");
  ASSERT_TRUE(results.config);
  EXPECT_EQ(results.config->run.repetitions, 3);
  EXPECT_DOUBLE_EQ(results.config->run.max_noise, 0.5);
  EXPECT_DOUBLE_EQ(results.config->run.max_time_s, 0.05);
  ASSERT_FALSE(results.records.empty());
  for (const RunRecord& record : results.records) {
    ASSERT_TRUE(record.timings) << record.label();
    EXPECT_GE(record.timings->repetitions.size(), 3u) << record.label();
  }
}

// --only runs the variants it names, out of every study of the config; a pattern that names none of
// them is an input error listing the batch's variants.
TEST(OptionChecks, OnlyRunsTheVariantsItNames) {
  TempDir dir;
  fs::create_directories(dir.path() / "kernels");  // the quick run's folder: the built-in families suffice
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vecadd\"\nparams = { N = 4096 }\n"
                                                    "[[study]]\nfamily = \"reduce\"\nparams = { N = 65536 }\n");
  const BinaryOutcome o =
      runRooflab("run run.toml --quiet --formats json --only 'vecadd/g*,reduce/step1*'", dir.path(), kTimeLimit);
  ASSERT_EQ(o.exit_code, 0) << show(o);
  std::set<std::string> ran;
  for (const RunRecord& record : readResultsFile(dir.path() / "out" / "results.json").records)
    ran.insert(record.family + "/" + record.variant);
  EXPECT_EQ(ran, (std::set<std::string>{"vecadd/global", "reduce/step1_interleaved_divergent"}));
  const BinaryOutcome none =
      runRooflab("run run.toml --quiet --only 'vecadd/g*' --only 'matmul/*' --out other", dir.path(), kTimeLimit);
  EXPECT_EQ(none.exit_code, 2) << show(none);
  EXPECT_TRUE(contains(none.err, "--only 'matmul/*': no variant of the batch matches")) << show(none);
  EXPECT_TRUE(contains(none.err, "vecadd/global")) << show(none);
  EXPECT_FALSE(fs::exists(dir.path() / "other")) << show(none);
}

// --quiet in report and merge means what it means in run: nothing on the terminal but warnings and
// errors, and every file still written.
TEST(OptionChecks, ReportAndMergeQuietPrintNothingButStillWrite) {
  TempDir dir;
  const std::string saved =
      std::string(ROOFLAB_SOURCE_DIR) + "/bench/results/2026-11-22-h100-catalogue/default-config.json";
  const BinaryOutcome report = runRooflab("report " + saved + " --out quiet --formats html,csv --quiet", dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  EXPECT_EQ(report.out, "") << show(report);
  EXPECT_EQ(report.err, "") << show(report);
  EXPECT_TRUE(fs::exists(dir.path() / "quiet" / "report.html"));
  EXPECT_TRUE(fs::exists(dir.path() / "quiet" / "results.csv"));
  const BinaryOutcome loud = runRooflab("report " + saved + " --out loud --formats csv", dir.path());
  EXPECT_TRUE(contains(loud.out, "reports written to")) << show(loud);

  const std::string part = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fuzz/seeds/merge_parts/finished-part.json";
  const BinaryOutcome merge = runRooflab("merge " + part + " --out merged --formats json --quiet", dir.path());
  EXPECT_EQ(merge.out, "") << show(merge);
  EXPECT_TRUE(fs::exists(dir.path() / "merged" / "results.json")) << show(merge);
  const BinaryOutcome merge_loud = runRooflab("merge " + part + " --out merged-loud --formats json", dir.path());
  EXPECT_EQ(merge_loud.exit_code, merge.exit_code) << show(merge_loud);
  EXPECT_TRUE(contains(merge_loud.out, "merged 1 part")) << show(merge_loud);
}

// `ceilings --out` names a folder, as in every other command; a file there is refused before any
// benchmark runs, naming it.
TEST(OptionChecks, CeilingsOutThatIsAFileIsAnInputErrorNamingIt) {
  TempDir dir;
  const fs::path file = dir.write("measured.toml", "earlier model\n");
  const BinaryOutcome o = runRooflab("ceilings --device cpu --out " + file.string(), dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "ceilings --out " + file.string() + ": not a folder")) << show(o);
  EXPECT_FALSE(contains(o.err, "measuring ceilings")) << show(o);
  EXPECT_EQ(fileText(file), "earlier model\n");
}

// A model file in the folder that rooflab did not write is the user's: refused before any benchmark,
// and left as it was.
TEST(OptionChecks, CeilingsOutKeepsAModelFileItDidNotWrite) {
  TempDir dir;
  const fs::path mine = dir.write("models/device-model.toml", "my hand-made model\n");
  const BinaryOutcome o =
      runRooflab("ceilings --device cpu --out " + mine.parent_path().string(), dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, mine.string() + " was not written by rooflab")) << show(o);
  EXPECT_FALSE(contains(o.err, "measuring ceilings")) << show(o);
  EXPECT_EQ(fileText(mine), "my hand-made model\n");
}

TEST(OptionChecks, SlurmsVariablesThatNameNoPartAreRefusedSayingWhich) {
  TempDir dir;
  writeTunableFamily(dir);
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"tadd\"\n");
  // --array=1,3,7: three tasks that are not evenly spaced; task 3 is not part 3 of 3, nor part 2.
  const BinaryOutcome uneven =
      runRooflab("run run.toml --shard slurm --quiet", dir.path(),
                 std::string(kTimeLimit) + "env SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 "
                                           "SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_COUNT=3 ");
  EXPECT_EQ(uneven.exit_code, 2) << show(uneven);
  EXPECT_TRUE(contains(uneven.err, "the job array is not evenly spaced: 3 tasks from 1 to 7 by 1")) << show(uneven);
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << show(uneven);
  const BinaryOutcome no_count = runRooflab("run run.toml --shard slurm --quiet", dir.path(),
                                            std::string(kTimeLimit) + "env SLURM_ARRAY_TASK_ID=2 ");
  EXPECT_EQ(no_count.exit_code, 2) << show(no_count);
  EXPECT_TRUE(contains(no_count.err, "SLURM_ARRAY_TASK_ID=2 is set, but not SLURM_ARRAY_TASK_COUNT")) << show(no_count);
  EXPECT_FALSE(contains(no_count.err, "neither")) << show(no_count);
}

TEST(Messages, AnEscapeSequenceInANameIsShownAsTextNotSentToTheTerminal) {
  TempDir dir;
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"evil\\u001b[2Jname\"\n");
  fs::create_directories(dir.path() / "kernels");
  const BinaryOutcome o = runRooflab("run run.toml --quiet", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_FALSE(contains(o.err, "\x1b")) << show(o);
  EXPECT_TRUE(contains(o.err, "evil\\x1b[2Jname")) << show(o);
}

TEST(Messages, ASizeThatDoesNotEvaluateIsReportedOnceNotAgainAsAStandIn) {
  TempDir dir;
  writeVaddFamily(dir, "N*1e30");
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vadd\"\n");
  const BinaryOutcome o = runRooflab("run run.toml --quiet", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "global")) << show(o);
  EXPECT_FALSE(contains(o.err, "is not a multiple of local size")) << show(o);
}

TEST(Messages, AnInfiniteOutputIsCalledInfiniteNotUnwritten) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/vinf/family.toml", vecaddFamilyHeader("vinf") + R"([[variants]]
name = "overflows"
source = "vinf.cl"
kernel = "vinf"
args = ["a", "b", "c"]
global = ["N"]
local = ["64"]
)");
  dir.write("kernels/vinf/vinf.cl",
            "kernel void vinf(global const float* a, global const float* b, global float* c) {\n"
            "  c[get_global_id(0)] = INFINITY;\n}\n");
  dir.write("run.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vinf\"\n");
  const BinaryOutcome o = runRooflab("run run.toml --quiet", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const json results = readJsonFile(dir.path() / "out/results.json");
  const std::string detail = results["records"][0]["verification"].value("detail", "");
  EXPECT_TRUE(contains(detail, "4096 infinite (computed: an overflow or a division by zero)")) << detail;
  EXPECT_FALSE(contains(detail, "never written")) << detail;
}

TEST(DiffMedians, MediansThatTripledAreARegressionEvenWhereTheRepetitionsDoNotSaySo) {
  TempDir dir;
  const fs::path old_file = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/results/cpu-pocl-small.json";
  json tripled = readJsonFile(old_file);
  for (json& record : tripled["records"])
    if (record.contains("timings") && record["timings"].is_object())
      record["timings"]["kernel_ns"]["median"] = record["timings"]["kernel_ns"]["median"].get<double>() * 3;
  dir.write("new.json", tripled.dump());
  const BinaryOutcome o = runRooflab("diff '" + old_file.string() + "' new.json", dir.path(), kTimeLimit);
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(contains(o.out, "+200.0%")) << show(o);
  EXPECT_FALSE(contains(o.out, "  0.0%")) << show(o);
  EXPECT_TRUE(contains(o.out, "compared on the stated medians")) << show(o);
  EXPECT_TRUE(contains(o.out, "REGRESSED")) << show(o);
}

// A part whose records are not all there: still running while its run holds the folder, else
// interrupted or killed; the merged report, and a part's own, say which part of how many they show.
TEST(Messages, AMergeSaysWhichPartLacksRecordsAndWhetherItIsStillRunning) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  for (const char* part : {"1", "2"}) {
    const BinaryOutcome o = w.run(std::string("run cfg.toml --shard ") + part + "/3 --out part" + part);
    ASSERT_EQ(o.exit_code, 0) << show(o);
    EXPECT_TRUE(contains(o.out, std::string("part ") + part + " of 3 of batch ")) << show(o);
  }
  // Part 2 as a run cut short leaves it: its last two records not there.
  const fs::path part2 = w.dir.path() / "part2" / "results.json";
  json document = readJsonFile(part2);
  document["records"].erase(document["records"].end() - 2, document["records"].end());
  w.dir.write("part2/results.json", document.dump());

  const BinaryOutcome lost = w.run("merge part1 part2 --out merged");
  EXPECT_EQ(lost.exit_code, 1) << show(lost);
  EXPECT_TRUE(contains(lost.err, "part 2 of 3 (")) << show(lost);
  EXPECT_TRUE(contains(lost.err, "2 of its 4 points have no record: it was interrupted or killed before they ran"))
      << show(lost);
  EXPECT_TRUE(contains(lost.out, "merged from parts 1 and 2 of 3 of batch ")) << show(lost);
  EXPECT_TRUE(contains(lost.out, "part 3 of 3 is missing (`rooflab run --shard 3/3`, then merge again)")) << show(lost);

  // A run that holds part 2's folder, as a part still running does.
  const int lock = ::open((w.dir.path() / "part2" / ".rooflab.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX | LOCK_NB), 0);
  const std::string pid = std::to_string(::getpid()) + "\n";
  ASSERT_EQ(::ftruncate(lock, 0), 0);
  ASSERT_EQ(::pwrite(lock, pid.data(), pid.size(), 0), static_cast<ssize_t>(pid.size()));
  const BinaryOutcome running = w.run("merge part1 part2 --out merged-running");
  ::close(lock);
  EXPECT_EQ(running.exit_code, 1) << show(running);
  EXPECT_TRUE(contains(running.err, "it is still running (pid " + std::to_string(::getpid()) + " holds its folder)"))
      << show(running);
  EXPECT_FALSE(contains(running.err, "interrupted or killed")) << show(running);
}

}  // namespace
}  // namespace rooflab::testing
