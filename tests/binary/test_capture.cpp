// `rooflab capture` as a user runs it: small C applications (tests/fixtures/capture/) run unchanged
// under the capture library; the exit code, the messages, the capture folder and its log.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include <toml++/toml.h>

#include "analyzer/json/capture_log_json.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace rooflab;
using namespace rooflab::testing;

namespace {

const std::string kFixtures = ROOFLAB_CAPTURE_FIXTURES;

std::string pipelineCommand(const std::string& out, const std::string& mode = "", const std::string& options = "") {
  return "capture --out " + out + " " + options + " -- '" + kFixtures + "/pipeline' " + mode;
}

const CapturedLaunch* launchOf(const CaptureLog& log, const std::string& kernel) {
  for (const CapturedKernel& k : log.kernels)
    if (k.name == kernel)
      for (const CapturedLaunch& l : log.launches)
        if (l.kernel_id == k.id) return &l;
  return nullptr;
}

std::uint32_t floatBits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

TEST(Capture, RecordsTheProgramsKernelsLaunchesAndTheirTimes) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap"), dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "c[10]=2.1112")) << "the program's own output passes through\n" << show(o);
  EXPECT_TRUE(contains(o.out, "exited with code 0")) << show(o);
  EXPECT_TRUE(contains(o.out, "3 kernels, 3 distinct launches (7 kernel commands)")) << show(o);
  EXPECT_TRUE(contains(o.out, "scale: 5 launches, global 4096, local NULL")) << show(o);
  for (const char* file : {"log.jsonl", "seal.json", "data"})
    EXPECT_TRUE(fs::exists(dir.path() / "cap" / file)) << file;

  const CaptureReading reading = readCaptureFolder(dir.path() / "cap");
  const CaptureLog& log = reading.log;
  EXPECT_TRUE(log.complete);
  EXPECT_EQ(log.process.mechanism, "layer");
  ASSERT_EQ(log.programs.size(), 1u);
  EXPECT_EQ(log.programs[0].build_options, "-cl-fast-relaxed-math") << "the program's options, as it passed them";
  ASSERT_TRUE(log.programs[0].source);
  EXPECT_TRUE(
      contains(fileText(dir.path() / "cap" / "data" / log.programs[0].source->name), "__kernel void block_sum"));
  EXPECT_EQ(log.queues.size(), 2u);

