// Issue 17's "must show", through the binary on PoCL: two runs of the same small config, diffed, show
// no regression, ten times in a row; a variant made 1.5 times slower by a define is flagged
// REGRESSED, ten times in a row. The tests assert only what a user of `rooflab diff` sees (its exit
// code and lines), never a time.
//
// Why this holds: the fixture kernel (tests/fixtures/kernels/slowdown) is one work-group of 2.4 ms,
// so its time does not depend on whether PoCL gets one core or two (kernels of many work-groups
// moved by 2x between runs on a 2-core host, issue 17). diff flags a record when its median moves by
// more than 20% (and the test on the repetitions is significant); a slowed run moves it by 50%.
// Measured on a 2-core PoCL host that other processes' builds loaded (load average 1.4 to 4): of 318
// pairs of identical runs, half moved by less than 2% and 9 in 10 by less than 9%, but 8 (2.5%) by
// more than 20%, up to 29%; 2 of 120 slowed pairs came out at +16% (their old run was slowed by
// 1.3x). Those were runs during which other processes took the kernel's core. Nothing within one
// run can tell that from a slower kernel, so these tests need a host that nothing else loads: ctest
// runs them alone (RUN_SERIAL in CMakeLists.txt), and a failure prints the host's load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "analyzer/host_condition.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::testing::TempDir;

namespace {

constexpr int kTrials = 10;
const std::string kRecord = "slowdown/work N=256 (normal)";

// 20 repetitions of 2.4 ms after 2 warm-ups: a run takes about 0.3 s (the first, which compiles the
// kernel, about 1.5 s). 20 + 20 repetitions keep the Mann-Whitney test exact, and runs that do not
// overlap reach p = 1.5e-11, far under diff's alpha; more would not move a run's median, which is
// what a whole-run disturbance shifts.
const char* const kConfig = R"([run]
device = "cpu"
repetitions = 20
warmup = 2
modes = ["normal"]
counters = "off"
ceilings = "datasheet"
formats = ["json"]
kernels = ["kernels"]
out = "out"
[[study]]
family = "slowdown"
)";

struct Outcome {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

Outcome runRooflab(const std::string& args, const fs::path& cwd) {
  const fs::path log = cwd / "rooflab.log";
  const std::string command =
      "cd '" + cwd.string() + "' && '" + std::string(ROOFLAB_BINARY) + "' " + args + " > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fixture family with SLOWDOWN_PERCENT set, and the config, in a folder of their own.
class Workspace {
 public:
  Workspace(const TempDir& dir, const std::string& name, int slowdown_percent) : root_(dir.path() / name) {
    const fs::path fixture = fs::path(ROOFLAB_SOURCE_DIR) / "tests" / "fixtures" / "kernels" / "slowdown";
    std::string manifest = readFile(fixture / "family.toml");
    const std::string define = "SLOWDOWN_PERCENT = 100 }";
    const auto at = manifest.find(define);
    EXPECT_TRUE(at != std::string::npos && manifest.find(define, at + 1) == std::string::npos)
        << "the fixture manifest must hold `" << define << "` once, in its variant's defines";
    if (at != std::string::npos) {
      manifest.replace(at, define.size(), "SLOWDOWN_PERCENT = " + std::to_string(slowdown_percent) + " }");
    }
    fs::create_directories(root_ / "kernels" / "slowdown");
    std::ofstream(root_ / "kernels" / "slowdown" / "family.toml", std::ios::binary) << manifest;
    fs::copy_file(fixture / "slowdown.cl", root_ / "kernels" / "slowdown" / "slowdown.cl");
    std::ofstream(root_ / "cfg.toml", std::ios::binary) << kConfig;
  }

  // Runs the config into <root>/<out>/results.json and returns that path ("" when the run failed).
  std::string run(const std::string& out) const {
    const Outcome o = runRooflab("run cfg.toml --quiet --out " + out, root_);
    EXPECT_EQ(o.exit_code, 0) << o.out;
    return o.exit_code == 0 ? (root_ / out / "results.json").string() : "";
  }

 private:
  fs::path root_;
};

std::string lineWith(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at);
  const auto from = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(from, text.find('\n', at) - from);
}

std::string hostNote() {
  const rooflab::HostCondition host = rooflab::readHostCondition();
  std::ostringstream note;
  note << "host: 1-minute load " << (host.load_average_1min ? std::to_string(*host.load_average_1min) : "unknown")
       << " on " << (host.core_count ? std::to_string(*host.core_count) : "?") << " cores";
  if (const auto noisy = rooflab::noisyHost(host)) note << " (" << *noisy << ")";
  return note.str();
}

}  // namespace

TEST(DiffNoise, TenPairsOfIdenticalRunsShowNoRegression) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const Workspace same(dir, "same", 100);
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::string old_results = same.run("old" + std::to_string(trial));
    const std::string new_results = same.run("new" + std::to_string(trial));
    ASSERT_FALSE(old_results.empty() || new_results.empty());
    const Outcome diff = runRooflab("diff " + old_results + " " + new_results, dir.path());
    const std::string line = lineWith(diff.out, kRecord);
    std::cout << "[ same ] trial " << trial << ": " << line << '\n';
    EXPECT_EQ(diff.exit_code, 0) << "trial " << trial << ", " << hostNote() << ":\n" << diff.out;
    EXPECT_NE(line.find("unchanged within noise"), std::string::npos) << "trial " << trial << ":\n" << diff.out;
    EXPECT_EQ(diff.out.find("REGRESSED"), std::string::npos) << "trial " << trial << ", " << hostNote() << ":\n" << diff.out;
    EXPECT_NE(diff.out.find("no regression among 1 matched records"), std::string::npos) << diff.out;
  }
}

TEST(DiffNoise, AVariantSlowedByHalfIsFlaggedTenTimes) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const Workspace before(dir, "before", 100);
  const Workspace after(dir, "after", 150);
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::string old_results = before.run("run" + std::to_string(trial));
    const std::string new_results = after.run("run" + std::to_string(trial));
    ASSERT_FALSE(old_results.empty() || new_results.empty());
    const Outcome diff = runRooflab("diff " + old_results + " " + new_results, dir.path());
    const std::string line = lineWith(diff.out, kRecord);
    std::cout << "[ slow ] trial " << trial << ": " << line << '\n';
    EXPECT_EQ(diff.exit_code, 1) << "trial " << trial << ", " << hostNote() << ":\n" << diff.out;
    EXPECT_NE(line.find("REGRESSED"), std::string::npos) << "trial " << trial << ", " << hostNote() << ":\n" << diff.out;
    EXPECT_NE(diff.out.find("REGRESSED: 1 of 1 matched records"), std::string::npos) << diff.out;
  }
}
