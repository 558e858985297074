// The timeline of a captured application, from hand-made logs: what each part holds, overlap counted
// once, logs without event times, and the totals against the events' own sums.
#include <gtest/gtest.h>

#include "analyzer/diagnose/capture_timeline.hpp"

namespace rooflab {
namespace {

CapturedCommand command(std::uint64_t sequence, std::uint64_t queue, CapturedCommandKind kind, std::uint64_t start_ns,
                        std::uint64_t end_ns, std::uint64_t queued_ns = 0) {
  CapturedCommand c;
  c.sequence = sequence;
  c.queue_id = queue;
  c.kind = kind;
  c.blocking = true;
  c.times = CapturedEventTimes{queued_ns ? queued_ns : start_ns, queued_ns ? queued_ns : start_ns, start_ns, end_ns};
  return c;
}

CapturedCommand transfer(std::uint64_t sequence, std::uint64_t queue, CapturedCommandKind kind, std::uint64_t bytes,
                         std::uint64_t start_ns, std::uint64_t end_ns) {
  CapturedCommand c = command(sequence, queue, kind, start_ns, end_ns);
  c.bytes = bytes;
  c.buffer_id = 1;
  return c;
}

CapturedCommand kernel(std::uint64_t sequence, std::uint64_t queue, std::uint64_t launch, std::uint64_t queued_ns,
                       std::uint64_t start_ns, std::uint64_t end_ns) {
  CapturedCommand c = command(sequence, queue, CapturedCommandKind::kernel, start_ns, end_ns, queued_ns);
  c.launch_id = launch;
  return c;
}

// Two kernels (saxpy twice, scale once), a write before and a read after, on one queue.
CaptureLog oneQueueLog() {
  CaptureLog log;
  log.queues = {CapturedQueue{1, 0, false}};
  log.buffers = {CapturedBuffer{1, 4000, 0, false, std::nullopt}};
  log.kernels = {CapturedKernel{10, 1, "saxpy"}, CapturedKernel{11, 1, "scale"}};
  CapturedLaunch saxpy;
  saxpy.id = 100;
  saxpy.kernel_id = 10;
  saxpy.global_size = {1000};
  saxpy.commands = 2;
  CapturedLaunch scale = saxpy;
  scale.id = 101;
  scale.kernel_id = 11;
  scale.commands = 1;
  log.launches = {saxpy, scale};
  log.commands = {transfer(0, 1, CapturedCommandKind::write, 4000, 1000, 2000),
                  kernel(1, 1, 100, 2100, 2200, 5200),   // launch 100 ns after the write: 2000 -> 2200 is 200
                  kernel(2, 1, 100, 2150, 5300, 8300),   // queued behind the first: ready at 5200, 100 ns launch
                  kernel(3, 1, 101, 9000, 9100, 10100),  // host gap 8300 -> 9000
                  transfer(4, 1, CapturedCommandKind::read, 4000, 10200, 12200)};
  log.process.wall_ns = 50000;
  log.complete = true;
  return log;
}

const TimelinePartTime& part(const CaptureTimeline& timeline, TimelinePart which) {
  for (const TimelinePartTime& p : timeline.parts)
    if (p.part == which) return p;
  throw std::logic_error("no part");
}

TEST(CaptureTimeline, OneQueueSplitsTheSpanIntoItsParts) {
  const CaptureTimeline timeline = analyseCaptureTimeline(oneQueueLog(), {});
  EXPECT_DOUBLE_EQ(timeline.span_ns, 12200 - 1000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::kernel).exclusive_ns, 3000 + 3000 + 1000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::write).exclusive_ns, 1000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::read).exclusive_ns, 2000);
  EXPECT_EQ(part(timeline, TimelinePart::read).bytes, 4000u);
  // Launch overhead: ready -> start of each kernel: 100 (2100 -> 2200), 100 (5200 -> 5300), 100.
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::launch).sum_ns, 300);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::launch).exclusive_ns, 300);
  // Host: 2000 -> 2100, 8300 -> 9000, 10100 -> 10200.
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::host).exclusive_ns, 100 + 700 + 100);
  double parts_ns = 0;
  for (const TimelinePartTime& p : timeline.parts) parts_ns += p.exclusive_ns;
  EXPECT_DOUBLE_EQ(parts_ns, timeline.span_ns);
  EXPECT_DOUBLE_EQ(timeline.process_wall_ns, 50000);
  EXPECT_EQ(timeline.untimed_commands, 0u);
  ASSERT_EQ(timeline.boxes.size(), 5u);
  EXPECT_DOUBLE_EQ(timeline.boxes[2].ready_ns, 5200 - 1000);
}

