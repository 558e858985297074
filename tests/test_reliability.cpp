// Reliability: every kind of bad input a user can hand rooflab, run through the real binary, with
// the exact exit code of DESIGN.md and the message the user reads. Faults inside a batch (a kernel
// that does not build, an allocation the device refuses, wrong results) are recorded and the batch
// goes on; an interrupt keeps the results so far. Inputs found by the fuzzers (tests/fuzz/) are
// kept here as regression tests.
//
// The 14 product bugs these tests and the fuzzers found are fixed; each test now asserts what the
// user should see, so a regression fails instead of being skipped.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/json/json_file_io.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "test_support.hpp"

extern char** environ;

using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::lineOf;
using rooflab::testing::replaced;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;
using Outcome = rooflab::testing::BinaryOutcome;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------------
// A kernel folder with one family, and a config that runs it quickly on PoCL

const char* kSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
// Deliberately wrong: subtracts.
kernel void subtract(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] - b[i];
}
// Uses a scratch buffer so that its size can be made larger than the device allows.
kernel void add_via(global const float* a, global const float* b, global float* c, global float* big, int n) {
  int i = get_global_id(0);
  if (i < n) { big[i] = a[i]; c[i] = big[i] + b[i]; }
}
kernel void add_scaled(global const float* a, global const float* b, global float* c, int n, float f) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + f * b[i];
}
kernel void copy_chars(global const char* in, global char* out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i];
}
// Slow on purpose (about a millisecond per launch on PoCL): the interrupt tests need a long batch.
kernel void add_slowly(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float x = a[i];
  for (int k = 0; k < 2000; ++k) x = x * 0.5f + a[i];
  c[i] = a[i] + b[i] + (x - x);
}
)";

const std::string kFamily = rooflab::testing::vecaddFamilyHeader("adder", "c = a + b") + R"([[variants]]
name = "good"
source = "add.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
)";

std::string variant(const std::string& name, const std::string& body) {
  return "[[variants]]\nname = \"" + name + "\"\nsource = \"add.cl\"\n" + body;
}

const char* const kRun = rooflab::testing::kQuickCpuRun;

std::string study(const std::string& family = "adder", const std::string& extra = "") {
  return "[[study]]\nfamily = \"" + family + "\"\n" + extra;
}

struct Workspace {
  TempDir dir;
  fs::path manifest;
  fs::path config;
  std::string manifest_text;
  std::string config_text;

  explicit Workspace(const std::string& family_toml = kFamily,
                     const std::string& config_toml = std::string(kRun) + study()) {
    dir.write("kernels/adder/add.cl", kSource);
    setManifest(family_toml);
    setConfig(config_toml);
  }
  void setManifest(const std::string& text) {
    manifest_text = text;
    manifest = dir.write("kernels/adder/family.toml", text);
  }
  void setConfig(const std::string& text) {
    config_text = text;
    config = dir.write("cfg.toml", text);
  }
  Outcome run(const std::string& extra = "") const { return runRooflab("run cfg.toml --quiet " + extra, dir.path()); }
  nlohmann::json results() const { return readJsonFile(dir.path() / "out" / "results.json"); }
  // "<abs>/kernels/adder/family.toml:<line>: " for the line holding `needle`
  std::string at(const std::string& needle) const {
    return manifest.string() + ":" + std::to_string(lineOf(manifest_text, needle)) + ": ";
  }
};

// The record of `variant_name`, or null when there is none.
nlohmann::json recordOf(const nlohmann::json& results, const std::string& variant_name) {
  if (results.contains("records"))
    for (const auto& r : results["records"])
      if (r["variant"] == variant_name) return r;
  return nullptr;
}

// The error of `variant_name`'s record in <out>/results.json; "" when the run left no such record
// (a crashed run writes none).
std::string recordedError(const Workspace& w, const std::string& variant_name) {
  const fs::path path = w.dir.path() / "out" / "results.json";
  if (!fs::exists(path)) return "";
  const nlohmann::json rec = recordOf(readJsonFile(path), variant_name);
  return rec.is_object() && rec.contains("error") && rec["error"].is_string() ? rec["error"].get<std::string>() : "";
}