  const CapturedLaunch* scale = launchOf(log, "scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->commands, 5u) << "the host loop's identical launches are counted, not saved again";
  EXPECT_FALSE(scale->local_size) << "the program passed NULL";
  ASSERT_EQ(scale->arguments.size(), 3u);
  EXPECT_EQ(scale->arguments[1].type_name, "float");
  ASSERT_EQ(scale->arguments[1].value.size(), 4u);
  std::uint32_t alpha_bits;
  std::memcpy(&alpha_bits, scale->arguments[1].value.data(), 4);
  EXPECT_EQ(alpha_bits, floatBits(0.1f)) << "the float scalar's exact bits";
  EXPECT_EQ(scale->arguments[0].address_space, "global");
  ASSERT_EQ(scale->buffers.size(), 1u);
  ASSERT_TRUE(scale->buffers[0].before && scale->buffers[0].after);
  EXPECT_NE(scale->buffers[0].before->name, scale->buffers[0].after->name) << "scale writes its buffer";

  const CapturedLaunch* block_sum = launchOf(log, "block_sum");
  ASSERT_NE(block_sum, nullptr);
  ASSERT_TRUE(block_sum->local_size);
  EXPECT_EQ((*block_sum->local_size)[0], 64u);
  EXPECT_EQ(block_sum->arguments[2].kind, CapturedArgumentKind::local);
  EXPECT_EQ(block_sum->arguments[2].size_bytes, 256u);

  std::map<CapturedCommandKind, int> kinds;
  for (const CapturedCommand& c : log.commands) {
    ++kinds[c.kind];
    EXPECT_TRUE(c.times) << c.call << " #" << c.sequence << " has its event times";
    if (c.times) EXPECT_LE(c.times->start_ns, c.times->end_ns);
  }
  EXPECT_EQ(kinds[CapturedCommandKind::kernel], 7);
  EXPECT_EQ(kinds[CapturedCommandKind::map], 1);
  EXPECT_EQ(kinds[CapturedCommandKind::unmap], 1);
  EXPECT_EQ(kinds[CapturedCommandKind::read], 1);
  EXPECT_EQ(kinds[CapturedCommandKind::write], 1);
  EXPECT_TRUE(log.unsupported.empty());
}

TEST(Capture, WritesAReplayConfigWithOneFamilyPerDistinctLaunch) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap"), dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "replay (3 families): rooflab run cap/capture.toml")) << show(o);
  const fs::path cap = dir.path() / "cap";
  const std::string config = fileText(cap / "capture.toml");
  EXPECT_TRUE(contains(config, "[capture]\nfolder = \".\"")) << config;
  const auto scale_at = config.find("family = \"program1_scale_1\""),
             add_at = config.find("family = \"program1_add_1\""),
             sum_at = config.find("family = \"program1_block_sum_1\"");
  ASSERT_NE(sum_at, std::string::npos) << config;
  EXPECT_LT(scale_at, add_at) << "studies in the order the program first launched them";
  EXPECT_LT(add_at, sum_at);
  for (const char* family : {"program1_scale_1", "program1_add_1", "program1_block_sum_1"}) {
    const fs::path manifest = cap / "families" / family / "family.toml";
    try {
      const toml::table parsed = toml::parse_file(manifest.string());
      EXPECT_EQ(parsed["name"].value_or(std::string()), family);
    } catch (const toml::parse_error& e) {
      ADD_FAILURE() << manifest << " is not TOML: " << e.what();
    }
  }
  const std::string scale = fileText(cap / "families" / "program1_scale_1" / "family.toml");
  EXPECT_TRUE(contains(scale, "kernel scale, launched 5 times")) << scale;
  EXPECT_TRUE(contains(scale, "args = [\"x\", \"float:0.100000001\", \"4096\"]")) << scale;
  EXPECT_FALSE(contains(scale, "local =")) << "the program passed NULL\n" << scale;
  EXPECT_TRUE(contains(scale, "build_options = \"-cl-fast-relaxed-math\"")) << scale;
  // Counted under oclgrind when it is installed (test_capture_replay.cpp has both cases).
  EXPECT_TRUE(contains(scale, "[work]\n# counted by oclgrind --inst-counts from one run of the launch\nflops = "
                              "\"8192\"\nbytes = \"32768\"") ||
              contains(scale, "[work]\nflops = \"unmeasured\"\nbytes = \"unmeasured\""))
      << scale;
  EXPECT_TRUE(contains(scale, "init = \"file:x.in.bin\"\naccess = \"read_write\"\nexpect = \"file:x.out.bin\""))
      << scale;
  EXPECT_TRUE(contains(scale, "[check]\nreference = \"outputs\"")) << scale;
  EXPECT_EQ(fs::file_size(cap / "families" / "program1_scale_1" / "x.in.bin"), 4096u * 4);
  EXPECT_TRUE(contains(fileText(cap / "families" / "program1_scale_1" / "scale.cl"), "__kernel void scale"));
  const std::string sum = fileText(cap / "families" / "program1_block_sum_1" / "family.toml");
  EXPECT_TRUE(contains(sum, "args = [\"in\", \"out\", \"local:256\"]")) << sum;
  EXPECT_TRUE(contains(sum, "local = [\"64\"]")) << sum;
  EXPECT_TRUE(contains(
      sum, "name = \"in\"\ntype = \"float\"\ncount = \"4096\"\ninit = \"file:in.in.bin\"\naccess = \"read\"\n\n"))
      << "an input: its bytes did not change\n"
      << sum;
}

TEST(Capture, NamesWhatTheReplayCannotReproduceWhileTheProgramRunsUnchanged) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap", "unsupported"), dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "c[10]=2.1112")) << "the same results as without the capture\n" << show(o);
  EXPECT_TRUE(contains(o.out, "unsupported for replay: image (clCreateImage, 1 time)")) << show(o);
  EXPECT_TRUE(contains(o.out, "unsupported for replay: sub-buffer (clCreateSubBuffer, 1 time)")) << show(o);
  EXPECT_TRUE(contains(o.out, "unsupported for replay: out-of-order queue (clCreateCommandQueue, 1 time)")) << show(o);
  const CaptureLog log = readCaptureFolder(dir.path() / "cap").log;
  bool sub_buffer = false;
  for (const CapturedBuffer& b : log.buffers) sub_buffer = sub_buffer || b.parent_id.has_value();
  EXPECT_TRUE(sub_buffer) << "the sub-buffer names its parent";
}

TEST(Capture, TwoHostThreadsAreBothRecorded) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab("capture --out cap -- '" + kFixtures + "/threads'", dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "results 20 20")) << "each thread's buffer was bumped 20 times\n" << show(o);
  const CaptureLog log = readCaptureFolder(dir.path() / "cap").log;
  EXPECT_EQ(log.queues.size(), 2u);
  EXPECT_EQ(log.kernels.size(), 2u) << "one kernel object per thread";
  std::size_t launches = 0;
  for (const CapturedLaunch& l : log.launches) launches += l.commands;
  EXPECT_EQ(launches, 40u);
  EXPECT_EQ(log.launches.size(), 1u) << "the same configuration from both threads is one launch";
}

