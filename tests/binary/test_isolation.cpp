// Process isolation: a crash, a hang or a second run costs one record, never the batch.
// Every test runs the real binary on PoCL with the fault fixtures of tests/fixtures/kernels/faults and
// asserts what the user sees: the exit code, the message, results.json and the report files.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/json/json_file_io.hpp"
#include "test_support.hpp"

extern char** environ;

using rooflab::readJsonFile;
using rooflab::testing::TempDir;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const fs::path kFixtures = fs::path(ROOFLAB_SOURCE_DIR) / "tests" / "fixtures";

using rooflab::testing::contains;
using rooflab::testing::exitCodeOf;
using rooflab::testing::fileText;

// `rooflab <args...>` started in the background, its stdout and stderr in `log`.
struct Running {
  pid_t pid = -1;
  fs::path log;
  std::string text() const { return fileText(log); }
  // The exit code, or -1 when it did not end within `limit` (then it is killed).
  int wait(std::chrono::duration<double> limit) {
    const auto start = Clock::now();
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() - start > limit) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exitCodeOf(status);
  }
};

// `args` after the rooflab binary, or (through_shell) the whole command line.
Running start(const std::vector<std::string>& args, const fs::path& log, bool through_shell = false) {
  std::vector<std::string> argv_text;
  if (!through_shell) argv_text.push_back(ROOFLAB_BINARY);
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  Running r;
  r.log = log;
  const int spawned = posix_spawn(&r.pid, argv_text[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(spawned, 0);
  return r;
}

struct Finished {
  int exit_code = -1;
  std::string output;
  double seconds = 0;
};

Finished runToEnd(const std::vector<std::string>& args, const fs::path& log, double limit_s = 120,
                  bool through_shell = false) {
  const auto started = Clock::now();
  Running r = start(args, log, through_shell);
  Finished f;
  f.exit_code = r.wait(std::chrono::duration<double>(limit_s));
  f.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  f.output = r.text();
  return f;
}

nlohmann::json isolatedRecordOf(const nlohmann::json& results, const std::string& variant) {
  for (const auto& r : results["records"])
    if (r["variant"] == variant) return r;
  return nullptr;
}

// A config running `variants` of the fault family, with `extra` lines in [run].
fs::path writeConfig(const TempDir& dir, const std::string& variants, const std::string& extra = "") {
  return dir.write("cfg.toml", "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 0\nmodes = [\"normal\"]\n"
                               "counters = \"off\"\nceilings = \"datasheet\"\nformats = [\"json\", \"html\"]\n"
                               "kernels = [\"" +
                                   (kFixtures / "kernels").string() + "\"]\n" + extra +
                                   "[[study]]\nfamily = \"faults\"\nvariants = [" + variants + "]\n");
}

// Waits until <out>/results.json holds at least `records` records.
bool waitForRecords(const fs::path& out, std::size_t records, double limit_s = 60) {
  const auto start = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - start).count() < limit_s) {
    try {
      if (fs::exists(out / "results.json") && readJsonFile(out / "results.json")["records"].size() >= records)
        return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

// An out-of-bounds kernel between two good ones: the crash is one record, both good records are
// kept, the batch completes with exit 1 and writes its report.
TEST(Isolation, OutOfBoundsKernelCostsOneRecord) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const Finished f = runToEnd(
      {"run", (kFixtures / "configs" / "faults-out-of-bounds.toml").string(), "--quiet", "--out", out.string()},
      dir.path() / "log");
  EXPECT_EQ(f.exit_code, 1) << f.output;
  const nlohmann::json r = readJsonFile(out / "results.json");
  EXPECT_EQ(r["status"], "complete");
  ASSERT_EQ(r["records"].size(), 3u) << f.output;
  for (const char* good : {"good_before", "good_after"}) {
    EXPECT_EQ(isolatedRecordOf(r, good)["status"], "ok") << good;
    EXPECT_EQ(isolatedRecordOf(r, good)["verification"]["status"], "passed") << good;
  }
  const nlohmann::json crashed = isolatedRecordOf(r, "out_of_bounds");
  EXPECT_EQ(crashed["status"], "crashed");
  const std::string error = crashed["error"].get<std::string>();
  EXPECT_TRUE(contains(error, "faults/out_of_bounds N=4096 (normal) on ")) << error;
  EXPECT_TRUE(contains(error, "the worker process running it died (signal ")) << error;
  EXPECT_TRUE(contains(f.output, "rooflab: crashed: faults/out_of_bounds")) << f.output;
  EXPECT_EQ(r["summary"]["failed"], 1);
  EXPECT_EQ(r["summary"]["ok"], 2);
  EXPECT_TRUE(fs::exists(out / "report.html"));
  EXPECT_TRUE(contains(fileText(out / "report.html"), "crashed"));
  // The journal holds its header line (the document without records), then one line per record.
  std::ifstream journal(out / "journal.jsonl");
  std::string line;
  std::size_t lines = 0;
  while (std::getline(journal, line)) {
    if (lines == 0) EXPECT_EQ(line.rfind("{\"document\":", 0), 0u) << line.substr(0, 80);
    ++lines;
  }
  EXPECT_EQ(lines, 4u);
}

// A kernel that never returns, with a 6 s limit: killed, `timed_out` quoting the configured 6 s, and
// the batch goes on to the next point.
TEST(Isolation, InfiniteLoopTimesOutAtTheConfiguredLimit) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const Finished f =
      runToEnd({"run", (kFixtures / "configs" / "faults-hang.toml").string(), "--quiet", "--out", out.string()},
               dir.path() / "log");
  EXPECT_EQ(f.exit_code, 1) << f.output;
  const nlohmann::json r = readJsonFile(out / "results.json");
  EXPECT_EQ(r["status"], "complete");
  ASSERT_EQ(r["records"].size(), 3u) << f.output;
  const nlohmann::json hung = isolatedRecordOf(r, "spin_forever");
  EXPECT_EQ(hung["status"], "timed_out");
  EXPECT_TRUE(contains(hung["error"].get<std::string>(), "no result within variant_time_limit_s = 6 s"))
      << hung["error"];
  EXPECT_TRUE(contains(f.output, "rooflab: timed_out: faults/spin_forever")) << f.output;
  EXPECT_EQ(isolatedRecordOf(r, "good_after")["status"], "ok");
  EXPECT_EQ(isolatedRecordOf(r, "good_before")["status"], "ok");
  EXPECT_TRUE(fs::exists(out / "report.html"));
}

// Two Ctrl-C during a hang: the first waits for the point (which never ends), the second kills the
// worker; exit 130 within 2 s of it, results.json valid, the report written, "interrupted" on the terminal.
TEST(Isolation, TwoSigintDuringAHangExit130WithinTwoSeconds) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config =
      writeConfig(dir, "\"good_before\", \"spin_forever\", \"good_after\"", "variant_time_limit_s = 600\n");
  Running r = start({"run", config.string(), "--quiet", "--out", out.string()}, dir.path() / "log");
  ASSERT_TRUE(waitForRecords(out, 1)) << r.text();
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // spin_forever is running
  ASSERT_EQ(::kill(r.pid, SIGINT), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  int status = 0;
  ASSERT_EQ(::waitpid(r.pid, &status, WNOHANG), 0) << "the first Ctrl-C must wait for the current point\n" << r.text();
  const auto second = Clock::now();
  ASSERT_EQ(::kill(r.pid, SIGINT), 0);
  const int code = r.wait(std::chrono::seconds(30));
  const double seconds = std::chrono::duration<double>(Clock::now() - second).count();
  EXPECT_EQ(code, 130) << r.text();
  EXPECT_LT(seconds, 2.0) << r.text();
  const nlohmann::json results = readJsonFile(out / "results.json");
  EXPECT_EQ(results["status"], "interrupted");
  EXPECT_EQ(results["records"].size(), 1u);
  EXPECT_EQ(results["summary"]["not_run"], 2);
  EXPECT_TRUE(contains(r.text(), "rooflab: interrupted: 1 of 3 points done, 2 not run")) << r.text();
  EXPECT_TRUE(fs::exists(out / "report.html"));
}

// A second run into a folder that a run holds fails at once with exit 2, naming the first one's pid.
TEST(Isolation, SecondRunIntoTheSameFolderExits2NamingThePid) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config = writeConfig(dir, "\"good_before\", \"spin_forever\"", "variant_time_limit_s = 600\n");
  Running first = start({"run", config.string(), "--quiet", "--out", out.string()}, dir.path() / "log1");
  ASSERT_TRUE(waitForRecords(out, 1)) << first.text();
  const Finished second = runToEnd({"run", config.string(), "--quiet", "--out", out.string()}, dir.path() / "log2");
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_TRUE(contains(second.output, "is in use by another rooflab run (pid " + std::to_string(first.pid) + ")"))
      << second.output;
  EXPECT_LT(second.seconds, 10.0);
  ::kill(first.pid, SIGTERM);
  EXPECT_EQ(first.wait(std::chrono::seconds(10)), 130) << first.text();
  // The first run's results were not touched by the second.
  EXPECT_EQ(readJsonFile(out / "results.json")["records"].size(), 1u);
}

