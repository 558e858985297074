// Reliability: every kind of bad input a user can hand rooflab, run through the real binary, with
// the exact exit code (docs/using.md, "Commands") and the message the user reads. Faults inside a batch (a kernel
// that does not build, an allocation the device refuses, wrong results) are recorded and the batch
// goes on; an interrupt keeps the results so far. Inputs found by the fuzzers (tests/fuzz/) are
// kept here as regression tests.
//
// The 14 product bugs these tests and the fuzzers found are fixed; each test now asserts what the
// user should see, so a regression fails instead of being skipped.
//
// This file: the command line (ReliabilityCli).

#include "binary/reliability_workspace.hpp"

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
  ASSERT_FALSE(!contains(o.err, "frobnicate"))
      << "regression of a fixed bug: an unknown command is answered with: " << o.err;
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
  ASSERT_FALSE(contains(o.err, "needs at least one [[study]]"))
      << "regression of a fixed bug: a folder given as the config is read as an empty config: " << o.err;
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

// A GPU's PCI location as `rooflab devices` and nvidia-smi write it: PoCL's CPU device has none.
TEST(ReliabilityCli, DevicePciLocationThatNamesNoDeviceExits3) {
  Workspace w;
  for (const char* location : {"0000:1b:00", "00000000:1B:00.0"}) {
    const Outcome o = w.run(std::string("--device pci:") + location);
    EXPECT_EQ(o.exit_code, 3) << show(o);
    EXPECT_TRUE(contains(o.err, std::string("rooflab: device selector 'pci:") + location +
                                    "': no device at PCI 0000:1b:00 (see `rooflab devices`, which gives each GPU's)"))
        << show(o);
  }
  const Outcome o = w.run("--device pci:1b");
  EXPECT_EQ(o.exit_code, 3) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: device selector 'pci:1b': expected pci: and a PCI location such as 0000:1b:00"))
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
  ASSERT_FALSE(!contains(o.err, "object.json"))
      << "regression of a fixed bug: diff does not say which file is not a results file: " << o.err;
}

TEST(ReliabilityCli, DiffNegativeThresholdExits2) {
  TempDir dir;
  const Outcome o = runRooflab("diff '" + kResultsFixture + "' '" + kResultsFixture + "' --threshold -1", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: diff: the regression threshold must be >= 0")) << show(o);
}