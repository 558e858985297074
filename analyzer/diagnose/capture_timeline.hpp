#pragma once
// The timeline of a captured application (docs/capture-timeline.md): its commands placed on their
// queues by their profiling events, the span split into parts with each instant counted once, the
// transfers beside the link ceilings and the end-to-end model's other strategies, the kernels ranked
// by their time. Pure arithmetic on a CaptureLog, tested on hand-made logs.
#include <cstdint>
#include <vector>

#include "analyzer/data/capture.hpp"
#include "analyzer/data/capture_timeline.hpp"
#include "analyzer/diagnose/end_to_end_model.hpp"

namespace rooflab {

// The timeline of `log`. `ceilings` may hold no link ceilings (then no transfer has a ceiling or a
// what-if) and no launch time (then the application's what-ifs take its own mean launch overhead).
CaptureTimeline analyseCaptureTimeline(const CaptureLog& log, const EndToEndCeilings& ceilings);

// A time interval [begin_ns, end_ns).
struct TimeInterval {
  double begin_ns = 0;
  double end_ns = 0;
};

// The intervals sorted and merged where they touch or overlap.
std::vector<TimeInterval> mergedIntervals(std::vector<TimeInterval> intervals);
// The time covered by merged intervals.
double coveredNs(const std::vector<TimeInterval>& merged);
// The time two lists of merged intervals cover together.
double sharedNs(const std::vector<TimeInterval>& a, const std::vector<TimeInterval>& b);

// Buffer flags as OpenCL numbers them, without OpenCL's headers.
constexpr std::uint64_t kUseHostPtr = 1u << 3;    // CL_MEM_USE_HOST_PTR
constexpr std::uint64_t kAllocHostPtr = 1u << 4;  // CL_MEM_ALLOC_HOST_PTR

// Whether the command's profiling events give it a start and an end in order.
inline bool isTimed(const CapturedCommand& command) {
  return command.times && command.times->end_ns >= command.times->start_ns;
}

// The transfer patterns, kernels and launches of `log` into `timeline` (capture_timeline_work.cpp).
void addTransferPatterns(const CaptureLog& log, const EndToEndCeilings& ceilings, CaptureTimeline& timeline);
void addHotspots(const CaptureLog& log, CaptureTimeline& timeline);
void addApplicationWhatIfs(const EndToEndCeilings& ceilings, CaptureTimeline& timeline);

}  // namespace rooflab
