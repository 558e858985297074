// Bad input is refused whole and early: every input error is found while the batch is
// planned, before a device is opened or a file written, all of them are reported, a misspelt name
// gets the nearest valid one, and the exit code is 2. Run through the real binary on PoCL, as a
// user meets them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/json/json_file_io.hpp"
#include "analyzer/support/suggestion.hpp"
#include "test_support.hpp"

using rooflab::testing::contains;
using rooflab::testing::lineOf;
using rooflab::testing::replaced;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;
using Outcome = rooflab::testing::BinaryOutcome;
namespace fs = std::filesystem;

namespace {

const char* kAdderSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
)";

const std::string kValidationFamily = rooflab::testing::vecaddFamilyHeader("adder", "c = a + b") + R"([[variants]]
name = "good"
source = "add.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
)";

const char* const kValidationRun = rooflab::testing::kQuickCpuRun;

std::string validationStudy(const std::string& extra = "", const std::string& family = "adder") {
  return "[[study]]\nfamily = \"" + family + "\"\n" + extra;
}

struct ValidationWorkspace {
  TempDir dir;
  fs::path manifest;
  std::string manifest_text;

  explicit ValidationWorkspace(const std::string& family_toml = kValidationFamily,
                               const std::string& config = std::string(kValidationRun) + validationStudy()) {
    dir.write("kernels/adder/add.cl", kAdderSource);
    manifest_text = family_toml;
    manifest = dir.write("kernels/adder/family.toml", family_toml);
    dir.write("cfg.toml", config);
  }
  Outcome run() const { return runRooflab("run cfg.toml --quiet", dir.path()); }
  fs::path out() const { return dir.path() / "out"; }
  // "<abs>/kernels/adder/family.toml:<line>: "
  std::string at(const std::string& needle) const {
    return manifest.string() + ":" + std::to_string(lineOf(manifest_text, needle)) + ": ";
  }
};

// An input error: exit 2, the message, and nothing measured or written (no output folder at all).
void expectRefusedBeforeDeviceWork(const ValidationWorkspace& w, const std::string& message) {
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, message)) << "expected: " << message << "\n" << show(o);
  EXPECT_FALSE(fs::exists(w.out())) << "an input error left an output folder\n" << show(o);
  EXPECT_FALSE(contains(o.err, "ceilings")) << show(o);
  EXPECT_FALSE(contains(o.err, " points (")) << "the batch started\n" << show(o);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Tolerances: inf would pass garbage, nan would fail a correct kernel

TEST(InputValidation, ToleranceNanIsAnInputError) {
  ValidationWorkspace w(replaced(kValidationFamily, "tolerance = 1e-6", "tolerance = nan"));
  expectRefusedBeforeDeviceWork(w, "rooflab: " + w.at("tolerance = nan") +
                                       "check.tolerance: must be a finite number (got nan)");
}

TEST(InputValidation, VariantToleranceInfIsAnInputError) {
  ValidationWorkspace w(kValidationFamily + "tolerance = inf\n");
  expectRefusedBeforeDeviceWork(w, "rooflab: " + w.at("tolerance = inf") +
                                       "variants[0].tolerance: must be a finite number (got inf)");
}

// ---------------------------------------------------------------------------------------------
// Parameters: finite, and whole where they size buffers or geometry

TEST(InputValidation, ParamNanIsAnInputError) {
  const std::string config = std::string(kValidationRun) + validationStudy("params = { N = [4096, nan] }\n");
  ValidationWorkspace w(kValidationFamily, config);
  expectRefusedBeforeDeviceWork(w, "rooflab: cfg.toml:" + std::to_string(lineOf(config, "params =")) +
                                       ": study[0].params.N: must be a finite number (got nan)");
}

TEST(InputValidation, FractionalParamThatSizesABufferIsAnInputError) {
  const std::string config = std::string(kValidationRun) + validationStudy("params = { N = [4096, 100.5] }\n");
  ValidationWorkspace w(kValidationFamily, config);
  // Names the config's study, the manifest's file, line and key, the variant and the value.
  expectRefusedBeforeDeviceWork(w, "rooflab: cfg.toml:" + std::to_string(lineOf(config, "[[study]]")) +
                                       ": study 'adder' at N=100.5: " + w.at("count = \"N\"") +
                                       "buffers[0].count: parameter N = 100.5 must be a whole number: it sizes 'N' "
                                       "(variant 'good')");
}

TEST(InputValidation, FractionalManifestDefaultThatSizesABufferIsAnInputError) {
  ValidationWorkspace w(replaced(kValidationFamily, "N = 4096", "N = 100.5"));
  expectRefusedBeforeDeviceWork(w, "parameter N = 100.5 must be a whole number");
}

