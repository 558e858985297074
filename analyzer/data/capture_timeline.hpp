#pragma once
// Where a captured application's time went (docs/capture-timeline.md), as typed values: its commands
// placed on their queues by their profiling events, the span they cover split into kernels, each
// transfer kind, launch overhead and the host's time between commands (each instant counted once),
// each transfer pattern's rate beside the link ceilings of its strategy and what the end-to-end model
// predicts another strategy would save, and the kernels ranked by their time. diagnose/ computes it
// from a CaptureLog and the link ceilings; reports/ shows it. Types and their names only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/capture.hpp"
#include "analyzer/data/end_to_end.hpp"
#include "analyzer/data/link_ceilings.hpp"

namespace rooflab {

// What an instant of the span is spent on. Each instant belongs to one part: a kernel running, else a
// transfer running (the first kind in this order), else a kernel waiting to start on an otherwise
// idle queue (launch overhead), else nothing on the device (the host's time between commands).
enum class TimelinePart { kernel, write, read, copy, fill, map, unmap, other, launch, host };
std::string toString(TimelinePart part);  // "kernel" | "write" | ... | "other" | "launch" | "host"
std::optional<TimelinePart> parseTimelinePart(std::string_view text);

struct TimelinePartTime {
  TimelinePart part = TimelinePart::host;
  double exclusive_ns = 0;           // the instants of the span given to this part: the parts add up to span_ns
  double busy_ns = 0;                // the union of this part's own intervals, whatever else ran beside them
  double sum_ns = 0;                 // its commands' own times (end - start; launch: start - ready) added up
  std::uint64_t commands = 0;        // commands of this kind, timed or not
  std::uint64_t timed_commands = 0;  // of them, with profiling events
  std::uint64_t bytes = 0;           // transfers: bytes of the timed commands
};

// One command placed on the chart: its times relative to the span's start.
struct TimelineBox {
  std::uint64_t queue_id = 0;
  std::uint64_t sequence = 0;
  CapturedCommandKind kind = CapturedCommandKind::other;
  double ready_ns = 0;  // queued, or the end of the command before it on its queue if later
  double start_ns = 0;
  double end_ns = 0;
  std::optional<std::uint64_t> launch_id;
};

struct TimelineQueue {
  std::uint64_t id = 0;
  bool out_of_order = false;
  std::uint64_t commands = 0;
  std::uint64_t timed_commands = 0;  // fewer than commands: the queue gave no times for the rest
  double busy_ns = 0;                // the union of its commands' start -> end
};

// The application's buffers and transfer calls, by how they reach the host's memory.
struct TimelineLinkUse {
  std::uint64_t buffers = 0;
  std::uint64_t use_host_ptr_buffers = 0;    // CL_MEM_USE_HOST_PTR
  std::uint64_t alloc_host_ptr_buffers = 0;  // CL_MEM_ALLOC_HOST_PTR
  std::uint64_t copy_host_ptr_buffers = 0;   // CL_MEM_COPY_HOST_PTR
  std::uint64_t blocking_copies = 0;         // clEnqueueWrite/ReadBuffer, blocking
  std::uint64_t non_blocking_copies = 0;
  std::uint64_t maps = 0;
  std::uint64_t unmaps = 0;
};

// What another strategy would take for a pattern's transfers, from the end-to-end model.
struct TimelineStrategyWhatIf {
  EndToEndStrategy strategy = EndToEndStrategy::copy;
  double predicted_ns = 0;  // all the pattern's transfers (host copies a map needs included)
  double saved_ns = 0;      // measured - predicted: above 0 it would save that much
};

// The transfers of one kind, direction, strategy and size: the application's transfer patterns.
struct TimelineTransferPattern {
  CapturedCommandKind kind = CapturedCommandKind::write;
  std::optional<LinkDirection> direction;  // copy and fill stay on the device
  std::optional<LinkStrategy> strategy;    // the link ceiling that times it
  std::uint64_t bytes = 0;                 // each
  bool blocking = false;
  std::uint64_t commands = 0;
  std::uint64_t timed_commands = 0;
  double sum_ns = 0;                   // the timed commands' end - start
  std::optional<double> gbps;          // bytes / (end - start) over the timed commands
  std::optional<double> ceiling_gbps;  // the strategy's measured bandwidth
  std::optional<double> ceiling_latency_ns;
  std::optional<double> ceiling_ns;  // the ceiling's time for all the timed commands
  bool ceiling_zero_copy = false;
  std::vector<TimelineStrategyWhatIf> what_ifs;  // empty without link ceilings or for device-side kinds
};

// A kernel's time: per kernel name, or per distinct launch (CapturedLaunch).
struct TimelineHotspot {
  std::string kernel;
  std::optional<std::uint64_t> launch_id;  // per launch
  std::vector<std::uint64_t> global_size;  // per launch
  std::optional<std::vector<std::uint64_t>> local_size;
  std::uint64_t commands = 0;
  std::uint64_t timed_commands = 0;
  double sum_ns = 0;
  double share_of_kernels = 0;  // of every kernel's sum_ns
  double share_of_span = 0;
};

// The application with its transfers made another way and, for overlap, pipelined with its kernels
// on two queues: the end-to-end model's prediction of the whole against the same model for the
// strategy it used.
struct TimelineApplicationWhatIf {
  EndToEndStrategy strategy = EndToEndStrategy::copy;
  int chunks = 1;
  double predicted_ns = 0;
  double saved_ns = 0;  // measured kernels and transfers - predicted
};

struct CaptureTimeline {
  std::vector<std::string> command;  // the application and its arguments
  std::string device_name;
  std::string platform_name;
  double process_wall_ns = 0;  // the process from start to exit, host clock; 0: not known
  // From the first command's event (queued) to the last one's end, device clock; 0 without times.
  double span_ns = 0;
  std::vector<TimelinePartTime> parts;  // every part, in TimelinePart order
  std::vector<TimelineQueue> queues;
  std::vector<TimelineBox> boxes;      // the timed commands, in the program's order
  std::uint64_t untimed_commands = 0;  // commands whose queue gave no times
  TimelineLinkUse link_use;
  std::vector<TimelineTransferPattern> transfers;  // the most time first
  std::vector<TimelineHotspot> kernels;            // per kernel name, the most time first
  std::vector<TimelineHotspot> launches;           // per distinct launch, the most time first
  std::vector<TimelineApplicationWhatIf> application_what_ifs;
  bool link_ceilings_measured = false;      // the what-ifs need them
  std::optional<double> launch_ceiling_ns;  // an empty kernel's queued -> start
  bool log_complete = true;                 // the log ended with the program's exit
};

}  // namespace rooflab