// A manifest error: exit 2, the message names file, line and key.
void expectManifestError(const Workspace& w, const std::string& message) {
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: " + message)) << "expected: rooflab: " << message << "\n" << show(o);
}

}  // namespace

// =============================================================================================
// Command line

TEST(ReliabilityCli, UnknownFlagExits2) {
  TempDir dir;
  const Outcome o = runRooflab("run --frobnicate", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "The following argument was not expected: --frobnicate")) << show(o);
}

TEST(ReliabilityCli, UnknownSubcommandExits2) {
  TempDir dir;
  const Outcome o = runRooflab("frobnicate", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(!contains(o.err, "frobnicate")) << "regression of a fixed bug: an unknown command is answered with: " << o.err;
}

TEST(ReliabilityCli, MissingConfigFileExits2) {
  TempDir dir;
  const Outcome o = runRooflab("run nope.toml", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: nope.toml: config file cannot be read")) << show(o);
}

TEST(ReliabilityCli, ConfigThatIsAFolderExits2) {
  TempDir dir;
  fs::create_directories(dir.path() / "cfg.toml");
  const Outcome o = runRooflab("run cfg.toml", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(contains(o.err, "needs at least one [[study]]")) << "regression of a fixed bug: a folder given as the config is read as an empty config: " << o.err;
  EXPECT_TRUE(contains(o.err, "rooflab: cfg.toml: ")) << show(o);
  EXPECT_TRUE(contains(o.err, "folder") || contains(o.err, "directory") || contains(o.err, "cannot be read"))
      << show(o);
}

TEST(ReliabilityCli, UnwritableOutputFolderExits2) {
  Workspace w;
  const Outcome o = w.run("--out /proc/rooflab-x");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: output folder '/proc/rooflab-x' cannot be created or written")) << show(o);
}

TEST(ReliabilityCli, OutputFolderThatIsAFileExits2) {
  Workspace w;
  const Outcome o = w.run("--out cfg.toml");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: output folder '" + w.config.string() + "' cannot be created or written"))
      << show(o);
}

TEST(ReliabilityCli, DeviceIndexThatDoesNotExistExits3) {
  Workspace w;
  const Outcome o = w.run("--device 7:7");
  EXPECT_EQ(o.exit_code, 3) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: device selector '7:7': no device 7 on platform 7 (see `rooflab devices`)"))
      << show(o);
}

TEST(ReliabilityCli, DeviceNameThatMatchesNothingExits3) {
  Workspace w;
  const Outcome o = w.run("--device nosuchgpu");
  EXPECT_EQ(o.exit_code, 3) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: device selector 'nosuchgpu' matches no platform or device name")) << show(o);
}

TEST(ReliabilityCli, MalformedDeviceIndexExits3) {
  Workspace w;
  std::string problems;
  for (const char* selector : {"0:", "99999999999:0", "0:0:0"}) {
    const Outcome o = w.run(std::string("--device ") + selector);
    if (o.exit_code != 3 || !contains(o.err, std::string("rooflab: device selector '") + selector + "'"))
      problems += std::string("\n--device ") + selector + ": " + show(o);
  }
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(!problems.empty()) << "regression of a fixed bug: malformed P:D selectors:" << problems;
}

TEST(ReliabilityCli, UnknownFormatFlagExits2) {
  Workspace w;
  const Outcome o = w.run("--formats pdf");
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(o.exit_code != 2) << "regression of a fixed bug: --formats pdf is not rejected: " << show(o);
  EXPECT_TRUE(contains(o.err, "unknown") && contains(o.err, "pdf")) << show(o);
}

TEST(ReliabilityCli, ReportOnMissingFileExits2) {
  TempDir dir;
  const Outcome o = runRooflab("report missing.json", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: missing.json: cannot be read")) << show(o);
}

TEST(ReliabilityCli, ReportOnNonJsonFileExits2) {
  TempDir dir;
  dir.write("results.json", "this is not JSON {\n");
  const Outcome o = runRooflab("report results.json", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(
      contains(o.err, "rooflab: results.json: not valid JSON: [json.exception.parse_error.101] parse error at line 1"))
      << show(o);
}

TEST(ReliabilityCli, ReportOnJsonThatIsNotResultsExits2) {
  TempDir dir;
  dir.write("object.json", "{\"a\": 1}\n");
  dir.write("array.json", "[1, 2]\n");
  Outcome o = runRooflab("report object.json", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: object.json: results: no \"schema\" number; not a rooflab results file"))
      << show(o);
  o = runRooflab("report array.json", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: array.json: results: the document is not a JSON object")) << show(o);
}

namespace {
const std::string kResultsFixture = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/results/cpu-pocl-small.json";
}

TEST(ReliabilityCli, ReportUnknownFormatExits2) {
  TempDir dir;
  const Outcome o = runRooflab("report '" + kResultsFixture + "' --out rep --formats pdf", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "unknown report format \"pdf\" (known: html, png, json, csv)")) << show(o);
}

TEST(ReliabilityCli, ReportToUnwritableFolderExits2) {
  TempDir dir;
  const Outcome o = runRooflab("report '" + kResultsFixture + "' --out /proc/rooflab-x --formats csv", dir.path());
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(o.exit_code != 2) << "regression of a fixed bug: report to an unwritable folder: " << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: ") && contains(o.err, "'/proc/rooflab-x'")) << show(o);
  EXPECT_FALSE(contains(o.err, "unexpected error")) << show(o);
}

TEST(ReliabilityCli, DiffNamesTheFileThatIsNotResults) {
  TempDir dir;
  dir.write("object.json", "{\"a\": 1}\n");
  const Outcome o = runRooflab("diff '" + kResultsFixture + "' object.json", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(!contains(o.err, "object.json")) << "regression of a fixed bug: diff does not say which file is not a results file: " << o.err;
}

TEST(ReliabilityCli, DiffNegativeThresholdExits2) {
  TempDir dir;
  const Outcome o = runRooflab("diff '" + kResultsFixture + "' '" + kResultsFixture + "' --threshold -1", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: diff: the regression threshold must be >= 0")) << show(o);
}

// =============================================================================================
// Batch config

TEST(ReliabilityConfig, TomlSyntaxErrorNamesFileAndLine) {
  Workspace w;
  w.setConfig("[run]\ndevice = \"cpu\"\nrepetitions = 1\n[[study]\nfamily = \"adder\"\n");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: cfg.toml:4: TOML syntax error: ")) << show(o);
}

TEST(ReliabilityConfig, UnknownModeExits2) {
  Workspace w;
  w.setConfig(replaced(std::string(kRun) + study(), "modes = [\"normal\"]", "modes = [\"normal\", \"fast\"]"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(
      o.err, "rooflab: cfg.toml:5: run.modes: unknown mode 'fast' (expected normal, compute-only, memory-only or what-if)"))
      << show(o);
}

// Every input error is found before device work: the good study does not run either.
TEST(ReliabilityConfig, UnknownFamilyStopsTheBatchBeforeAnyRun) {
  Workspace w(kFamily, std::string(kRun) + study("nosuch") + study());
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(
      contains(o.err, "rooflab: cfg.toml:" + std::to_string(lineOf(w.config_text, "family = \"nosuch\"") - 1) +
                          ": study 'nosuch': no family of that name in the kernel search path (see `rooflab list`)"))
      << show(o);
  EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << show(o);
}

TEST(ReliabilityConfig, UnknownVariantExits2) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(kFamily, std::string(kRun) + study("adder", "variants = [\"good\", \"fast\", \"tiled*\"]\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder': no variant 'fast'")) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder': pattern 'tiled*' matches no variant")) << show(o);
}

TEST(ReliabilityConfig, UndeclaredParameterExits2) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(kFamily, std::string(kRun) + study("adder", "params = { M = [1, 2] }\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder': parameter 'M' is not declared in " + w.manifest.string())) << show(o);
}

TEST(ReliabilityConfig, MissingKernelFolderExits2) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(kFamily,
              replaced(std::string(kRun) + study(), "kernels = [\"kernels\"]", "kernels = [\"kernels\", \"mine\"]"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: " + (w.dir.path() / "mine").string() + ": kernel folder not found")) << show(o);
}

// =============================================================================================
// Family manifest: exit 2, "rooflab: <file>:<line>: <key>: <reason>"

TEST(ReliabilityManifest, TomlSyntaxError) {
  Workspace w(replaced(kFamily, "[work]", "[work"));
  expectManifestError(w, w.at("[work") + "TOML syntax error: ");
}

TEST(ReliabilityManifest, UnknownElementType) {
  Workspace w(replaced(kFamily, "type = \"float\"\ncount = \"N\"\n[[buffers]]\nname = \"b\"",
                       "type = \"flot\"\ncount = \"N\"\n[[buffers]]\nname = \"b\""));
  expectManifestError(w, w.at("\"flot\"") +
                             "buffers[0].type: unknown element type 'flot' (float, double, int, uint, long, ulong, "
                             "char, uchar, short, ushort, with optional 2/3/4/8/16)");
}

TEST(ReliabilityManifest, UnknownBufferInArgs) {
  Workspace w(replaced(kFamily, "args = [\"a\", \"b\", \"c\", \"N\"]", "args = [\"a\", \"bb\", \"c\", \"N\"]"));
  const std::string message =
      "variants[0].args[1]: 'bb' is not a buffer of this family and not a valid expression "
      "(expression 'bb': Unexpected token \"bb\" found at position 0.)";
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(contains(o.err, w.at("[[variants]]") + message)) << "regression of a fixed bug: an argument error names the [[variants]] line, not the args line: " << o.err;
  EXPECT_TRUE(contains(o.err, "rooflab: " + w.at("\"bb\"") + message)) << show(o);
}

TEST(ReliabilityManifest, ExpressionSyntaxError) {
  Workspace w(replaced(kFamily, "bytes = \"12*N\"", "bytes = \"12*(N\""));
  expectManifestError(w, w.at("bytes =") + "work.bytes: expression '12*(N': ");
}

TEST(ReliabilityManifest, UnknownNameInExpression) {
  Workspace w(replaced(kFamily, "bytes = \"12*N\"", "bytes = \"12*NN\""));
  expectManifestError(w, w.at("bytes =") + "work.bytes: expression '12*NN': ");
}

TEST(ReliabilityManifest, DivisionByZero) {
  Workspace w(replaced(kFamily, "flops = \"N\"", "flops = \"N/(N-N)\""));
  expectManifestError(w, w.at("flops =") + "work.flops: expression 'N/(N-N)' is not finite (division by zero?)");
}

TEST(ReliabilityManifest, ZeroSize) {
  Workspace w(replaced(kFamily, "count = \"N\"\naccess", "count = \"N-N\"\naccess"));
  expectManifestError(w, w.at("\"N-N\"") + "buffers[2].count: expression 'N-N' = 0 must be positive");
}

TEST(ReliabilityManifest, NegativeSize) {
  Workspace w(replaced(kFamily, "count = \"N\"\naccess", "count = \"-N\"\naccess"));
  expectManifestError(w, w.at("\"-N\"") + "buffers[2].count: expression '-N' = -4096 must be positive");
}

TEST(ReliabilityManifest, NegativeGlobalSize) {
  Workspace w(replaced(kFamily, "global = [\"N\"]", "global = [\"N-2*N\"]"));
  expectManifestError(w, w.at("global =") + "variants[0].global[0]: expression 'N-2*N' = -4096 must be positive");
}

TEST(ReliabilityManifest, FractionalSize) {
  Workspace w(replaced(kFamily, "count = \"N\"\naccess", "count = \"N/3\"\naccess"));
  expectManifestError(w, w.at("\"N/3\"") + "buffers[2].count: expression 'N/3' = 1365.333333 is not a whole number");
}

TEST(ReliabilityManifest, GeometryThatDoesNotDivide) {
  Workspace w(replaced(kFamily, "local = [\"64\"]", "local = [\"100\"]"));
  expectManifestError(w,
                      w.at("global =") + "variants[0].global[0]: global size 4096 is not a multiple of local size 100");
}

TEST(ReliabilityManifest, MissingSourceFile) {
  Workspace w(replaced(kFamily, "source = \"add.cl\"", "source = \"nope.cl\""));
  expectManifestError(w, w.at("nope.cl") + "variants[0].source: file '" +
                             (w.dir.path() / "kernels/adder/nope.cl").string() + "' not found");
}

TEST(ReliabilityManifest, MissingKernelInSource) {
  Workspace w(replaced(kFamily, "kernel = \"add\"", "kernel = \"add_all\""));
  expectManifestError(w,
                      w.at("kernel = \"add_all\"") + "variants[0].kernel: kernel 'add_all' is not defined in add.cl");
}

TEST(ReliabilityManifest, DuplicateVariantName) {
  Workspace w(std::string(kFamily) +
              variant("good", "kernel = \"subtract\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\n"));
  expectManifestError(w, w.at("[[variants]]") + "variants: duplicate variant name 'good'");
}

TEST(ReliabilityManifest, DuplicateBufferName) {
  Workspace w(replaced(kFamily, "name = \"b\"", "name = \"a\""));
  expectManifestError(w, w.at("[[buffers]]") + "buffers: duplicate buffer name 'a'");
}

TEST(ReliabilityManifest, NameDiffersFromFolder) {
  Workspace w(replaced(kFamily, "name = \"adder\"", "name = \"other\""), std::string(kRun) + study("other"));
  const Outcome o = w.run();
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(o.exit_code != 2) << "regression of a fixed bug: a family name that differs from its folder is accepted: " << show(o);
  EXPECT_TRUE(contains(o.err, "folder")) << show(o);
}

TEST(ReliabilityManifest, BrokenStudiedFamilyStopsTheBatch) {
  Workspace w(kFamily, std::string(kRun) + study() + study("broken"));
  w.dir.write("kernels/broken/family.toml", "name = \"broken\"\n[work\n");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "kernels/broken/family.toml:2: TOML syntax error")) << show(o);
  EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << show(o);
}

// A broken manifest that no study names is a warning: the batch runs.
TEST(ReliabilityManifest, BrokenUnstudiedFamilyDoesNotStopTheOthers) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w;
  w.dir.write("kernels/broken/family.toml", "name = \"broken\"\n[work\n");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: warning: ")) << show(o);
  EXPECT_TRUE(contains(o.err, "kernels/broken/family.toml:2: TOML syntax error")) << show(o);
  const nlohmann::json r = w.results();
  ASSERT_EQ(r["records"].size(), 1u);
  EXPECT_EQ(r["records"][0]["status"], "ok");
}

TEST(ReliabilityManifest, LongStretchWithoutBracesInTheSourceDoesNotCrash) {
  // A comment that mentions "kernel", then 2000 #define lines (36 KB with no ';', '{' or '}'):
  // generated tables look like this.
  std::string source = "// this kernel reads a generated table\n";
  for (int i = 0; i < 2000; ++i) source += "#define T" + std::to_string(i) + " " + std::to_string(i) + "\n";
  source += kSource;
  Workspace w;
  w.dir.write("kernels/adder/add.cl", source);
  const Outcome o = runRooflab("list --kernels kernels", w.dir.path());
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  // SIGSEGV, or SIGABRT under ASan ("stack-overflow").
  ASSERT_FALSE(o.exit_code >= 128) << "regression of a fixed bug: rooflab crashes on a source with a long stretch without braces";
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "adder")) << show(o);
}

// =============================================================================================
// Errors found while running: recorded, exit 1, the batch goes on

TEST(ReliabilityRun, ArgumentCountMismatchIsARecordedError) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(
      std::string(kFamily) +
      variant("three_args", "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const std::string message = "adder/three_args N=4096 (normal) on ";
  EXPECT_TRUE(contains(o.err, "rooflab: error: " + message)) << show(o);
  EXPECT_TRUE(contains(o.err, "launch 0 (add): the kernel takes 4 arguments but the manifest gives 3")) << show(o);
  const nlohmann::json r = w.results();
  EXPECT_EQ(recordOf(r, "three_args")["status"], "error");
  EXPECT_EQ(recordOf(r, "good")["status"], "ok");
}

TEST(ReliabilityRun, LocalSizeBeyondTheDeviceIsARecordedError) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(
      std::string(kFamily) +
      variant("huge_group",
              "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"8192\"]\nlocal = [\"8192\"]\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const nlohmann::json r = w.results();
  const nlohmann::json rec = recordOf(r, "huge_group");
  ASSERT_TRUE(rec.is_object()) << show(o);
  EXPECT_EQ(rec["status"], "error");
  // PoCL allows 4096 work items per group and per dimension.
  EXPECT_TRUE(contains(rec["error"].get<std::string>(),
                       "launch 0 (add): local size 8192 in dimension 0 exceeds the device's 4096"))
      << rec["error"];
  EXPECT_TRUE(contains(o.err, "exceeds the device's")) << show(o);
  EXPECT_EQ(recordOf(r, "good")["status"], "ok");
}

// A swept point that cannot be resolved is an input error, found before any point runs.
TEST(ReliabilityRun, SweptPointWithBadGeometryIsAnInputError) {
  Workspace w(kFamily, std::string(kRun) + study("adder", "params = { N = [1000, 4096] }\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder' at N=1000: " + w.at("global =") +
                                  "variants[0].global[0]: global size 1000 is not a multiple of local size 64"))
      << show(o);
  EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << show(o);
}

// One batch, three faults: a kernel that does not build, a buffer larger than the device allows,
// a kernel with wrong results. Each is recorded with its error; the good variants still run.
TEST(ReliabilityRun, FaultsInsideABatchAreRecordedAndTheBatchGoesOn) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(std::string(kFamily) +
              "[[variants]]\nname = \"no_build\"\nsource = \"broken.cl\"\nkernel = \"add\"\nargs = [\"a\", \"b\", "
              "\"c\", \"N\"]\nglobal = [\"N\"]\n" +
              variant("too_big",
                      "kernel = \"add_via\"\nargs = [\"a\", \"b\", \"c\", \"big\", \"N\"]\nglobal = [\"N\"]\n"
                      "scratch = [ { name = \"big\", type = \"float\", count = \"2^33\" } ]\n") +
              variant("wrong", "kernel = \"subtract\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\n") +
              variant("good_too",
                      "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"128\"]\n"));
  w.dir.write("kernels/adder/broken.cl", "kernel void add(global float* a) { this is not C }\n");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const nlohmann::json r = w.results();
  EXPECT_EQ(r["status"], "complete");
  ASSERT_EQ(r["records"].size(), 5u) << show(o);

  nlohmann::json no_build = recordOf(r, "no_build");
  EXPECT_EQ(no_build["status"], "error");
  EXPECT_TRUE(contains(no_build["error"].get<std::string>(), "adder/no_build N=4096 (normal) on "))
      << no_build["error"];
  EXPECT_TRUE(contains(no_build["error"].get<std::string>(), "OpenCL build of broken.cl failed")) << no_build["error"];
  EXPECT_TRUE(contains(o.err, "rooflab: error: adder/no_build")) << show(o);

  nlohmann::json too_big = recordOf(r, "too_big");
  EXPECT_EQ(too_big["status"], "error");
  EXPECT_TRUE(contains(too_big["error"].get<std::string>(), "buffer 'big' needs 34359738368 bytes; "))
      << too_big["error"];
  // PoCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE follows the host's memory (2, 4 and, on an idle 24 GiB machine, 8 GiB
  // seen here, so the buffer asks for 32 GiB): the message
  // must name the device's limit, whatever it is, and it must be below what the buffer needs.
  std::smatch limit;
  const std::string too_big_error = too_big["error"].get<std::string>();
  ASSERT_TRUE(std::regex_search(too_big_error, limit, std::regex(R"( allows at most (\d+) per allocation)"))) << too_big_error;
  EXPECT_LT(std::stoull(limit[1].str()), 34359738368ull) << too_big_error;

  nlohmann::json wrong = recordOf(r, "wrong");
  EXPECT_EQ(wrong["status"], "ok");
  EXPECT_EQ(wrong["verification"]["status"], "failed");
  EXPECT_TRUE(contains(wrong["verification"]["detail"].get<std::string>(), "c: rel. L2 error "))
      << wrong["verification"];
  EXPECT_TRUE(contains(o.err, "rooflab: verification failed: adder/wrong N=4096 (normal): c: rel. L2 error "))
      << show(o);

  for (const char* name : {"good", "good_too"}) {
    nlohmann::json good = recordOf(r, name);
    EXPECT_EQ(good["status"], "ok") << name;
    EXPECT_EQ(good["verification"]["status"], "passed") << name;
  }
  EXPECT_EQ(r["summary"]["failed"], 2);
  EXPECT_EQ(r["summary"]["verification_failed"], 1);
  EXPECT_EQ(r["summary"]["ok"], 2);
}

TEST(ReliabilityRun, HugeInputBufferIsRefusedBeforeTheHostAllocatesIt) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  // 2^40 floats (4 TiB) as a family *input* buffer.
  Workspace w(replaced(kFamily, "name = \"a\"\ntype = \"float\"\ncount = \"N\"",
                       "name = \"a\"\ntype = \"float\"\ncount = \"2^40\""));
  const Outcome o = w.run();
  const std::string error = recordedError(w, "good");
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(!contains(error, "buffer 'a' needs 4398046511104 bytes")) << "regression of a fixed bug: a huge input buffer is allocated on the host first: " << show(o);
  EXPECT_EQ(o.exit_code, 1) << show(o);
}

TEST(ReliabilityRun, BufferSizeThatOverflowsIsRefused) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  // 2^62 elements of 16 floats: the byte count (2^68) does not fit 64 bits.
  Workspace w(std::string(kFamily) +
              variant("overflow",
                      "kernel = \"add_via\"\nargs = [\"a\", \"b\", \"c\", \"big\", \"N\"]\nglobal = [\"N\"]\n"
                      "scratch = [ { name = \"big\", type = \"float16\", count = \"2^62\" } ]\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const std::string error = recordedError(w, "overflow");
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(!contains(error, "buffer 'big' needs")) << "regression of a fixed bug: a buffer byte count that overflows 64 bits wraps: " << error;
}

TEST(ReliabilityRun, FloatArgumentOutOfRangeIsRefused) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  Workspace w(
      std::string(kFamily) +
      variant("scaled",
              "kernel = \"add_scaled\"\nargs = [\"a\", \"b\", \"c\", \"N\", \"float:1e300\"]\nglobal = [\"N\"]\n"));
  const Outcome o = w.run();
  const std::string error = recordedError(w, "scaled");
  // Was a known issue (skipped with a FIXME) until fixed; now a hard check.
  ASSERT_FALSE(error.empty()) << "regression of a fixed bug: a float argument beyond FLT_MAX is not refused: " << show(o);
  EXPECT_TRUE(contains(error, "'float:1e300'")) << error;
  EXPECT_EQ(o.exit_code, 1) << show(o);
}

TEST(ReliabilityRun, IotaOnCharBuffersWraps) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  // Was undefined behaviour (128.0 converted straight to signed char); writeScalarFromDouble now
  // converts through int64 and the narrowing wraps.
  const std::string family = R"(name = "chars"
[params]
N = 300
[work]
flops = "0"
bytes = "2*N"
[[buffers]]
name = "in"
type = "char"
count = "N"
init = "iota"
[[buffers]]
name = "out"
type = "char"
count = "N"
access = "write"
[check]
reference = "variant:copy"
[[variants]]
name = "copy"
source = "add.cl"
kernel = "copy_chars"
args = ["in", "out", "N"]
global = ["N"]
)";
  Workspace w(family, std::string(kRun) + study("chars"));
  w.dir.write("kernels/chars/add.cl", kSource);
  w.dir.write("kernels/chars/family.toml", family);
  fs::remove_all(w.dir.path() / "kernels/adder");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
}

