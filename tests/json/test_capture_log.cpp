// The capture folder's reader (analyzer/json/capture_log_json.cpp) on hand-written logs: what each
// line becomes, a torn last line, and the refusals that name the file and why.
#include <gtest/gtest.h>

#include "analyzer/json/capture_log_json.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

using namespace rooflab;
using namespace rooflab::testing;

namespace {

const std::string kLog = std::string(R"({"t":"start","format":1,"version":")") + ROOFLAB_VERSION +
                         R"(","mechanism":"layer","pid":1,"host_ns":5}
{"t":"device","platform":"P","name":"D"}
{"t":"queue","id":2,"context":1,"properties":0,"out_of_order":false}
{"t":"program","id":3,"kind":"source","call":"clCreateProgramWithSource","source":{"name":"abc","bytes":10}}
{"t":"build","program":3,"options":"-DN=4","built":true,"status":0,"log":"ok"}
{"t":"kernel","id":4,"program":3,"name":"k","args":[{"type":"float*","name":"x","space":"global"},{"type":"float","name":"a","space":"private"}]}
{"t":"buffer","id":5,"bytes":16,"flags":1,"host_ptr":false,"call":"clCreateBuffer"}
{"t":"launch","id":6,"kernel":4,"work_dim":1,"global":[4],"local":null,"args":[{"kind":"buffer","buffer":5},{"kind":"scalar","bytes":4,"value":"0000803f"}]}
{"t":"saved","launch":6,"buffer":5,"when":"before","data":{"name":"b0","bytes":16}}
{"t":"saved","launch":6,"buffer":5,"when":"after","data":{"name":"b1","bytes":16}}
{"t":"command","seq":1,"queue":2,"kind":"kernel","call":"clEnqueueNDRangeKernel","host_begin_ns":10,"host_end_ns":20,"blocking":false,"wait_list":0,"status":0,"launch":6}
{"t":"command","seq":2,"queue":2,"kind":"kernel","call":"clEnqueueNDRangeKernel","host_begin_ns":30,"host_end_ns":40,"blocking":false,"wait_list":0,"status":0,"launch":6}
{"t":"times","seq":1,"queued_ns":1,"submit_ns":2,"start_ns":3,"end_ns":4}
{"t":"unsupported","feature":"image","call":"clCreateImage"}
{"t":"unsupported","feature":"image","call":"clCreateImage"}
)";

CaptureSeal sealOf(bool complete) {
  CaptureSeal seal;
  seal.complete = complete;
  seal.incomplete_reason = complete ? "" : "the program was killed by signal 9 before it ended";
  seal.process.command = {"./app"};
  seal.process.exit_code = 0;
  seal.process.mechanism = "layer";
  return seal;
}

std::string errorOf(const std::filesystem::path& dir, CaptureAcceptance acceptance = CaptureAcceptance::complete_only) {
  try {
    readCaptureFolder(dir, acceptance);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CaptureLogReader, ReadsEachLineIntoTypedValues) {
  TempDir dir;
  dir.write("log.jsonl", kLog + R"({"t":"exit","calls":12,"host_ns":50})" + "\n");
  writeCaptureSeal(dir.path(), sealOf(true));
  const CaptureReading reading = readCaptureFolder(dir.path());
  const CaptureLog& log = reading.log;
  EXPECT_FALSE(reading.torn_line);
  EXPECT_EQ(log.device_name, "D");
  EXPECT_EQ(log.calls_seen, 12u);
  ASSERT_EQ(log.programs.size(), 1u);
  EXPECT_EQ(log.programs[0].build_options, "-DN=4");
  ASSERT_EQ(log.launches.size(), 1u);
  const CapturedLaunch& l = log.launches[0];
  EXPECT_EQ(l.commands, 2u);
  EXPECT_FALSE(l.local_size);
  EXPECT_EQ(l.arguments[1].type_name, "float");
  EXPECT_EQ(l.arguments[1].value, (std::vector<std::uint8_t>{0x00, 0x00, 0x80, 0x3f}));
  ASSERT_EQ(l.buffers.size(), 1u);
  EXPECT_EQ(l.buffers[0].before->name, "b0");
  EXPECT_EQ(l.buffers[0].after->name, "b1");
  ASSERT_EQ(log.commands.size(), 2u);
  EXPECT_TRUE(log.commands[0].times);
  EXPECT_FALSE(log.commands[1].times);
  ASSERT_EQ(log.unsupported.size(), 1u);
  EXPECT_EQ(log.unsupported[0].count, 2u);
}

TEST(CaptureLogReader, DropsATornLastLineAndSaysWhich) {
  TempDir dir;
  dir.write("log.jsonl", kLog + R"({"t":"command","seq":3,"qu)");
  writeCaptureSeal(dir.path(), sealOf(false));
  EXPECT_TRUE(contains(errorOf(dir.path()), "an incomplete capture: the program was killed by signal 9"));
  const CaptureReading reading = readCaptureFolder(dir.path(), CaptureAcceptance::incomplete_too);
  ASSERT_TRUE(reading.torn_line);
  EXPECT_EQ(*reading.torn_line, 16u);
  EXPECT_EQ(reading.log.commands.size(), 2u);
  EXPECT_FALSE(reading.log.complete);
}

TEST(CaptureLogReader, RefusalsNameTheFileAndTheReason) {
  TempDir dir;
  dir.write("log.jsonl", kLog);
  EXPECT_TRUE(contains(errorOf(dir.path()), "seal.json: missing: the capture did not finish"));
  writeCaptureSeal(dir.path(), sealOf(true));
  dir.write("log.jsonl", kLog + "{\"t\":\"wait\"}\n");
  EXPECT_TRUE(contains(errorOf(dir.path()), "log.jsonl: not the log the capture sealed"));
  dir.write("log.jsonl", kLog + "{\"t\":\"mystery\"}\n");
  writeCaptureSeal(dir.path(), sealOf(true));
  EXPECT_TRUE(contains(errorOf(dir.path()), "log.jsonl:16: unknown line kind \"mystery\"")) << errorOf(dir.path());
  dir.write("seal.json", replaced(fileText(dir.path() / "seal.json"), ROOFLAB_VERSION, "0.0.9"));
  EXPECT_TRUE(contains(errorOf(dir.path()), "seal.json: a capture of rooflab 0.0.9")) << errorOf(dir.path());
}
