// The output folder, as a user shares it with other programs and other rooflab commands: a rerun
// removes only what rooflab wrote there (never a log the shell or tee writes into it), a run that
// ends early or is killed leaves the previous results readable, and `rooflab report` respects the
// lock a running batch holds on it. Every test runs the real binary on PoCL.
#include "binary/reliability_workspace.hpp"
#include "binary/background_run.hpp"

using rooflab::testing::BackgroundRun;
using rooflab::testing::fileText;
using rooflab::testing::rooflabCommand;

namespace {

// `command` run by /bin/sh in `cwd`; its exit code.
int shell(const std::string& command, const fs::path& cwd) {
  return rooflab::testing::exitCodeOf(std::system(("cd '" + cwd.string() + "' && " + command).c_str()));
}

// A kernel that never returns (the volatile store keeps the compiler from removing the loop), to hold
// a batch at its point for as long as a test needs.
const char* const kSpinSource = R"(
kernel void spin(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  volatile global float* out = c;
  if (i < n)
    while (out[i] != 12345.0f) out[i] = a[i] * 0.0f + 1.0f;
}
)";

const std::string kSpinVariant = "[[variants]]\nname = \"spin\"\nsource = \"spin.cl\"\nkernel = \"spin\"\n"
                                 "args = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n";

// The adder family with a variant that spins, and two configs: cfg.toml runs "good" (JSON and HTML),
// spin.toml runs `variants` with a time limit no test reaches.
struct SpinWorkspace : Workspace {
  SpinWorkspace()
      : Workspace(std::string(kFamily) + kSpinVariant,
                  replaced(kRun, "formats = [\"json\"]", "formats = [\"json\", \"html\"]") +
                      study("adder", "variants = [\"good\"]\n")) {
    dir.write("kernels/adder/spin.cl", kSpinSource);
  }
  fs::path out() const { return dir.path() / "out"; }
  void writeSpinConfig(const std::string& variants) const {
    dir.write("spin.toml", replaced(kRun, "out = \"out\"", "out = \"out\"\nvariant_time_limit_s = 600") +
                               study("adder", "variants = [" + variants + "]\n"));
  }
};

}  // namespace

// `rooflab run CFG --out OUT > OUT/run.log 2>&1`, twice, and the same through `| tee OUT/tee.log`:
// each log holds its own run's output afterwards. The shell and tee write those files, not rooflab,
// so they are not rooflab's to remove.
TEST(OutputFolder, ALogWrittenIntoTheFolderSurvivesTheNextRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w;
  fs::create_directories(w.dir.path() / "out");
  const std::string run = rooflabCommand() + " run cfg.toml --quiet --out out";
  for (int i = 0; i < 2; ++i) ASSERT_EQ(shell(run + " > out/run.log 2>&1", w.dir.path()), 0);
  EXPECT_TRUE(contains(fileText(w.dir.path() / "out/run.log"), "results: "))
      << "the second run removed the log its own output goes to";
  for (int i = 0; i < 2; ++i) ASSERT_EQ(shell(run + " 2>&1 | tee out/tee.log > /dev/null", w.dir.path()), 0);
  EXPECT_TRUE(contains(fileText(w.dir.path() / "out/tee.log"), "results: "))
      << "the second run removed the file tee writes its output to";
  EXPECT_TRUE(fs::exists(w.dir.path() / "out/run.log"));
  const std::string listed = fileText(w.dir.path() / "out/.rooflab-files");
  EXPECT_TRUE(contains(listed, "results.json")) << listed;
  EXPECT_FALSE(contains(listed, ".log")) << listed;
}

