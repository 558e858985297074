#include "analyzer/diagnose/capture_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rooflab {
namespace {

constexpr std::uint64_t kCopyHostPtr = 1u << 5;  // CL_MEM_COPY_HOST_PTR

TimelinePart partOf(CapturedCommandKind kind) {
  switch (kind) {
    case CapturedCommandKind::kernel: return TimelinePart::kernel;
    case CapturedCommandKind::write: return TimelinePart::write;
    case CapturedCommandKind::read: return TimelinePart::read;
    case CapturedCommandKind::copy: return TimelinePart::copy;
    case CapturedCommandKind::fill: return TimelinePart::fill;
    case CapturedCommandKind::map: return TimelinePart::map;
    case CapturedCommandKind::unmap: return TimelinePart::unmap;
    default: return TimelinePart::other;
  }
}

constexpr TimelinePart kPartOrder[] = {
    TimelinePart::kernel, TimelinePart::write, TimelinePart::read,  TimelinePart::copy,   TimelinePart::fill,
    TimelinePart::map,    TimelinePart::unmap, TimelinePart::other, TimelinePart::launch, TimelinePart::host};

// When a command was queued: a driver that left it unreported (0, or after the start) gives its start.
double queuedNs(const CapturedEventTimes& times) {
  return times.queued_ns > 0 && times.queued_ns <= times.start_ns ? double(times.queued_ns) : double(times.start_ns);
}

// The first instant of the span: the earliest queued time of a timed command.
double originNs(const CaptureLog& log) {
  double origin = std::numeric_limits<double>::infinity();
  for (const CapturedCommand& command : log.commands)
    if (isTimed(command)) origin = std::min(origin, queuedNs(*command.times));
  return std::isinf(origin) ? 0.0 : origin;
}

// Each timed command placed relative to the span's start. On an in-order queue a command is ready
// when it was queued or, if later, when the command before it on the queue ended: the time before
// that is its queue's, not its own.
void placeBoxes(const CaptureLog& log, CaptureTimeline& timeline) {
  const double origin = originNs(log);
  std::map<std::uint64_t, bool> out_of_order;
  for (const CapturedQueue& queue : log.queues) out_of_order[queue.id] = queue.out_of_order;
  std::map<std::uint64_t, double> queue_end;
  std::vector<const CapturedCommand*> ordered;
  for (const CapturedCommand& command : log.commands) ordered.push_back(&command);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const CapturedCommand* a, const CapturedCommand* b) { return a->sequence < b->sequence; });
  for (const CapturedCommand* command : ordered) {
    if (!isTimed(*command)) {
      ++timeline.untimed_commands;
      continue;
    }
    TimelineBox box;
    box.queue_id = command->queue_id;
    box.sequence = command->sequence;
    box.kind = command->kind;
    box.launch_id = command->launch_id;
    box.start_ns = double(command->times->start_ns) - origin;
    box.end_ns = double(command->times->end_ns) - origin;
    box.ready_ns = queuedNs(*command->times) - origin;
    if (!out_of_order[command->queue_id] && queue_end.count(command->queue_id))
      box.ready_ns = std::min(box.start_ns, std::max(box.ready_ns, queue_end[command->queue_id]));
    queue_end[command->queue_id] = std::max(queue_end[command->queue_id], box.end_ns);
    timeline.boxes.push_back(box);
    timeline.span_ns = std::max(timeline.span_ns, box.end_ns);
  }
}

// Each part's intervals: a command's start -> end, and a kernel's ready -> start as launch overhead.
std::map<TimelinePart, std::vector<TimeInterval>> partIntervals(const CaptureTimeline& timeline) {
  std::map<TimelinePart, std::vector<TimeInterval>> intervals;
  for (const TimelineBox& box : timeline.boxes) {
    intervals[partOf(box.kind)].push_back({box.start_ns, box.end_ns});
    if (box.kind == CapturedCommandKind::kernel)
      intervals[TimelinePart::launch].push_back({box.ready_ns, box.start_ns});
  }
  return intervals;
}

