// The whole path a user takes with an application, through the binary on PoCL: `rooflab capture`
// runs it unchanged and generates the replay (its work counted under oclgrind), then `rooflab run
// DIR/capture.toml` replays every captured launch, verifies it against the application's own
// outputs, places it on the roofline, runs its automatic mutants and shows the application's timeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace rooflab::testing;

namespace {

const std::string kFixtures = ROOFLAB_CAPTURE_FIXTURES;
const fs::path kPyOpenClExamples = "/usr/share/doc/python-pyopencl-doc/examples";
const fs::path kSystemPython = "/usr/bin/python3";

bool pyopenclInstalled() {
  return fs::exists(kPyOpenClExamples / "demo.py") && fs::exists(kSystemPython) &&
         std::system((kSystemPython.string() + " -c 'import pyopencl' >/dev/null 2>&1").c_str()) == 0;
}

bool oclgrindInstalled() { return std::system("command -v oclgrind >/dev/null 2>&1") == 0; }

// The generated [run] keys stay; these only make the replay quick on a shared CPU: the datasheet's
// roofs instead of measured ceilings, a few repetitions, JSON only.
const char* kQuickReplayKeys = "device = \"cpu\"\nrepetitions = 3\nwarmup = 1\ncounters = \"off\"\n"
                               "ceilings = \"datasheet\"\nformats = [\"json\"]\n";

struct CaptureAndReplay {
  TempDir dir;
  BinaryOutcome capture;
  BinaryOutcome replay;
  nlohmann::json results;
  fs::path folder() const { return dir.path() / "cap"; }
};

// Captures `program` into ./cap, then replays ./cap/capture.toml into ./out.
void captureAndReplay(CaptureAndReplay& c, const std::string& program, const std::string& env = "") {
  c.capture = runRooflab("capture --out cap -- " + program, c.dir.path(), env);
  const fs::path config = c.folder() / "capture.toml";
  if (!fs::exists(config)) return;
  std::string text = fileText(config);
  ASSERT_TRUE(contains(text, "[run]\n")) << text;
  std::ofstream(config) << replaced(text, "[run]\n", std::string("[run]\n") + kQuickReplayKeys);
  c.replay = runRooflab("run cap/capture.toml --out out --quiet", c.dir.path());
  if (fs::exists(c.dir.path() / "out" / "results.json"))
    c.results = nlohmann::json::parse(fileText(c.dir.path() / "out" / "results.json"));
}

// Each part's device time as the application's own events give it: end - start of every timed command
// of the log, added up per kind.
std::map<std::string, double> eventSumsFromLog(const fs::path& log) {
  std::ifstream in(log);
  std::map<std::uint64_t, std::string> kind_of;
  std::map<std::string, double> sums;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_discarded()) continue;
    if (entry["t"] == "command") kind_of[entry["seq"].get<std::uint64_t>()] = entry["kind"].get<std::string>();
    if (entry["t"] == "times" && entry.contains("end_ns"))
      sums[kind_of[entry["seq"].get<std::uint64_t>()]] +=
          entry["end_ns"].get<double>() - entry["start_ns"].get<double>();
  }
  return sums;
}

double partSum(const nlohmann::json& timeline, const std::string& part) {
  for (const auto& p : timeline["parts"])
    if (p["part"] == part) return p["sum_ns"].get<double>();
  return -1;
}

const char* const kTransferKinds[] = {"write", "read", "copy", "fill", "map", "unmap"};

void expectTimelineMatchesTheLog(const CaptureAndReplay& c) {
  ASSERT_TRUE(c.results.contains("capture_timeline")) << c.results.dump().substr(0, 2000);
  const nlohmann::json& timeline = c.results["capture_timeline"];
  const std::map<std::string, double> log = eventSumsFromLog(c.folder() / "log.jsonl");
  ASSERT_GT(log.count("kernel"), 0u) << "the log times its kernels";
  EXPECT_NEAR(partSum(timeline, "kernel"), log.at("kernel"), 0.1 * log.at("kernel")) << timeline["parts"].dump(1);
  double log_transfers = 0, timeline_transfers = 0;
  for (const char* kind : kTransferKinds) {
    log_transfers += log.count(kind) ? log.at(kind) : 0;
    timeline_transfers += std::max(0.0, partSum(timeline, kind));
  }
  EXPECT_NEAR(timeline_transfers, log_transfers, 0.1 * log_transfers) << timeline["parts"].dump(1);
}