// The previous results stay readable until the new run has results of its own: a run that fails
// before any point, or is interrupted before its first point ends, leaves them as they were; a run
// killed outright in its first seconds leaves them in results.previous.json beside the previous
// report; the next run that measures replaces them.
TEST(OutputFolder, ARunKilledInItsFirstSecondsKeepsThePreviousResults) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  SpinWorkspace w;
  w.writeSpinConfig("\"spin\"");
  const Outcome first = w.run();
  ASSERT_EQ(first.exit_code, 0) << show(first);
  const std::string results = fileText(w.out() / "results.json"), report = fileText(w.out() / "report.html");
  ASSERT_TRUE(contains(results, "\"status\": \"complete\""));

  const Outcome no_device = w.run("--device 7:7");
  EXPECT_EQ(no_device.exit_code, 3) << show(no_device);
  EXPECT_TRUE(fileText(w.out() / "results.json") == results) << "a run that measured nothing lost the previous results";
  EXPECT_FALSE(fs::exists(w.out() / "results.previous.json"));

  {
    // Ctrl-C twice before the first point ends: nothing measured, so nothing replaced.
    BackgroundRun interrupted(rooflabCommand() + " run spin.toml --quiet --out out", w.dir.path(),
                              w.dir.path() / "log");
    ASSERT_TRUE(interrupted.waitForOutput("; estimated ")) << interrupted.text();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    interrupted.signal(SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    interrupted.signal(SIGINT);
    EXPECT_EQ(interrupted.wait(30), 130) << interrupted.text();
    EXPECT_TRUE(contains(interrupted.text(), "rooflab: interrupted before the first point ended: nothing written; " +
                                                 w.out().string() + " keeps what the earlier run wrote there"))
        << interrupted.text();
  }
  EXPECT_TRUE(fileText(w.out() / "results.json") == results) << "an interrupted run that measured nothing lost them";
  EXPECT_TRUE(fileText(w.out() / "report.html") == report);

  {
    BackgroundRun killed(rooflabCommand() + " run spin.toml --quiet --out out", w.dir.path(), w.dir.path() / "log");
    ASSERT_TRUE(killed.waitForOutput("; estimated ")) << killed.text();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the worker starts and spins
    killed.killOutright();
  }
  EXPECT_TRUE(fileText(w.out() / "results.previous.json") == results)
      << "the killed run lost the previous results; results.json holds:\n"
      << fileText(w.out() / "results.json").substr(0, 300);
  EXPECT_TRUE(fileText(w.out() / "report.html") == report) << "the killed run removed the previous report";
  const Outcome previous = runRooflab("report out/results.previous.json --out again --formats csv", w.dir.path());
  EXPECT_EQ(previous.exit_code, 0) << show(previous);

  const Outcome next = w.run();
  ASSERT_EQ(next.exit_code, 0) << show(next);
  EXPECT_TRUE(contains(fileText(w.out() / "results.json"), "\"status\": \"complete\""));
  EXPECT_FALSE(fs::exists(w.out() / "results.previous.json")) << "replaced by the run's own results";
  EXPECT_FALSE(fs::exists(w.out() / "journal.previous.jsonl"));
  EXPECT_TRUE(fs::exists(w.out() / "report.html"));
}

// `rooflab report` into a folder a batch holds is refused, as a second run is: exit 2, naming the
// folder and the batch's pid; reading the batch's results and writing elsewhere is fine.
TEST(OutputFolder, ReportIntoAFolderARunHoldsIsRefused) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  SpinWorkspace w;
  w.writeSpinConfig("\"good\", \"spin\"");
  BackgroundRun batch(rooflabCommand() + " run spin.toml --quiet --out out", w.dir.path(), w.dir.path() / "log");
  ASSERT_TRUE(batch.waitUntil([&] {
    try {
      return readJsonFile(w.out() / "results.json")["records"].size() >= 1;
    } catch (const std::exception&) {
      return false;
    }
  })) << batch.text();
  const std::string refusal = "rooflab: output folder '" + w.out().string() +
                              "' is in use by another rooflab run (pid " + std::to_string(batch.pid()) + ")";
  for (const std::string& args : {std::string("report out/results.json --out out --formats csv"),
                                  std::string("report out/results.json --formats csv")}) {
    const Outcome o = runRooflab(args, w.dir.path());
    EXPECT_EQ(o.exit_code, 2) << args << "\n" << show(o);
    EXPECT_TRUE(contains(o.err, refusal)) << args << "\n" << show(o);
  }
  EXPECT_FALSE(fs::exists(w.out() / "results.csv")) << "the report wrote into the batch's folder";
  const Outcome elsewhere = runRooflab("report out/results.json --out elsewhere --formats csv", w.dir.path());
  EXPECT_EQ(elsewhere.exit_code, 0) << show(elsewhere);
  EXPECT_TRUE(fs::exists(w.dir.path() / "elsewhere/results.csv"));
  batch.signal(SIGTERM);
  EXPECT_EQ(batch.wait(30), 130) << batch.text();
  EXPECT_FALSE(contains(fileText(w.out() / ".rooflab-files"), "results.csv"));
}
