#include "reports/text/capture_timeline_text.hpp"

#include <algorithm>

#include "reports/text/number_format.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

std::string bracketedSizes(const std::vector<std::uint64_t>& sizes) {
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "]";
}

std::string savedText(double saved_ns) {
  return saved_ns >= 0 ? "saves " + formatDurationNs(saved_ns) : "costs " + formatDurationNs(-saved_ns) + " more";
}

}  // namespace

std::string timelinePartName(TimelinePart part) {
  switch (part) {
    case TimelinePart::kernel: return "kernels";
    case TimelinePart::write: return "writes";
    case TimelinePart::read: return "reads";
    case TimelinePart::copy: return "device copies";
    case TimelinePart::fill: return "fills";
    case TimelinePart::map: return "maps";
    case TimelinePart::unmap: return "unmaps";
    case TimelinePart::other: return "markers and others";
    case TimelinePart::launch: return "launch overhead";
    case TimelinePart::host: return "host between commands";
  }
  return toString(part);
}

std::string captureHeadline(const CaptureTimeline& timeline) {
  std::string command;
  for (const std::string& word : timeline.command) command += (command.empty() ? "" : " ") + word;
  return "Captured application: " + (command.empty() ? std::string("(command not recorded)") : command) + " on " +
         (timeline.device_name.empty() ? std::string("an unnamed device") : timeline.device_name) +
         (timeline.platform_name.empty() ? "" : " [" + timeline.platform_name + "]");
}

std::string captureSpanText(const CaptureTimeline& timeline) {
  std::string text =
      timeline.process_wall_ns > 0 ? "wall " + formatDurationNs(timeline.process_wall_ns) + " (process); " : "";
  if (timeline.span_ns <= 0) return text + "no command has device times";
  return text + "the commands span " + formatDurationNs(timeline.span_ns) + " of device time on " +
         plural(timeline.queues.size(), "queue", "queues");
}

std::string linkUseText(const TimelineLinkUse& use) {
  std::vector<std::string> flags;
  if (use.use_host_ptr_buffers) flags.push_back(std::to_string(use.use_host_ptr_buffers) + " use-host-ptr");
  if (use.alloc_host_ptr_buffers) flags.push_back(std::to_string(use.alloc_host_ptr_buffers) + " alloc-host-ptr");
  if (use.copy_host_ptr_buffers) flags.push_back(std::to_string(use.copy_host_ptr_buffers) + " copy-host-ptr");
  std::string text = plural(use.buffers, "buffer", "buffers");
  if (!flags.empty()) {
    text += " (";
    for (std::size_t i = 0; i < flags.size(); ++i) text += (i ? ", " : "") + flags[i];
    text += ")";
  }
  return text + "; transfer calls: " + plural(use.blocking_copies, "blocking copy", "blocking copies") + " and " +
         plural(use.non_blocking_copies, "non-blocking copy", "non-blocking copies") +
         " (Write/ReadBuffer from the program's own memory), " + plural(use.maps, "map", "maps") + ", " +
         plural(use.unmaps, "unmap", "unmaps");
}

std::string transferPatternName(const TimelineTransferPattern& pattern) {
  std::string text = toString(pattern.kind) + " " + formatBytes(double(pattern.bytes)) +
                     (pattern.blocking ? " blocking" : "") + " ×" + std::to_string(pattern.commands);
  if (pattern.direction) text += ", " + toString(*pattern.direction);
  if (pattern.strategy) text += " (" + toString(*pattern.strategy) + ")";
  return text;
}

std::string transferRateText(const TimelineTransferPattern& pattern) {
  if (pattern.timed_commands == 0) return "no device times";
  std::string text =
      (pattern.gbps ? formatRate(*pattern.gbps) + " GB/s in " : std::string("")) + formatDurationNs(pattern.sum_ns);
  if (pattern.timed_commands < pattern.commands) text += " (" + std::to_string(pattern.timed_commands) + " timed)";
  if (!pattern.strategy || !pattern.direction) return text + ", on the device";
  if (pattern.ceiling_zero_copy) return text + ", beside " + toString(*pattern.strategy) + "'s ceiling: zero-copy";
  if (!pattern.ceiling_gbps && !pattern.ceiling_ns) return text + ", no link ceiling measured";
  text += ", beside " + toString(*pattern.strategy) + "'s ";
  if (pattern.ceiling_gbps) text += formatRate(*pattern.ceiling_gbps) + " GB/s";
  if (pattern.ceiling_latency_ns) text += " + " + formatDurationNs(*pattern.ceiling_latency_ns) + " a transfer";
  if (pattern.ceiling_ns) text += " (" + formatDurationNs(*pattern.ceiling_ns) + ")";
  return text;
}