// The application times itself (profiling queues, every command's event) and prints the sums: the
// timeline's kernel and transfer totals are within 10% of them.
void expectTimelineMatchesOwnEvents(const CaptureAndReplay& c) {
  unsigned long long own_kernel_ns = 0, own_transfer_ns = 0;
  const std::size_t at = c.capture.out.find("own events: ");
  ASSERT_NE(at, std::string::npos) << show(c.capture);
  ASSERT_EQ(std::sscanf(c.capture.out.c_str() + at, "own events: kernels %llu ns, transfers %llu ns", &own_kernel_ns,
                        &own_transfer_ns),
            2)
      << show(c.capture);
  ASSERT_TRUE(c.results.contains("capture_timeline"));
  const nlohmann::json& timeline = c.results["capture_timeline"];
  EXPECT_NEAR(partSum(timeline, "kernel"), double(own_kernel_ns), 0.1 * double(own_kernel_ns))
      << timeline["parts"].dump(1);
  double transfers = 0;
  for (const char* kind : kTransferKinds) transfers += std::max(0.0, partSum(timeline, kind));
  EXPECT_NEAR(transfers, double(own_transfer_ns), 0.1 * double(own_transfer_ns)) << timeline["parts"].dump(1);
}

std::vector<nlohmann::json> recordsOf(const nlohmann::json& results, const std::string& family) {
  std::vector<nlohmann::json> records;
  for (const auto& r : results["records"])
    if (r["family"] == family) records.push_back(r);
  return records;
}

// What the user sees of one captured launch: verified against the application's outputs, placed with
// oclgrind's counts, both mutants run and a verdict (or the sentence why a mutant could not be made).
void expectFamilyReplayed(const CaptureAndReplay& c, const std::string& family) {
  SCOPED_TRACE(family);
  const std::string manifest = fileText(c.folder() / "families" / family / "family.toml");
  EXPECT_TRUE(contains(manifest, "# counted by oclgrind --inst-counts")) << manifest;
  EXPECT_FALSE(contains(manifest, "unmeasured")) << manifest;
  std::map<std::string, nlohmann::json> by_mode;
  for (const nlohmann::json& r : recordsOf(c.results, family)) by_mode[r["mode"].get<std::string>()] = r;
  ASSERT_EQ(by_mode.count("normal"), 1u) << show(c.replay);
  const nlohmann::json& original = by_mode["normal"];
  EXPECT_EQ(original["status"], "ok") << original.dump(1).substr(0, 3000);
  EXPECT_EQ(original["verification"]["status"], "passed") << original["verification"].dump(1);
  EXPECT_EQ(original["verification"]["reference"], "outputs");
  EXPECT_TRUE(original["work"]["flops"].is_number()) << original["work"].dump();
  std::size_t placements = 0;
  for (const auto& [model, placement] : original["roofline"].items()) {
    EXPECT_FALSE(placement.contains("unplaced")) << model << ": " << placement.dump();
    placements += placement["intensity"].is_number() ? 1 : 0;
  }
  EXPECT_GT(placements, 0u) << original["roofline"].dump(1);
  for (const char* mode : {"compute-only", "memory-only"}) {
    ASSERT_EQ(by_mode.count(mode), 1u) << mode << "\n" << show(c.replay);
    const nlohmann::json& mutant = by_mode[mode];
    const bool ran = mutant["status"] == "ok";
    EXPECT_TRUE(ran || (mutant["error"].is_string() && !mutant["error"].get<std::string>().empty()))
        << mode << ": neither ran nor says why\n"
        << mutant.dump(1).substr(0, 2000);
  }
  ASSERT_TRUE(original["mutation"].is_object()) << original.dump(1).substr(0, 3000);
  EXPECT_TRUE(original["mutation"]["verdict"].is_string()) << original["mutation"].dump(1);
}

