// Where an end-to-end run's time goes, from its commands' timestamps (analyzer/run/end_to_end_timeline.hpp).
#include <gtest/gtest.h>

#include "analyzer/run/end_to_end_timeline.hpp"

using namespace rooflab;

namespace {

TimedCommand command(CommandPart part, std::int64_t queued, std::int64_t start, std::int64_t end, int queue = 0) {
  TimedCommand c;
  c.part = part;
  c.queue = queue;
  c.queued_ns = queued;
  c.start_ns = start;
  c.end_ns = end;
  return c;
}

}  // namespace

TEST(EndToEndTimeline, ABlockingRunSplitsIntoItsPartsAndGaps) {
  // Two uploads (the second queued after 5 ns of host work), a kernel launched 7 ns after it is
  // queued, a download after 3 ns more of host work.
  const EndToEndParts parts =
      partsOf({command(CommandPart::upload, 0, 2, 100), command(CommandPart::upload, 105, 106, 200),
               command(CommandPart::kernel, 200, 207, 260), command(CommandPart::download, 263, 264, 300)});
  EXPECT_DOUBLE_EQ(parts.upload_ns, 100 + 95);  // queued -> end: the issue is part of the transfer
  EXPECT_DOUBLE_EQ(parts.launch_ns, 7);
  EXPECT_DOUBLE_EQ(parts.kernel_ns, 53);
  EXPECT_DOUBLE_EQ(parts.download_ns, 37);
  EXPECT_DOUBLE_EQ(parts.total_ns, 300);
  EXPECT_DOUBLE_EQ(parts.gaps_ns, 5 + 3);
  EXPECT_DOUBLE_EQ(parts.upload_ns + parts.launch_ns + parts.kernel_ns + parts.download_ns + parts.gaps_ns,
                   parts.total_ns);
}

TEST(EndToEndTimeline, ACommandQueuedBehindAnotherOwnsOnlyItsTurn) {
  // All enqueued at once on one queue: the kernel waits for the upload, then 4 ns of launch.
  const EndToEndParts parts = partsOf({command(CommandPart::upload, 0, 1, 50), command(CommandPart::kernel, 0, 54, 80),
                                       command(CommandPart::download, 0, 81, 90)});
  EXPECT_DOUBLE_EQ(parts.upload_ns, 50);
  EXPECT_DOUBLE_EQ(parts.launch_ns, 4);
  EXPECT_DOUBLE_EQ(parts.kernel_ns, 26);
  EXPECT_DOUBLE_EQ(parts.download_ns, 10);
  EXPECT_DOUBLE_EQ(parts.gaps_ns, 0);
}

TEST(EndToEndTimeline, OverlappedPartsAddUpToMoreThanTheTotal) {
  // Chunk 0 on queue 0 and chunk 1 on queue 1: chunk 1's upload runs beside chunk 0's kernel.
  const EndToEndParts parts =
      partsOf({command(CommandPart::upload, 0, 0, 10, 0), command(CommandPart::kernel, 0, 10, 30, 0),
               command(CommandPart::download, 0, 30, 40, 0), command(CommandPart::upload, 0, 10, 20, 1),
               command(CommandPart::kernel, 0, 30, 50, 1), command(CommandPart::download, 0, 50, 60, 1)});
  EXPECT_DOUBLE_EQ(parts.total_ns, 60);
  EXPECT_DOUBLE_EQ(parts.gaps_ns, 0);
  EXPECT_DOUBLE_EQ(parts.upload_ns + parts.kernel_ns + parts.download_ns + parts.launch_ns, 80);
}

TEST(EndToEndTimeline, NoCommandsNoTime) {
  const EndToEndParts parts = partsOf({});
  EXPECT_EQ(parts.total_ns, 0);
  EXPECT_EQ(parts.gaps_ns, 0);
}

TEST(EndToEndTimeline, ACommandWithoutTimesIsLeftOut) {
  TimedCommand silent = command(CommandPart::upload, 0, 0, 0);
  silent.reported = false;
  const EndToEndParts parts =
      partsOf({silent, command(CommandPart::upload, 1000, 1010, 1100), command(CommandPart::kernel, 1100, 1105, 1200)});
  EXPECT_DOUBLE_EQ(parts.total_ns, 200);
  EXPECT_DOUBLE_EQ(parts.upload_ns, 100);
}