// =============================================================================================
// Interrupts: exit 130, results.json valid and marked interrupted, the records so far kept

namespace {

void expectInterruptKeepsResults(int signal_number) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  // 200 points of a slow kernel, 20 repetitions each: tens of seconds if it were not interrupted.
  std::string values;
  for (int i = 1; i <= 200; ++i) values += (values.empty() ? "" : ", ") + std::to_string(4096 + 64 * i);
  Workspace w(
      std::string(kFamily) +
          variant("slow",
                  "kernel = \"add_slowly\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n"),
      replaced(std::string(kRun), "repetitions = 1", "repetitions = 20") +
          study("adder", "variants = [\"slow\"]\nparams = { N = [" + values + "] }\n"));
  const fs::path results = w.dir.path() / "out" / "results.json";
  const std::string binary = ROOFLAB_BINARY, config = w.config.string();
  const std::string out = (w.dir.path() / "out").string(), log = (w.dir.path() / "log").string();
  std::vector<std::string> argv_text{binary, "run", config, "--quiet", "--out", out};
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);

  // Signal once the first record is on disk (results.json is written after each record), at the
  // earliest 1.5 s after the start.
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  while (Clock::now() - start < std::chrono::seconds(60)) {
    if (Clock::now() - start > std::chrono::milliseconds(1500) && fs::exists(results)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(fs::exists(results)) << rooflab::testing::fileText(log);
  ASSERT_EQ(::kill(pid, signal_number), 0);

  int status = 0;
  const auto signalled = Clock::now();
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() - signalled > std::chrono::seconds(30)) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      FAIL() << "rooflab did not stop within 30 s of signal " << signal_number << "\n" << rooflab::testing::fileText(log);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto stopped_after = std::chrono::duration<double>(Clock::now() - signalled).count();
  EXPECT_EQ(rooflab::testing::exitCodeOf(status), 130) << rooflab::testing::fileText(log);
  EXPECT_LT(stopped_after, 10.0) << "the current point should stop after its current repetition";
  const nlohmann::json r = readJsonFile(results);  // throws (fails the test) if not valid JSON
  EXPECT_EQ(r["status"], "interrupted");
  EXPECT_GE(r["records"].size(), 1u);
  EXPECT_LT(r["records"].size(), 200u);
  EXPECT_EQ(r["summary"]["not_run"].get<std::size_t>(), 200u - r["records"].size());
  EXPECT_FALSE(r["finished_at"].is_null());
  for (const auto& rec : r["records"]) EXPECT_EQ(rec["status"], "ok") << rec["error"];
  EXPECT_FALSE(fs::exists(results.string() + ".tmp" + std::to_string(pid)))
      << "a temporary results file was left behind";
  // What was kept re-renders like any results file.
  const Outcome report = runRooflab("report '" + results.string() + "' --out re --formats csv", w.dir.path());
  EXPECT_EQ(report.exit_code, 0) << show(report);
}

}  // namespace