std::vector<std::string> familiesOf(const CaptureAndReplay& c) {
  std::vector<std::string> families;
  for (const auto& entry : fs::directory_iterator(c.folder() / "families")) families.push_back(entry.path().filename());
  std::sort(families.begin(), families.end());
  return families;
}

void expectWholePath(const CaptureAndReplay& c, std::size_t families) {
  ASSERT_EQ(c.capture.exit_code, 0) << show(c.capture);
  EXPECT_TRUE(contains(c.capture.out, "work of ")) << show(c.capture);
  ASSERT_EQ(c.replay.exit_code, 0) << show(c.capture) << show(c.replay);
  ASSERT_EQ(familiesOf(c).size(), families) << show(c.capture);
  for (const std::string& family : familiesOf(c)) expectFamilyReplayed(c, family);
  expectTimelineMatchesTheLog(c);
}

}  // namespace

TEST(CaptureReplay, PipelineFixtureReplaysEveryKernelVerifiedPlacedAndMutated) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!oclgrindInstalled()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh)";
  CaptureAndReplay c;
  captureAndReplay(c, "'" + kFixtures + "/pipeline'");
  expectWholePath(c, 3);
  EXPECT_TRUE(contains(fileText(c.folder() / "families" / "program1_scale_1" / "family.toml"), "flops = \"8192\""))
      << "scale does one multiply and one add per element of 4096";
  expectTimelineMatchesOwnEvents(c);

  // A variant of the user's own, added to the generated family beside the captured one, runs and is
  // verified against the application's outputs too.
  const fs::path family = c.folder() / "families" / "program1_scale_1";
  std::ofstream(family / "scale_fma.cl")
      << "__kernel void scale(__global float* x, float alpha, int n) {\n"
         "  int i = get_global_id(0); if (i < n) x[i] = fma(x[i], alpha, 1.0f);\n}\n";
  std::ofstream(family / "family.toml", std::ios::app)
      << "\n[[variants]]\nname = \"fma\"\nsource = \"scale_fma.cl\"\nkernel = \"scale\"\n"
         "args = [\"x\", \"float:0.100000001\", \"4096\"]\nglobal = [\"4096\"]\nglobal_accesses = \"8192\"\n";
  const BinaryOutcome again = runRooflab("run cap/capture.toml --out out2 --quiet", c.dir.path());
  ASSERT_EQ(again.exit_code, 0) << show(again);
  const nlohmann::json results = nlohmann::json::parse(fileText(c.dir.path() / "out2" / "results.json"));
  std::map<std::string, std::string> verification_by_variant;
  for (const nlohmann::json& r : recordsOf(results, "program1_scale_1"))
    if (r["mode"] == "normal") verification_by_variant[r["variant"]] = r["verification"]["status"];
  EXPECT_EQ(verification_by_variant, (std::map<std::string, std::string>{{"captured", "passed"}, {"fma", "passed"}}))
      << show(again);
}

// A heat-spreading application: grid sizes as build-option defines, two buffers swapping roles in a
// host loop of 60 launches, a device copy, a fill, a 2-D NDRange and a reduction in local memory.
TEST(CaptureReplay, HeatApplicationWithSwappedBuffersReplaysEveryKernel) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!oclgrindInstalled()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh)";
  CaptureAndReplay c;
  captureAndReplay(c, "'" + kFixtures + "/heat'");
  ASSERT_EQ(c.capture.exit_code, 0) << show(c.capture);
  EXPECT_TRUE(contains(c.capture.out, "heat after 60 steps")) << "the program ran unchanged\n" << show(c.capture);
  // diffuse's 60 launches are one configuration (the same scalars and sizes, whichever buffer is the
  // input): one family replaying its first launch; total_heat the other.
  expectWholePath(c, 2);
  expectTimelineMatchesOwnEvents(c);
}