TEST(CaptureTimeline, RanksKernelsByNameAndByLaunch) {
  const CaptureTimeline timeline = analyseCaptureTimeline(oneQueueLog(), {});
  ASSERT_EQ(timeline.kernels.size(), 2u);
  EXPECT_EQ(timeline.kernels[0].kernel, "saxpy");
  EXPECT_EQ(timeline.kernels[0].commands, 2u);
  EXPECT_DOUBLE_EQ(timeline.kernels[0].sum_ns, 6000);
  EXPECT_NEAR(timeline.kernels[0].share_of_kernels, 6.0 / 7.0, 1e-12);
  ASSERT_EQ(timeline.launches.size(), 2u);
  EXPECT_EQ(timeline.launches[0].launch_id, std::optional<std::uint64_t>(100));
  EXPECT_EQ(timeline.launches[1].kernel, "scale");
  EXPECT_EQ(timeline.launches[0].global_size, std::vector<std::uint64_t>{1000});
}

// A kernel on queue 2 runs while queue 1 uploads: the span counts the shared time once, as kernel.
TEST(CaptureTimeline, OverlappingQueuesAreNotCountedTwice) {
  CaptureLog log;
  log.queues = {CapturedQueue{1, 0, false}, CapturedQueue{2, 0, false}};
  log.commands = {transfer(0, 1, CapturedCommandKind::write, 1 << 20, 0, 4000), kernel(1, 2, 7, 1000, 1000, 3000),
                  transfer(2, 1, CapturedCommandKind::write, 1 << 20, 4000, 8000), kernel(3, 2, 7, 5000, 5000, 9000)};
  const CaptureTimeline timeline = analyseCaptureTimeline(log, {});
  EXPECT_DOUBLE_EQ(timeline.span_ns, 9000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::kernel).exclusive_ns, 6000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::write).busy_ns, 8000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::write).sum_ns, 8000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::write).exclusive_ns, 8000 - 2000 - 3000);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::host).exclusive_ns, 0);
  double parts_ns = 0;
  for (const TimelinePartTime& p : timeline.parts) parts_ns += p.exclusive_ns;
  EXPECT_DOUBLE_EQ(parts_ns, timeline.span_ns);
  ASSERT_EQ(timeline.queues.size(), 2u);
  EXPECT_DOUBLE_EQ(timeline.queues[0].busy_ns, 8000);
  EXPECT_DOUBLE_EQ(timeline.queues[1].busy_ns, 6000);
}

// A queue that gave no times: its commands are counted, not placed, and said.
TEST(CaptureTimeline, ALogWithoutEventTimesCountsItsCommands) {
  CaptureLog log = oneQueueLog();
  for (CapturedCommand& c : log.commands) c.times.reset();
  const CaptureTimeline timeline = analyseCaptureTimeline(log, {});
  EXPECT_EQ(timeline.untimed_commands, 5u);
  EXPECT_DOUBLE_EQ(timeline.span_ns, 0);
  EXPECT_TRUE(timeline.boxes.empty());
  EXPECT_EQ(part(timeline, TimelinePart::kernel).commands, 3u);
  EXPECT_EQ(part(timeline, TimelinePart::kernel).timed_commands, 0u);
  ASSERT_EQ(timeline.queues.size(), 1u);
  EXPECT_EQ(timeline.queues[0].timed_commands, 0u);
  EXPECT_EQ(timeline.kernels[0].timed_commands, 0u);
}

// The timeline's kernel and transfer totals against the sums of the events' own times, on a log of
// two queues that overlap: busy time within 10% of the sum where commands of a kind do not overlap
// each other, and the sums exact.
TEST(CaptureTimeline, TotalsMatchTheEventsOwnSums) {
  CaptureLog log;
  log.queues = {CapturedQueue{1, 0, false}, CapturedQueue{2, 0, false}};
  std::uint64_t t = 0, sequence = 0;
  double kernel_sum = 0, write_sum = 0;
  for (int i = 0; i < 20; ++i) {
    const std::uint64_t write_ns = 3000 + 97 * i, kernel_ns = 5000 + 131 * i;
    log.commands.push_back(transfer(sequence++, 1 + i % 2, CapturedCommandKind::write, 65536, t, t + write_ns));
    log.commands.push_back(
        kernel(sequence++, 1 + i % 2, 1, t + write_ns, t + write_ns + 50, t + write_ns + 50 + kernel_ns));
    write_sum += double(write_ns);
    kernel_sum += double(kernel_ns);
    t += write_ns + 40;  // the next chunk's upload starts while this kernel runs
  }
  const CaptureTimeline timeline = analyseCaptureTimeline(log, {});
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::kernel).sum_ns, kernel_sum);
  EXPECT_DOUBLE_EQ(part(timeline, TimelinePart::write).sum_ns, write_sum);
  EXPECT_NEAR(part(timeline, TimelinePart::write).busy_ns, write_sum, 0.1 * write_sum);
  EXPECT_LE(part(timeline, TimelinePart::kernel).busy_ns, kernel_sum);
  double parts_ns = 0;
  for (const TimelinePartTime& p : timeline.parts) parts_ns += p.exclusive_ns;
  EXPECT_NEAR(parts_ns, timeline.span_ns, 1e-6);
}