// Each instant goes to the first part, in kPartOrder, that is busy then; the host gets the rest.
void splitSpan(const CaptureLog& log, CaptureTimeline& timeline) {
  std::map<TimelinePart, std::vector<TimeInterval>> intervals = partIntervals(timeline);
  std::map<TimelinePart, TimelinePartTime> parts;
  for (TimelinePart part : kPartOrder) parts[part].part = part;
  for (const CapturedCommand& command : log.commands) {
    TimelinePartTime& time = parts[partOf(command.kind)];
    ++time.commands;
    if (command.kind == CapturedCommandKind::kernel) ++parts[TimelinePart::launch].commands;  // a launch each
    if (!isTimed(command)) continue;
    ++time.timed_commands;
    time.bytes += command.bytes;
    time.sum_ns += double(command.times->end_ns - command.times->start_ns);
    if (command.kind == CapturedCommandKind::kernel) parts[TimelinePart::launch].timed_commands++;
  }
  for (const TimelineBox& box : timeline.boxes)
    if (box.kind == CapturedCommandKind::kernel) parts[TimelinePart::launch].sum_ns += box.start_ns - box.ready_ns;
  std::vector<TimeInterval> covered;
  for (TimelinePart part : kPartOrder) {
    if (part == TimelinePart::host) continue;
    const std::vector<TimeInterval> merged = mergedIntervals(intervals[part]);
    parts[part].busy_ns = coveredNs(merged);
    parts[part].exclusive_ns = parts[part].busy_ns - sharedNs(merged, covered);
    covered.insert(covered.end(), merged.begin(), merged.end());
    covered = mergedIntervals(std::move(covered));
  }
  TimelinePartTime& host = parts[TimelinePart::host];
  host.exclusive_ns = host.busy_ns = host.sum_ns = std::max(0.0, timeline.span_ns - coveredNs(covered));
  for (TimelinePart part : kPartOrder) timeline.parts.push_back(parts[part]);
}

void addQueues(const CaptureLog& log, CaptureTimeline& timeline) {
  std::map<std::uint64_t, TimelineQueue> queues;
  for (const CapturedQueue& queue : log.queues) queues[queue.id] = TimelineQueue{queue.id, queue.out_of_order, 0, 0, 0};
  std::map<std::uint64_t, std::vector<TimeInterval>> busy;
  for (const CapturedCommand& command : log.commands) {
    queues[command.queue_id].id = command.queue_id;
    ++queues[command.queue_id].commands;
    if (isTimed(command)) ++queues[command.queue_id].timed_commands;
  }
  for (const TimelineBox& box : timeline.boxes) busy[box.queue_id].push_back({box.start_ns, box.end_ns});
  for (auto& [id, queue] : queues) {
    queue.busy_ns = coveredNs(mergedIntervals(busy[id]));
    timeline.queues.push_back(queue);
  }
}

void addLinkUse(const CaptureLog& log, CaptureTimeline& timeline) {
  TimelineLinkUse& use = timeline.link_use;
  for (const CapturedBuffer& buffer : log.buffers) {
    ++use.buffers;
    if (buffer.flags & kUseHostPtr) ++use.use_host_ptr_buffers;
    if (buffer.flags & kAllocHostPtr) ++use.alloc_host_ptr_buffers;
    if (buffer.flags & kCopyHostPtr) ++use.copy_host_ptr_buffers;
  }
  for (const CapturedCommand& command : log.commands) {
    if (command.kind == CapturedCommandKind::write || command.kind == CapturedCommandKind::read)
      ++(command.blocking ? use.blocking_copies : use.non_blocking_copies);
    if (command.kind == CapturedCommandKind::map) ++use.maps;
    if (command.kind == CapturedCommandKind::unmap) ++use.unmaps;
  }
}

}  // namespace

std::vector<TimeInterval> mergedIntervals(std::vector<TimeInterval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const TimeInterval& a, const TimeInterval& b) { return a.begin_ns < b.begin_ns; });
  std::vector<TimeInterval> merged;
  for (const TimeInterval& interval : intervals) {
    if (!(interval.end_ns > interval.begin_ns)) continue;
    if (!merged.empty() && interval.begin_ns <= merged.back().end_ns)
      merged.back().end_ns = std::max(merged.back().end_ns, interval.end_ns);
    else merged.push_back(interval);
  }
  return merged;
}

double coveredNs(const std::vector<TimeInterval>& merged) {
  double total = 0;
  for (const TimeInterval& interval : merged) total += interval.end_ns - interval.begin_ns;
  return total;
}

double sharedNs(const std::vector<TimeInterval>& a, const std::vector<TimeInterval>& b) {
  double shared = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    shared += std::max(0.0, std::min(a[i].end_ns, b[j].end_ns) - std::max(a[i].begin_ns, b[j].begin_ns));
    if (a[i].end_ns < b[j].end_ns) ++i;
    else ++j;
  }
  return shared;
}

CaptureTimeline analyseCaptureTimeline(const CaptureLog& log, const EndToEndCeilings& ceilings) {
  CaptureTimeline timeline;
  timeline.command = log.process.command;
  timeline.device_name = log.device_name;
  timeline.platform_name = log.platform_name;
  timeline.process_wall_ns = double(log.process.wall_ns);
  timeline.log_complete = log.complete;
  timeline.link_ceilings_measured = ceilings.link != nullptr;
  timeline.launch_ceiling_ns = ceilings.launch_ns;
  placeBoxes(log, timeline);
  splitSpan(log, timeline);
  addQueues(log, timeline);
  addLinkUse(log, timeline);
  addTransferPatterns(log, ceilings, timeline);
  addHotspots(log, timeline);
  addApplicationWhatIfs(ceilings, timeline);
  return timeline;
}

}  // namespace rooflab
