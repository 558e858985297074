// A results file with a captured application's timeline, re-rendered by `rooflab report` without a
// device: the terminal's summary, the HTML section with its chart, the PNG, and the JSON read back.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzer/diagnose/capture_timeline.hpp"
#include "analyzer/json/results_file.hpp"
#include "analyzer/json/results_json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::testing::contains;
using rooflab::testing::fileText;
using rooflab::testing::runRooflab;
using rooflab::testing::show;

namespace rooflab {
namespace {

CapturedCommand timedCommand(std::uint64_t sequence, std::uint64_t queue, CapturedCommandKind kind, std::uint64_t bytes,
                             std::uint64_t start_ns, std::uint64_t end_ns) {
  CapturedCommand c;
  c.sequence = sequence;
  c.queue_id = queue;
  c.kind = kind;
  c.bytes = bytes;
  c.blocking = true;
  c.buffer_id = 1;
  c.times = CapturedEventTimes{start_ns, start_ns, start_ns, end_ns};
  if (kind == CapturedCommandKind::kernel) c.launch_id = 100;
  return c;
}

// Two queues, a write and a kernel overlapping, a read after, and a queue that gave no times.
CaptureLog twoQueueLog() {
  CaptureLog log;
  log.process.command = {"./saxpy-app", "--n", "1048576"};
  log.process.wall_ns = 40000000;
  log.device_name = "pthread-cpu";
  log.platform_name = "Portable Computing Language";
  log.complete = true;
  log.queues = {CapturedQueue{1, 0, false}, CapturedQueue{2, 0, false}, CapturedQueue{3, 0, false}};
  log.buffers = {CapturedBuffer{1, 4194304, 1u << 4, false, std::nullopt}};
  log.kernels = {CapturedKernel{10, 1, "saxpy"}};
  CapturedLaunch launch;
  launch.id = 100;
  launch.kernel_id = 10;
  launch.global_size = {1048576};
  launch.local_size = std::vector<std::uint64_t>{256};
  launch.commands = 2;
  log.launches = {launch};
  log.commands = {timedCommand(0, 1, CapturedCommandKind::write, 4194304, 0, 2000000),
                  timedCommand(1, 2, CapturedCommandKind::kernel, 0, 1000000, 3000000),
                  timedCommand(2, 2, CapturedCommandKind::kernel, 0, 3100000, 5000000),
                  timedCommand(3, 1, CapturedCommandKind::read, 4194304, 5500000, 7000000)};
  CapturedCommand untimed = timedCommand(4, 3, CapturedCommandKind::fill, 64, 0, 0);
  untimed.times.reset();
  log.commands.push_back(untimed);
  return log;
}

TEST(CaptureTimelineReport, ReportRedrawsTheTimelineFromASavedFile) {
  rooflab::testing::TempDir dir;
  ResultsDocument document =
      readResultsFile(fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/results/cpu-pocl-small.json");
  EXPECT_FALSE(document.capture_timeline.has_value());  // an older file reads as before
  document.capture_timeline = analyseCaptureTimeline(twoQueueLog(), {});
  writeResultsFile(dir.path() / "results.json", document);

  const testing::BinaryOutcome report = runRooflab("report results.json --out out --formats html,png,json", dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  EXPECT_TRUE(contains(report.out, "Captured application: ./saxpy-app --n 1048576 on pthread-cpu")) << report.out;
  EXPECT_TRUE(contains(report.out, "the commands span 7.00 ms of device time on 3 queues")) << report.out;
  EXPECT_TRUE(contains(report.out, "kernels")) << report.out;
  EXPECT_TRUE(contains(report.out, "saxpy: 3.90 ms in 2 launches, 100% of kernel time")) << report.out;
  EXPECT_TRUE(contains(report.out, "write 4.19 MB blocking ×1, host-to-device (copy): 2.10 GB/s in 2.00 ms"))
      << report.out;
  EXPECT_TRUE(contains(report.out, "queue 3 gave no device times for 1 of its 1 command")) << report.out;
  EXPECT_TRUE(contains(report.out, "the link ceilings were not measured")) << report.out;

  const std::string html = fileText(dir.path() / "out/report.html");
  EXPECT_TRUE(contains(html, "<section class=\"capture\" id=\"capture-timeline\">")) << html.substr(0, 2000);
  EXPECT_TRUE(contains(html, "data-chart=\"timeline\"")) << html.substr(0, 2000);
  EXPECT_TRUE(contains(html, "launch overhead"));
  EXPECT_TRUE(contains(html, "saxpy global [1048576] local [256]"));
#ifdef ROOFLAB_HAVE_CAIRO
  EXPECT_GT(fs::file_size(dir.path() / "out/capture-timeline.png"), 1000u);
#endif
  const ResultsDocument again = readResultsFile(dir.path() / "out/results.json");
  ASSERT_TRUE(again.capture_timeline.has_value());
  EXPECT_EQ(again.capture_timeline->boxes.size(), 4u);
  EXPECT_DOUBLE_EQ(again.capture_timeline->span_ns, 7000000);
  EXPECT_EQ(again.capture_timeline->untimed_commands, 1u);
}

// A capture folder without a readable log: an input error naming the config's line, before any
// device work, whatever the reader says of the folder.
TEST(CaptureTimelineReport, AnUnreadableCaptureIsAnInputError) {
  rooflab::testing::TempDir dir;
  dir.write("app/readme.txt", "not a capture");
  dir.write("capture.toml", "[capture]\nfolder = \"app\"\n[[study]]\nfamily = \"vecadd\"\nparams = { N = [1024] }\n");
  const testing::BinaryOutcome run = runRooflab("run capture.toml --out out", dir.path());
  EXPECT_EQ(run.exit_code, 2) << show(run);
  EXPECT_TRUE(contains(run.err, "capture.toml:2: [capture] folder: ")) << show(run);
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.json")) << show(run);
}

}  // namespace
}  // namespace rooflab