LinkCeiling ceiling(LinkStrategy strategy, LinkDirection direction, double gbps, double latency_ns) {
  LinkCeiling c;
  c.strategy = strategy;
  c.direction = direction;
  c.gbps = gbps;
  c.latency_ns = latency_ns;
  return c;
}

// Each transfer pattern beside the ceiling of its strategy, and what the model gives the others.
TEST(CaptureTimeline, TransfersStandBesideTheirCeilings) {
  LinkCeilings link;
  for (LinkDirection direction : {LinkDirection::host_to_device, LinkDirection::device_to_host}) {
    link.transfers.push_back(ceiling(LinkStrategy::copy, direction, 4, 10000));
    link.transfers.push_back(ceiling(LinkStrategy::copy_async, direction, 8, 10000));
    link.transfers.push_back(ceiling(LinkStrategy::map, direction, 8, 20000));
    link.transfers.push_back(ceiling(LinkStrategy::alloc_host_ptr, direction, 10, 5000));
    link.transfers.push_back(ceiling(LinkStrategy::use_host_ptr, direction, 12, 5000));
  }
  link.host_memcpy = ceiling(LinkStrategy::host_memcpy, LinkDirection::host_to_device, 10, 0);
  EndToEndCeilings ceilings{&link, 5000.0, std::nullopt};
  const CaptureTimeline timeline = analyseCaptureTimeline(oneQueueLog(), ceilings);
  ASSERT_EQ(timeline.transfers.size(), 2u);
  const TimelineTransferPattern& read = timeline.transfers[0];  // 2000 ns, the most time
  EXPECT_EQ(read.kind, CapturedCommandKind::read);
  EXPECT_EQ(read.direction, LinkDirection::device_to_host);
  EXPECT_EQ(read.strategy, LinkStrategy::copy);
  EXPECT_DOUBLE_EQ(*read.gbps, 4000.0 / 2000.0);
  EXPECT_DOUBLE_EQ(*read.ceiling_gbps, 4);
  EXPECT_DOUBLE_EQ(*read.ceiling_ns, 10000 + 4000.0 / 4);
  ASSERT_EQ(read.what_ifs.size(), 4u);
  EXPECT_EQ(read.what_ifs[3].strategy, EndToEndStrategy::use_host_ptr);
  EXPECT_DOUBLE_EQ(read.what_ifs[3].predicted_ns, 5000 + 4000.0 / 12);
  EXPECT_DOUBLE_EQ(read.what_ifs[3].saved_ns, 2000 - (5000 + 4000.0 / 12));
  // map: its ceiling plus the host copy at memcpy speed.
  EXPECT_DOUBLE_EQ(read.what_ifs[1].predicted_ns, 20000 + 4000.0 / 8 + 4000.0 / 10);
  EXPECT_EQ(timeline.application_what_ifs.size(), 5u);
  EXPECT_TRUE(timeline.link_ceilings_measured);
}

TEST(CaptureTimeline, SaysWhichBuffersAndCallsTheProgramUsed) {
  CaptureLog log = oneQueueLog();
  log.buffers.push_back(CapturedBuffer{2, 64, 1u << 3, true, std::nullopt});
  log.buffers.push_back(CapturedBuffer{3, 64, 1u << 4, false, std::nullopt});
  CapturedCommand map = transfer(5, 1, CapturedCommandKind::map, 64, 13000, 13100);
  map.buffer_id = 3;
  map.map_flags = 1;
  CapturedCommand unmap = transfer(6, 1, CapturedCommandKind::unmap, 64, 13200, 13300);
  unmap.buffer_id = 3;
  log.commands.push_back(map);
  log.commands.push_back(unmap);
  const CaptureTimeline timeline = analyseCaptureTimeline(log, {});
  EXPECT_EQ(timeline.link_use.buffers, 3u);
  EXPECT_EQ(timeline.link_use.use_host_ptr_buffers, 1u);
  EXPECT_EQ(timeline.link_use.alloc_host_ptr_buffers, 1u);
  EXPECT_EQ(timeline.link_use.blocking_copies, 2u);
  EXPECT_EQ(timeline.link_use.maps, 1u);
  EXPECT_EQ(timeline.link_use.unmaps, 1u);
  for (const TimelineTransferPattern& pattern : timeline.transfers)
    if (pattern.kind == CapturedCommandKind::unmap) {
      EXPECT_EQ(pattern.strategy, LinkStrategy::alloc_host_ptr);
      EXPECT_EQ(pattern.direction, LinkDirection::device_to_host);  // its map read
    }
}

}  // namespace
}  // namespace rooflab