TEST(CaptureReplay, PyOpenClDemoReplaysVerifiedPlacedAndMutated) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!oclgrindInstalled()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh)";
  if (!pyopenclInstalled())
    GTEST_SKIP() << "python3-pyopencl and python-pyopencl-doc are not installed (scripts/setup-debian.sh)";
  CaptureAndReplay c;
  captureAndReplay(c, kSystemPython.string() + " " + (kPyOpenClExamples / "demo.py").string(), "PYOPENCL_NO_CACHE=1 ");
  expectWholePath(c, 1);
}

TEST(CaptureReplay, PyOpenClElementwiseDemoReplaysEveryKernel) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!oclgrindInstalled()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh)";
  if (!pyopenclInstalled() || !fs::exists(kPyOpenClExamples / "demo_elementwise.py"))
    GTEST_SKIP() << "python3-pyopencl and python-pyopencl-doc are not installed (scripts/setup-debian.sh)";
  CaptureAndReplay c;
  captureAndReplay(c, kSystemPython.string() + " " + (kPyOpenClExamples / "demo_elementwise.py").string(),
                   "PYOPENCL_NO_CACHE=1 ");
  ASSERT_EQ(c.capture.exit_code, 0) << show(c.capture);
  expectWholePath(c, familiesOf(c).size());
  EXPECT_GE(familiesOf(c).size(), 2u) << "lin_comb and the array arithmetic's kernels\n" << show(c.capture);
}

TEST(CaptureReplay, AKilledProgramsCaptureReplaysWhatRanBeforeTheKill) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  CaptureAndReplay c;
  captureAndReplay(c, "'" + kFixtures + "/pipeline' kill");
  EXPECT_EQ(c.capture.exit_code, 1) << show(c.capture);
  EXPECT_TRUE(contains(c.capture.err, "the capture is incomplete")) << show(c.capture);
  ASSERT_EQ(familiesOf(c), std::vector<std::string>{"program1_scale_1"}) << "only scale ran before the kill\n"
                                                                         << show(c.capture);
  ASSERT_EQ(c.replay.exit_code, 0) << show(c.replay);
  const std::vector<nlohmann::json> records = recordsOf(c.results, "program1_scale_1");
  ASSERT_FALSE(records.empty()) << show(c.replay);
  for (const nlohmann::json& r : records)
    if (r["mode"] == "normal") EXPECT_EQ(r["verification"]["status"], "passed") << r["verification"].dump(1);
  ASSERT_TRUE(c.results.contains("capture_timeline")) << "the timeline covers what ran before the kill";
  EXPECT_GT(partSum(c.results["capture_timeline"], "kernel"), 0) << c.results["capture_timeline"]["parts"].dump(1);
}

TEST(CaptureReplay, WithoutOclgrindTheWorkStaysUnmeasuredAndTheReplayRunsItUnplaced) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  CaptureAndReplay c;
  captureAndReplay(c, "'" + kFixtures + "/pipeline'", "PATH=/nonexistent ");
  ASSERT_EQ(c.capture.exit_code, 0) << show(c.capture);
  EXPECT_TRUE(contains(c.capture.out, "work of program1_scale_1: unmeasured (oclgrind is not installed"))
      << show(c.capture);
  const std::string manifest = fileText(c.folder() / "families" / "program1_scale_1" / "family.toml");
  EXPECT_TRUE(contains(manifest, "[work]\nflops = \"unmeasured\"\nbytes = \"unmeasured\"")) << manifest;
  ASSERT_EQ(c.replay.exit_code, 0) << show(c.replay);
  for (const nlohmann::json& r : recordsOf(c.results, "program1_scale_1")) {
    if (r["mode"] != "normal") continue;
    EXPECT_EQ(r["verification"]["status"], "passed") << r["verification"].dump(1);
    for (const auto& [model, placement] : r["roofline"].items())
      EXPECT_EQ(placement["unplaced"], "work not measured") << model << ": " << placement.dump();
  }
}