TEST(ReliabilityInterrupt, SigintExits130AndKeepsResults) { expectInterruptKeepsResults(SIGINT); }
TEST(ReliabilityInterrupt, SigtermExits130AndKeepsResults) { expectInterruptKeepsResults(SIGTERM); }

// =============================================================================================
// Inputs found by the fuzzers (scripts/fuzz.sh, tests/fuzz/)

// fuzz_expression, first minute: "-1e30" as a count.
TEST(ReliabilityFuzz, HugeNegativeCountIsReportedWithItsValue) {
  // Was undefined behaviour (-1e30 cast to long long for the message); the value is now formatted.
  try {
    evaluateCount("-1e30", {});
    ADD_FAILURE() << "no error for -1e30";
  } catch (const ExpressionError& e) {
    EXPECT_TRUE(contains(e.what(), "must be positive")) << e.what();
    EXPECT_FALSE(contains(e.what(), "9223372036854775808")) << e.what();
  }
  for (const char* text : {"-1e30", "-N*1e300"}) {
    try {
      evaluateCount(text, {{"N", 4}}, /*allow_zero=*/true);
      ADD_FAILURE() << "no error for " << text;
    } catch (const ExpressionError& e) {
      EXPECT_TRUE(contains(e.what(), "is negative")) << e.what();
    }
  }
}