// A fraction where nothing is sized (a scale factor) is fine.
TEST(InputValidation, FractionalParamThatSizesNothingRuns) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w(replaced(kValidationFamily, "N = 4096", "N = 4096\nF = 0.5"),
                        std::string(kValidationRun) + validationStudy("params = { F = [0.25] }\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
}

// ---------------------------------------------------------------------------------------------
// All errors at once, each misspelt name with the nearest valid one

TEST(InputValidation, EveryInputErrorIsReportedWithSuggestions) {
  ValidationWorkspace w(kValidationFamily, std::string(kValidationRun) + validationStudy("", "addr") +
                                               validationStudy("variants = [\"goood\"]\n") +
                                               validationStudy("params = { NN = [64] }\n"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'addr': no family of that name in the kernel search path (did you mean 'adder'?)"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder': no variant 'goood' (did you mean 'good'?)")) << show(o);
  EXPECT_TRUE(contains(o.err, "study 'adder': parameter 'NN' is not declared in " + w.manifest.string() +
                                  " (did you mean 'N'?)"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: 3 input errors; nothing was run")) << show(o);
  EXPECT_FALSE(fs::exists(w.out())) << show(o);
}

TEST(InputValidation, MisspeltReferenceModelGetsASuggestion) {
  ValidationWorkspace w(kValidationFamily,
                        replaced(std::string(kValidationRun), "[run]\n", "[run]\nreference_model = \"gtx760\"\n") +
                            validationStudy());
  expectRefusedBeforeDeviceWork(w, "reference_model 'gtx760' not found in");
  EXPECT_TRUE(contains(w.run().err, "(did you mean 'gtx670'?)"));
}

// A device selector that matches nothing names the nearest keyword or name and the devices there are.
TEST(InputValidation, MisspeltDeviceSelectorGetsASuggestionAndTheDevices) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w;
  const Outcome o = runRooflab("run cfg.toml --quiet --device gpuu", w.dir.path());
  EXPECT_EQ(o.exit_code, 3) << show(o);
  EXPECT_TRUE(contains(o.err, "device selector 'gpuu' matches no platform or device name (did you mean 'gpu'?)"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "; devices: 0:")) << show(o);
}

TEST(InputValidation, NoSuggestionForANameNearNothing) {
  EXPECT_EQ(rooflab::didYouMean("fast", {"good", "wrong"}), "");
  EXPECT_EQ(rooflab::didYouMean("matmull", {"vecadd", "matmul", "reduce"}), " (did you mean 'matmul'?)");
  EXPECT_EQ(rooflab::didYouMean("Tiled16", {"tiled16", "tiled32"}), " (did you mean 'tiled16'?)");
  EXPECT_EQ(rooflab::nearestName("x", {}), "");
}

// ---------------------------------------------------------------------------------------------
// Kernel folders: a symlink loop or an unreadable entry is skipped with a warning

TEST(InputValidation, SymlinkLoopInAKernelsFolderIsSkippedWithAWarning) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w;
  fs::create_directory_symlink("loop", w.dir.path() / "kernels" / "loop");  // kernels/loop -> itself
  fs::create_directories(w.dir.path() / "kernels" / "inner");
  fs::create_symlink("family.toml", w.dir.path() / "kernels" / "inner" / "family.toml");  // a file loop
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: warning: " + (w.dir.path() / "kernels" / "loop").string() + ": skipped"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: warning: " + (w.dir.path() / "kernels" / "inner" / "family.toml").string() +
                                  ": skipped"))
      << show(o);
  const nlohmann::json r = rooflab::readJsonFile(w.out() / "results.json");
  ASSERT_EQ(r["records"].size(), 1u);
  EXPECT_EQ(r["records"][0]["status"], "ok");
}

TEST(InputValidation, ListSkipsASymlinkLoopWithAWarning) {
  ValidationWorkspace w;
  fs::create_directory_symlink("loop", w.dir.path() / "kernels" / "loop");
  const Outcome o = runRooflab("list --kernels kernels", w.dir.path());
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "adder")) << show(o);
  EXPECT_TRUE(contains(o.err, "warning: ")) << show(o);
}

// ---------------------------------------------------------------------------------------------
// The count printed is the families studied

TEST(InputValidation, OneFamilyConfigSaysOneFamily) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w;
  w.dir.write("kernels/other/add.cl", kAdderSource);
  w.dir.write("kernels/other/family.toml", replaced(kValidationFamily, "name = \"adder\"", "name = \"other\""));
  const Outcome o = runRooflab("run cfg.toml", w.dir.path());
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: 1 points (1 family) on ")) << show(o);
}

// ---------------------------------------------------------------------------------------------
// report and diff: a folder or another non-file is bad input; a diff with nothing matched says why

TEST(InputValidation, ReportAndDiffOnAFolderExit2) {
  TempDir dir;
  fs::create_directories(dir.path() / "results.json");
  const Outcome report = runRooflab("report results.json", dir.path());
  EXPECT_EQ(report.exit_code, 2) << show(report);
  EXPECT_TRUE(contains(report.err, "rooflab: results.json: is a folder, not a results file")) << show(report);
  const Outcome diff = runRooflab("diff results.json results.json", dir.path());
  EXPECT_EQ(diff.exit_code, 2) << show(diff);
  EXPECT_TRUE(contains(diff.err, "is a folder, not a results file")) << show(diff);
  const Outcome device = runRooflab("report /dev/null", dir.path());
  EXPECT_EQ(device.exit_code, 2) << show(device);
  EXPECT_TRUE(contains(device.err, "/dev/null: is not a regular file")) << show(device);
}