std::string transferWhatIfText(const TimelineTransferPattern& pattern) {
  if (pattern.what_ifs.empty()) return "";
  std::string text;
  for (const TimelineStrategyWhatIf& what_if : pattern.what_ifs) {
    if (pattern.strategy && toString(what_if.strategy) == toString(*pattern.strategy)) continue;
    text += (text.empty() ? "" : "; ") + toString(what_if.strategy) + " " + formatDurationNs(what_if.predicted_ns) +
            " (" + savedText(what_if.saved_ns) + ")";
  }
  return text;
}

std::string hotspotName(const TimelineHotspot& spot) {
  std::string text = spot.kernel.empty() ? std::string("(unnamed kernel)") : spot.kernel;
  if (!spot.launch_id) return text;
  text += " global " + bracketedSizes(spot.global_size);
  text += spot.local_size ? " local " + bracketedSizes(*spot.local_size) : " local chosen by the driver";
  return text;
}

std::string applicationWhatIfText(const TimelineApplicationWhatIf& what_if) {
  std::string name = toString(what_if.strategy);
  if (what_if.strategy == EndToEndStrategy::overlap)
    name += " on 2 queues (" + plural(std::uint64_t(what_if.chunks), "chunk", "chunks") + ")";
  return name + ": " + formatDurationNs(what_if.predicted_ns) + " predicted, " + savedText(what_if.saved_ns);
}

std::vector<std::string> captureNotes(const CaptureTimeline& timeline) {
  std::vector<std::string> notes;
  for (const TimelineQueue& queue : timeline.queues)
    if (queue.timed_commands < queue.commands)
      notes.push_back("queue " + std::to_string(queue.id) + " gave no device times for " +
                      std::to_string(queue.commands - queue.timed_commands) + " of its " +
                      plural(queue.commands, "command", "commands") + ": they are counted, not placed on the timeline");
  if (!timeline.log_complete)
    notes.push_back(
        "the log does not end with the program's exit (it was killed or crashed): the timeline stops early");
  if (!timeline.link_ceilings_measured)
    notes.push_back(
        "the link ceilings were not measured ([run] ceilings = \"datasheet\"): no transfer has a ceiling or a what-if");
  return notes;
}

namespace {

void printParts(const CaptureTimeline& timeline, std::ostream& out) {
  out << "  " << padded("part", 24, false) << padded("time", 10, true) << padded("share", 9, true)
      << padded("own sum", 10, true) << "  commands\n";
  for (const TimelinePartTime& part : timeline.parts) {
    if (part.commands == 0 && part.exclusive_ns <= 0) continue;
    const bool host = part.part == TimelinePart::host;
    std::string commands = host ? std::string("") : "  " + std::to_string(part.commands);
    if (!host && part.timed_commands < part.commands)
      commands += " (" + std::to_string(part.timed_commands) + " timed)";
    out << "  " << padded(timelinePartName(part.part), 24, false)
        << padded(formatDurationNs(part.exclusive_ns), 10, true)
        << padded(formatPercent(timeline.span_ns > 0 ? part.exclusive_ns / timeline.span_ns : 0), 9, true)
        << padded(host ? "-" : formatDurationNs(part.sum_ns), 10, true) << commands << "\n";
  }
}

}  // namespace

void printCaptureTimeline(const CaptureTimeline& timeline, std::ostream& out) {
  out << "\n" << captureHeadline(timeline) << "\n  " << captureSpanText(timeline) << "\n";
  if (timeline.span_ns > 0) printParts(timeline, out);
  out << "  " << linkUseText(timeline.link_use) << "\n";
  if (!timeline.transfers.empty()) out << "  Transfers, the most time first:\n";
  for (const TimelineTransferPattern& pattern : timeline.transfers) {
    out << "    " << transferPatternName(pattern) << ": " << transferRateText(pattern) << "\n";
    if (const std::string what_ifs = transferWhatIfText(pattern); !what_ifs.empty())
      out << "      another strategy: " << what_ifs << "\n";
  }
  if (!timeline.kernels.empty()) out << "  Hotspots, the most kernel time first:\n";
  for (const TimelineHotspot& spot : timeline.kernels)
    out << "    " << hotspotName(spot) << ": " << formatDurationNs(spot.sum_ns) << " in "
        << plural(spot.commands, "launch", "launches") << ", " << formatPercent(spot.share_of_kernels)
        << " of kernel time, " << formatPercent(spot.share_of_span) << " of the span\n";
  for (const TimelineHotspot& spot : timeline.launches)
    out << "      launch " << *spot.launch_id << ": " << hotspotName(spot) << " ×" << spot.commands << ": "
        << formatDurationNs(spot.sum_ns) << ", " << formatPercent(spot.share_of_kernels) << " of kernel time\n";
  if (!timeline.application_what_ifs.empty())
    out << "  The application's kernels and transfers another way (end-to-end model):\n";
  for (const TimelineApplicationWhatIf& what_if : timeline.application_what_ifs)
    out << "    " << applicationWhatIfText(what_if) << "\n";
  for (const std::string& note : captureNotes(timeline)) out << "  Note: " << note << "\n";
}

}  // namespace rooflab::reports
