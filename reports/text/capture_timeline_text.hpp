#pragma once
// A captured application's timeline in words and numbers (docs/capture-timeline.md): where its time
// went, its transfers beside the link ceilings and what another strategy would save, its hotspots.
// The terminal shows it under the results table; the HTML section reuses these phrases.
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/capture_timeline.hpp"

namespace rooflab::reports {

// "kernels", "writes", ..., "launch overhead", "host between commands".
std::string timelinePartName(TimelinePart part);
// The application's command line, its device and platform.
std::string captureHeadline(const CaptureTimeline& timeline);
// "wall 12.3 ms (process); the commands span 8.10 ms of device time on 2 queues".
std::string captureSpanText(const CaptureTimeline& timeline);
// "4 buffers (1 use-host-ptr, 1 alloc-host-ptr); 10 blocking copies, 2 maps, 2 unmaps".
std::string linkUseText(const TimelineLinkUse& use);
// "read 4.00 kB blocking ×2, device-to-host (copy)".
std::string transferPatternName(const TimelineTransferPattern& pattern);
// "2.00 GB/s in 2.00 µs, beside copy's 4.00 GB/s + 10.0 µs a transfer (11.0 µs)".
std::string transferRateText(const TimelineTransferPattern& pattern);
// "use-host-ptr 5.33 µs (saves -3.33 µs)" per other strategy, or why there is none.
std::string transferWhatIfText(const TimelineTransferPattern& pattern);
// "saxpy [1000] local [64]", a launch's kernel and sizes.
std::string hotspotName(const TimelineHotspot& spot);
// "overlap on 2 queues (4 chunks): 3.10 ms predicted, saves 1.20 ms".
std::string applicationWhatIfText(const TimelineApplicationWhatIf& what_if);
// What the timeline could not see: queues without times, an incomplete log, no link ceilings.
std::vector<std::string> captureNotes(const CaptureTimeline& timeline);

// Under the terminal table, for a document with a capture timeline.
void printCaptureTimeline(const CaptureTimeline& timeline, std::ostream& out);

}  // namespace rooflab::reports