TEST(Capture, PreloadMechanismSeesTheSameCalls) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap", "", "--mechanism preload"), dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const CaptureLog log = readCaptureFolder(dir.path() / "cap").log;
  EXPECT_EQ(log.process.mechanism, "preload");
  EXPECT_EQ(log.kernels.size(), 3u);
  ASSERT_NE(launchOf(log, "scale"), nullptr);
  EXPECT_EQ(launchOf(log, "scale")->commands, 5u);
}

TEST(Capture, AKilledProgramLeavesAReadableIncompleteCapture) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap", "kill"), dir.path());
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(contains(o.out, "was killed by signal 9")) << show(o);
  EXPECT_TRUE(contains(o.err, "the capture is incomplete")) << show(o);
  try {
    readCaptureFolder(dir.path() / "cap");
    ADD_FAILURE() << "an incomplete capture is refused by default";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "incomplete capture")) << e.what();
  }
  const CaptureReading reading = readCaptureFolder(dir.path() / "cap", CaptureAcceptance::incomplete_too);
  EXPECT_FALSE(reading.log.complete);
  ASSERT_NE(launchOf(reading.log, "scale"), nullptr);
  EXPECT_EQ(launchOf(reading.log, "scale")->commands, 5u) << "what ran before the kill is kept";
}

TEST(Capture, AFailingProgramIsSaidAndItsCaptureKept) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const BinaryOutcome o = runRooflab(pipelineCommand("cap", "fail"), dir.path());
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(contains(o.err, "the program exited with code 3")) << show(o);
  EXPECT_EQ(readCaptureFolder(dir.path() / "cap", CaptureAcceptance::incomplete_too).log.kernels.size(), 3u);
}

TEST(Capture, AProgramThatIsNotThereLeavesNothingBehind) {
  TempDir dir;
  const BinaryOutcome o = runRooflab("capture --out cap -- ./no-such-program", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "program './no-such-program' not found")) << show(o);
  EXPECT_FALSE(fs::exists(dir.path() / "cap"));
  const BinaryOutcome on_path = runRooflab("capture --out cap -- no-such-program-on-path", dir.path());
  EXPECT_EQ(on_path.exit_code, 2) << show(on_path);
  EXPECT_TRUE(contains(on_path.err, "not found on PATH")) << show(on_path);
  dir.write("not-executable", "#!/bin/sh\n");
  const BinaryOutcome plain = runRooflab("capture --out cap -- ./not-executable", dir.path());
  EXPECT_EQ(plain.exit_code, 2) << show(plain);
  EXPECT_TRUE(contains(plain.err, "is not an executable file")) << show(plain);
  EXPECT_FALSE(fs::exists(dir.path() / "cap"));
}

TEST(Capture, AProgramWithoutOpenClIsSaidWithTheMechanismAndAHint) {
  TempDir dir;
  const BinaryOutcome o = runRooflab("capture --out cap -- '" + kFixtures + "/no_opencl'", dir.path());
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(contains(o.out, "no OpenCL here")) << show(o);
  EXPECT_TRUE(contains(o.err, "no OpenCL call was seen (mechanism: layer")) << show(o);
  EXPECT_TRUE(contains(o.err, "--mechanism preload")) << show(o);
}

TEST(Capture, AFolderOfOtherFilesIsRefusedAndAnEarlierCaptureReplaced) {
  TempDir dir;
  dir.write("mine/notes.txt", "my notes\n");
  const BinaryOutcome o = runRooflab("capture --out mine -- '" + kFixtures + "/no_opencl'", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "holds files rooflab did not write")) << show(o);
  EXPECT_EQ(fileText(dir.path() / "mine" / "notes.txt"), "my notes\n");
  ASSERT_EQ(runRooflab("capture --out cap -- '" + kFixtures + "/no_opencl'", dir.path()).exit_code, 1);
  const BinaryOutcome again = runRooflab("capture --out cap -- '" + kFixtures + "/no_opencl'", dir.path());
  EXPECT_EQ(again.exit_code, 1) << "an earlier capture's folder is rooflab's to replace\n" << show(again);
}

TEST(Capture, AnEditedLogIsRefusedNamingTheFile) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  ASSERT_EQ(runRooflab(pipelineCommand("cap"), dir.path()).exit_code, 0);
  std::ofstream(dir.path() / "cap" / "log.jsonl", std::ios::app) << "{\"t\":\"wait\"}\n";
  try {
    readCaptureFolder(dir.path() / "cap");
    ADD_FAILURE() << "an edited log is refused";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "log.jsonl: not the log the capture sealed")) << e.what();
  }
}
