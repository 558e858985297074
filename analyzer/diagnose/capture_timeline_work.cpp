// The timeline's transfer patterns beside the link ceilings and the end-to-end model, and its kernels
// ranked by their time.
#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/diagnose/capture_timeline.hpp"

namespace rooflab {
namespace {

constexpr std::uint64_t kMapRead = 1u << 0;  // CL_MAP_READ

double ownNs(const CapturedCommand& command) { return double(command.times->end_ns - command.times->start_ns); }

// Which way a transfer crosses the link, and which ceiling times it. A map that reads brings data
// down; one that only writes, and the unmap that follows it, take it up (the unmap inherits its map's
// direction, as the link ceilings time a map and its unmap together).
struct TransferWay {
  std::optional<LinkDirection> direction;
  std::optional<LinkStrategy> strategy;
};

TransferWay wayOf(const CapturedCommand& command, std::uint64_t buffer_flags,
                  std::map<std::uint64_t, bool>& map_reads) {
  TransferWay way;
  const LinkStrategy map_strategy = (buffer_flags & kUseHostPtr)     ? LinkStrategy::use_host_ptr
                                    : (buffer_flags & kAllocHostPtr) ? LinkStrategy::alloc_host_ptr
                                                                     : LinkStrategy::map;
  switch (command.kind) {
    case CapturedCommandKind::write:
    case CapturedCommandKind::read:
      way.direction =
          command.kind == CapturedCommandKind::write ? LinkDirection::host_to_device : LinkDirection::device_to_host;
      way.strategy = command.blocking ? LinkStrategy::copy : LinkStrategy::copy_async;
      break;
    case CapturedCommandKind::map:
      map_reads[command.buffer_id] = (command.map_flags & kMapRead) != 0;
      way.direction = map_reads[command.buffer_id] ? LinkDirection::device_to_host : LinkDirection::host_to_device;
      way.strategy = map_strategy;
      break;
    case CapturedCommandKind::unmap:
      way.direction = map_reads.count(command.buffer_id) && map_reads[command.buffer_id]
                          ? LinkDirection::device_to_host
                          : LinkDirection::host_to_device;
      way.strategy = map_strategy;
      break;
    default: break;
  }
  return way;
}

bool isTransfer(CapturedCommandKind kind) {
  return kind == CapturedCommandKind::write || kind == CapturedCommandKind::read || kind == CapturedCommandKind::copy ||
         kind == CapturedCommandKind::fill || kind == CapturedCommandKind::map || kind == CapturedCommandKind::unmap;
}

// The end-to-end model's time for `pattern`'s timed transfers made by `strategy`: predictRun of a run
// that moves only them (no kernel, no launch), host copies included for the map strategies that need one.
std::optional<double> predictedTransfersNs(const TimelineTransferPattern& pattern, EndToEndStrategy strategy,
                                           const EndToEndCeilings& ceilings) {
  EndToEndRun run;
  run.strategy = strategy;
  const int count = int(pattern.timed_commands);
  const std::uint64_t bytes = pattern.timed_commands * pattern.bytes;
  if (*pattern.direction == LinkDirection::host_to_device) {
    run.upload_buffers = count;
    run.upload_bytes = bytes;
  } else {
    run.download_buffers = count;
    run.download_bytes = bytes;
  }
  if (strategy == EndToEndStrategy::map || strategy == EndToEndStrategy::alloc_host_ptr) run.host_copy_bytes = bytes;
  EndToEndCeilings without_launch = ceilings;
  without_launch.launch_ns = 0.0;
  const std::optional<EndToEndParts> parts = predictRun(run, 0, without_launch);
  if (!parts) return std::nullopt;
  return parts->total_ns;
}

void judgePattern(TimelineTransferPattern& pattern, const EndToEndCeilings& ceilings) {
  if (pattern.sum_ns > 0) pattern.gbps = double(pattern.bytes * pattern.timed_commands) / pattern.sum_ns;
  if (!ceilings.link || !pattern.direction || !pattern.strategy || pattern.timed_commands == 0) return;
  if (const LinkCeiling* ceiling = ceilings.link->find(*pattern.strategy, *pattern.direction)) {
    pattern.ceiling_gbps = ceiling->gbps;
    pattern.ceiling_latency_ns = ceiling->latency_ns;
    pattern.ceiling_zero_copy = ceiling->zero_copy;
    if (const std::optional<double> one_ns = ceiling->predictNs(double(pattern.bytes)))
      pattern.ceiling_ns = *one_ns * double(pattern.timed_commands);
  }
  for (EndToEndStrategy strategy : {EndToEndStrategy::copy, EndToEndStrategy::map, EndToEndStrategy::alloc_host_ptr,
                                    EndToEndStrategy::use_host_ptr})
    if (const std::optional<double> predicted = predictedTransfersNs(pattern, strategy, ceilings))
      pattern.what_ifs.push_back({strategy, *predicted, pattern.sum_ns - *predicted});
}

}  // namespace

void addTransferPatterns(const CaptureLog& log, const EndToEndCeilings& ceilings, CaptureTimeline& timeline) {
  std::map<std::uint64_t, std::uint64_t> flags;
  for (const CapturedBuffer& buffer : log.buffers) flags[buffer.id] = buffer.flags;
  std::map<std::uint64_t, bool> map_reads;
  using Key = std::tuple<int, std::uint64_t, bool, int, int>;
  std::map<Key, TimelineTransferPattern> patterns;
  for (const CapturedCommand& command : log.commands) {
    if (!isTransfer(command.kind)) continue;
    const TransferWay way = wayOf(command, flags[command.buffer_id], map_reads);
    const Key key{int(command.kind), command.bytes, command.blocking, way.direction ? int(*way.direction) : -1,
                  way.strategy ? int(*way.strategy) : -1};
    TimelineTransferPattern& pattern = patterns[key];
    pattern.kind = command.kind;
    pattern.bytes = command.bytes;
    pattern.blocking = command.blocking;
    pattern.direction = way.direction;
    pattern.strategy = way.strategy;
    ++pattern.commands;
    if (!isTimed(command)) continue;
    ++pattern.timed_commands;
    pattern.sum_ns += ownNs(command);
  }
  for (auto& [key, pattern] : patterns) {
    judgePattern(pattern, ceilings);
    timeline.transfers.push_back(std::move(pattern));
  }
  std::stable_sort(
      timeline.transfers.begin(), timeline.transfers.end(),
      [](const TimelineTransferPattern& a, const TimelineTransferPattern& b) { return a.sum_ns > b.sum_ns; });
}

void addHotspots(const CaptureLog& log, CaptureTimeline& timeline) {
  std::map<std::uint64_t, const CapturedLaunch*> launches;
  for (const CapturedLaunch& launch : log.launches) launches[launch.id] = &launch;
  std::map<std::uint64_t, std::string> kernel_names;
  for (const CapturedKernel& kernel : log.kernels) kernel_names[kernel.id] = kernel.name;
  std::map<std::string, TimelineHotspot> by_name;
  std::map<std::uint64_t, TimelineHotspot> by_launch;
  double kernels_ns = 0;
  for (const CapturedCommand& command : log.commands) {
    if (command.kind != CapturedCommandKind::kernel) continue;
    const CapturedLaunch* launch =
        command.launch_id && launches.count(*command.launch_id) ? launches[*command.launch_id] : nullptr;
    const std::string name = launch && kernel_names.count(launch->kernel_id) ? kernel_names[launch->kernel_id] : "";
    std::vector<TimelineHotspot*> spots{&by_name[name]};
    by_name[name].kernel = name;
    if (launch) {
      TimelineHotspot& spot = by_launch[launch->id];
      spot.kernel = name;
      spot.launch_id = launch->id;
      spot.global_size = launch->global_size;
      spot.local_size = launch->local_size;
      spots.push_back(&spot);
    }
    const double ns = isTimed(command) ? ownNs(command) : 0;
    kernels_ns += ns;
    for (TimelineHotspot* spot : spots) {
      ++spot->commands;
      spot->timed_commands += isTimed(command) ? 1 : 0;
      spot->sum_ns += ns;
    }
  }
  auto rank = [&](auto& from, std::vector<TimelineHotspot>& into) {
    for (auto& [key, spot] : from) {
      spot.share_of_kernels = kernels_ns > 0 ? spot.sum_ns / kernels_ns : 0;
      spot.share_of_span = timeline.span_ns > 0 ? spot.sum_ns / timeline.span_ns : 0;
      into.push_back(spot);
    }
    std::stable_sort(into.begin(), into.end(),
                     [](const TimelineHotspot& a, const TimelineHotspot& b) { return a.sum_ns > b.sum_ns; });
  };
  rank(by_name, timeline.kernels);
  rank(by_launch, timeline.launches);
}

void addApplicationWhatIfs(const EndToEndCeilings& ceilings, CaptureTimeline& timeline) {
  if (!ceilings.link) return;
  EndToEndRun run;
  double measured_ns = 0;
  for (const TimelineTransferPattern& pattern : timeline.transfers) {
    if (!pattern.direction || pattern.kind == CapturedCommandKind::unmap) continue;
    measured_ns += pattern.sum_ns;
    const bool up = *pattern.direction == LinkDirection::host_to_device;
    (up ? run.upload_buffers : run.download_buffers) += int(pattern.timed_commands);
    (up ? run.upload_bytes : run.download_bytes) += pattern.timed_commands * pattern.bytes;
  }
  for (const TimelineTransferPattern& pattern : timeline.transfers)
    if (pattern.kind == CapturedCommandKind::unmap) measured_ns += pattern.sum_ns;
  const TimelinePartTime* kernel = nullptr;
  const TimelinePartTime* launch = nullptr;
  for (const TimelinePartTime& part : timeline.parts) {
    if (part.part == TimelinePart::kernel) kernel = &part;
    if (part.part == TimelinePart::launch) launch = &part;
  }
  if (!kernel || !launch) return;
  run.launches = int(kernel->timed_commands);
  measured_ns += kernel->sum_ns + launch->sum_ns;
  EndToEndCeilings with_launch = ceilings;
  if (!with_launch.launch_ns) with_launch.launch_ns = run.launches > 0 ? launch->sum_ns / run.launches : 0.0;
  // Overlap pipelines the transfers with the kernels on two queues, a chunk per launch (at most 64).
  const int chunks = std::clamp(run.launches, 1, 64);
  for (EndToEndStrategy strategy : kEndToEndStrategies) {
    EndToEndRun what_if = run;
    what_if.strategy = strategy;
    if (strategy == EndToEndStrategy::map || strategy == EndToEndStrategy::alloc_host_ptr)
      what_if.host_copy_bytes = run.upload_bytes + run.download_bytes;
    if (strategy == EndToEndStrategy::overlap) {
      what_if.queues = 2;
      what_if.chunks = chunks;
      what_if.chunk_elements.assign(std::size_t(chunks), 1);
    }
    if (const std::optional<EndToEndParts> parts = predictRun(what_if, kernel->sum_ns, with_launch))
      timeline.application_what_ifs.push_back(
          {strategy, what_if.chunks, parts->total_ns, measured_ns - parts->total_ns});
  }
}

}  // namespace rooflab