TEST(InputValidation, DiffAgainstAnEmptyRunExits2AndSaysWhy) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w;
  const Outcome run = w.run();
  ASSERT_EQ(run.exit_code, 0) << show(run);
  nlohmann::json empty = rooflab::readJsonFile(w.out() / "results.json");
  empty["records"] = nlohmann::json::array();
  empty["status"] = "running";
  rooflab::writeJsonAtomically(w.dir.path() / "empty.json", empty);
  const Outcome diff = runRooflab("diff out/results.json empty.json", w.dir.path());
  EXPECT_EQ(diff.exit_code, 2) << show(diff);
  EXPECT_TRUE(contains(diff.err, "nothing to compare: NEW has 0 records (status: running)")) << show(diff);
  EXPECT_FALSE(contains(diff.out + diff.err, "no regression")) << show(diff);

  nlohmann::json other = rooflab::readJsonFile(w.out() / "results.json");
  for (auto& r : other["records"]) r["family"] = "other";
  rooflab::writeJsonAtomically(w.dir.path() / "other.json", other);
  const Outcome other_diff = runRooflab("diff out/results.json other.json", w.dir.path());
  EXPECT_EQ(other_diff.exit_code, 2) << show(other_diff);
  EXPECT_TRUE(contains(other_diff.err, "nothing to compare: no family in common: OLD holds adder, NEW holds other"))
      << show(other_diff);
}

// ---------------------------------------------------------------------------------------------
// Verification's blame, through a batch: a NaN-writing reference, a wrong variant with atomics

TEST(InputValidation, AReferenceThatWritesNanIsBlamedNotTheVariant) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w(replaced(kValidationFamily, "reference = \"cpu:vecadd\"", "reference = \"variant:nanref\"") +
                            R"([[variants]]
name = "nanref"
source = "nanref.cl"
kernel = "nanref"
args = ["a", "b", "c", "N"]
global = ["N"]
)",
                        std::string(kValidationRun) + validationStudy("variants = [\"good\"]\n"));
  w.dir.write("kernels/adder/nanref.cl", R"(
kernel void nanref(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = i == 3 ? NAN : a[i] + b[i];
}
)");
  const Outcome o = w.run();
  // Nothing showed the variant's results right: it fails verification, naming the reference.
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const nlohmann::json r = rooflab::readJsonFile(w.out() / "results.json");
  ASSERT_EQ(r["records"].size(), 1u);
  const nlohmann::json& v = r["records"][0]["verification"];
  EXPECT_EQ(v["status"], "failed") << v.dump();
  EXPECT_EQ(v["detail"],
            "the reference (variant:nanref) is at fault, not this variant: its output holds NaN or inf: c: 1 of 4096 "
            "values NaN or infinite (first at 3)")
      << v.dump();
}

TEST(InputValidation, AFailingVariantWithAtomicsAtToleranceZeroGetsANote) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  ValidationWorkspace w(kValidationFamily + R"([[variants]]
name = "swapped"
source = "swapped.cl"
kernel = "swapped"
args = ["a", "b", "c", "N"]
global = ["N"]
tolerance = 0
)",
                        std::string(kValidationRun) + validationStudy("variants = [\"swapped\"]\n"));
  // Wrong on purpose (a - b), written through an atomic exchange.
  w.dir.write("kernels/adder/swapped.cl", R"(
kernel void swapped(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) atomic_xchg(&c[i], a[i] - b[i]);
}
)");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(contains(o.err, "note: this variant uses atomics")) << show(o);
  const nlohmann::json r = rooflab::readJsonFile(w.out() / "results.json");
  ASSERT_EQ(r["records"].size(), 1u);
  EXPECT_EQ(r["records"][0]["verification"]["status"], "failed");
  EXPECT_TRUE(contains(r["records"][0]["verification"]["detail"].get<std::string>(), "may be nondeterministic"));
}

TEST(InputValidation, ASwapOfTwoLettersIsOneEdit) {
  EXPECT_EQ(rooflab::editDistance("gtx760", "gtx670"), 1u);
  EXPECT_EQ(rooflab::editDistance("gtx760", "gtx280"), 2u);
  EXPECT_EQ(rooflab::editDistance("", "abc"), 3u);
}

// A sweep that fails at every point shows the first 20 errors and how many more there are.
TEST(InputValidation, ASweepOfBadPointsIsSummarised) {
  std::string values;
  for (int n = 100; n < 125; ++n) values += (values.empty() ? "" : ", ") + std::to_string(n);
  ValidationWorkspace w(kValidationFamily,
                        std::string(kValidationRun) + validationStudy("params = { N = [" + values + "] }\n"));
  expectRefusedBeforeDeviceWork(w, "rooflab: ... and 5 more\nrooflab: 25 input errors; nothing was run");
}