// A rerun removes what the earlier run wrote (its report), and only that (a file of the user's stays).
TEST(Isolation, RerunRemovesOnlyWhatTheEarlierRunWrote) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config = writeConfig(dir, "\"good_before\"");
  Finished f = runToEnd({"run", config.string(), "--quiet", "--out", out.string()}, dir.path() / "log");
  ASSERT_EQ(f.exit_code, 0) << f.output;
  ASSERT_TRUE(fs::exists(out / "report.html"));
  dir.write("out/notes.txt", "mine\n");
  f = runToEnd({"run", config.string(), "--quiet", "--out", out.string(), "--formats", "csv"}, dir.path() / "log");
  ASSERT_EQ(f.exit_code, 0) << f.output;
  EXPECT_FALSE(fs::exists(out / "report.html")) << "the earlier run's report is stale";
  EXPECT_TRUE(fs::exists(out / "results.csv"));
  EXPECT_TRUE(fs::exists(out / "results.json"));
  EXPECT_TRUE(fs::exists(out / "notes.txt")) << "not rooflab's to remove";
}

TEST(Isolation, RootAsOutputFolderExits2) {
  TempDir dir;
  const fs::path config = writeConfig(dir, "\"good_before\"");
  const Finished f = runToEnd({"run", config.string(), "--quiet", "--out", "/"}, dir.path() / "log");
  EXPECT_EQ(f.exit_code, 2) << f.output;
  EXPECT_TRUE(contains(f.output, "rooflab will not write into the root folder /")) << f.output;
}

// Before it starts, a batch says how many points it has and what they will cost; one over max_points
// is refused with exit 2 before any device work or file write.
TEST(Isolation, BatchOverMaxPointsIsRefusedBeforeItStarts) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config = writeConfig(dir, "\"good_before\", \"good_after\"", "max_points = 1\n");
  const Finished f = runToEnd({"run", config.string(), "--quiet", "--out", out.string()}, dir.path() / "log");
  EXPECT_EQ(f.exit_code, 2) << f.output;
  EXPECT_TRUE(contains(f.output, "the batch has 2 points, more than [run] max_points = 1")) << f.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(Isolation, BatchPrintsItsPointCountAndAnEstimate) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path config = writeConfig(dir, "\"good_before\", \"good_after\"");
  const Finished f =
      runToEnd({"run", config.string(), "--quiet", "--out", (dir.path() / "out").string()}, dir.path() / "log");
  EXPECT_EQ(f.exit_code, 0) << f.output;
  EXPECT_TRUE(contains(f.output, "rooflab: 2 points (1 family) on ")) << f.output;
  EXPECT_TRUE(contains(f.output, "; estimated about ")) << f.output;
}

// A full disk is an I/O failure: exit 4, and the message says so. As root the disk is a 64 KiB tmpfs;
// otherwise a 64 KiB file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) stands in for it.
TEST(Isolation, FullDiskExitsWithTheIoCode) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path disk = dir.path() / "disk";
  fs::create_directories(disk);
  const bool tmpfs = ::geteuid() == 0 && ::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=64k") == 0;
  std::string sizes;
  for (int i = 1; i <= 60; ++i) sizes += (sizes.empty() ? "" : ", ") + std::to_string(64 * i);
  const fs::path config =
      dir.write("cfg.toml", fileText(writeConfig(dir, "\"good_before\"")) + "params = { N = [" + sizes + "] }\n");
  const std::string run = "'" + std::string(ROOFLAB_BINARY) + "' run '" + config.string() + "' --quiet --out '" +
                          (disk / "out").string() + "'";
  const Finished f = runToEnd({"/bin/sh", "-c", tmpfs ? "exec " + run : "ulimit -f 64; trap '' XFSZ; exec " + run},
                              dir.path() / "log", 120, /*through_shell=*/true);
  if (tmpfs) ::umount2(disk.c_str(), MNT_DETACH);
  EXPECT_EQ(f.exit_code, 4) << f.output;
  EXPECT_TRUE(contains(f.output, "rooflab: I/O error: ")) << f.output;
  EXPECT_TRUE(contains(f.output, tmpfs ? "No space left on device" : "File too large")) << f.output;
}
