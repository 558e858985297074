#pragma once
// The host link and the launch, measured by `rooflab ceilings` (analyzer/ceilings/ceilings_link.cpp,
// ceilings_launch.cpp) as typed values: each way of moving data between host and device, swept over
// sizes and fitted as latency + bytes / bandwidth, with the zero-copy ways found and said; and what
// one kernel launch costs. Types and their names only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/stats/stopping_rule.hpp"

namespace rooflab {

// How data crosses between the application's host arrays and the device (docs/end-to-end.md).
enum class LinkStrategy {
  copy,            // default buffer, clEnqueueWriteBuffer / ReadBuffer, blocking, from pageable host memory
  copy_async,      // default buffer, non-blocking Write/ReadBuffer from pinned host memory (a mapped
                   // CL_MEM_ALLOC_HOST_PTR buffer), waited on its event: what overlapping needs
  map,             // default buffer, clEnqueueMapBuffer / clEnqueueUnmapMemObject
  alloc_host_ptr,  // CL_MEM_ALLOC_HOST_PTR buffer, map / unmap
  use_host_ptr,    // CL_MEM_USE_HOST_PTR over the application's array, map / unmap
  host_memcpy,     // memcpy between two host arrays (host clock): what a map strategy adds on the host
};
std::string toString(
    LinkStrategy strategy);  // "copy" | "copy-async" | "map" | "alloc-host-ptr" | "use-host-ptr" | "host-memcpy"
std::optional<LinkStrategy> parseLinkStrategy(std::string_view text);

enum class LinkDirection { host_to_device, device_to_host };
std::string toString(LinkDirection direction);  // "host-to-device" | "device-to-host"
std::optional<LinkDirection> parseLinkDirection(std::string_view text);

// A time repeated to the ceilings' noise target (a launch, or one size of a transfer): the median
// and its interval, in ns.
struct LatencyFigure {
  std::optional<double> median_ns;
  std::optional<double> best_ns;
  double median_lower_ns = 0;
  double median_upper_ns = 0;
  std::optional<double> noise;  // relative half-width of the median's 95% interval
  int repetitions = 0;
  StopDecision stopped = StopDecision::keep_going;
  double measured_seconds = 0;
};

struct LinkSize {
  std::uint64_t bytes = 0;
  LatencyFigure time;
};

// Why a strategy was found to move no data.
enum class ZeroCopyReason {
  time_flat,         // the time does not grow with the size
  beyond_any_link,   // it grows as at a rate no host link carries
  faster_than_copy,  // a map strategy that outruns the device's fastest copy
};

// Which host pointer a zero-copy map returned, where the maps were checked.
enum class MappedPointer { not_checked, own_array, same_every_map };

// The figures behind a zero-copy finding: the sweep's smallest and largest timed sizes, the fitted
// rate and the copy it was held against.
struct ZeroCopyEvidence {
  ZeroCopyReason reason = ZeroCopyReason::time_flat;
  std::uint64_t first_bytes = 0;
  double first_ns = 0;
  std::uint64_t last_bytes = 0;
  double last_ns = 0;
  std::optional<double> gbps;       // the fitted rate (beyond_any_link, faster_than_copy)
  std::optional<double> copy_gbps;  // the device's fastest copy (faster_than_copy)
  MappedPointer pointer = MappedPointer::not_checked;
};

std::string toString(ZeroCopyReason reason);  // "time-flat" | "beyond-any-link" | "faster-than-copy"
std::optional<ZeroCopyReason> parseZeroCopyReason(std::string_view text);
std::string toString(MappedPointer pointer);  // "not-checked" | "own-array" | "same-every-map"
std::optional<MappedPointer> parseMappedPointer(std::string_view text);

// One strategy in one direction over a sweep of sizes.
struct LinkCeiling {
  LinkStrategy strategy = LinkStrategy::copy;
  LinkDirection direction = LinkDirection::host_to_device;
  std::string calls;            // what was timed: "clEnqueueWriteBuffer (blocking) from pageable memory"
  std::vector<LinkSize> sizes;  // each size swept, smallest first
  // time_ns = latency_ns + bytes / gbps, fitted over the sizes' median times (fitLineRelative).
  // gbps is absent when the time does not grow with the size.
  std::optional<double> latency_ns;
  std::optional<double> gbps;
  double max_relative_residual = 0;  // how far the line misses its worst size
  // No data moved: the time does not grow with the size, or grows far faster than any link could
  // carry (then it is no link speed); zero_copy_evidence says which, with the figures.
  bool zero_copy = false;
  std::optional<ZeroCopyEvidence> zero_copy_evidence;
  // The evidence as a file of an older rooflab wrote it (a sentence).
  std::optional<std::string> zero_copy_evidence_as_saved;
  // Map strategies: the mapped pointer was the buffer's own host array (use-host-ptr) or stayed the
  // same from map to map (alloc-host-ptr, map); absent for copies.
  std::optional<bool> maps_host_pointer;
  std::optional<std::string> error;

  // latency_ns + bytes / gbps (latency_ns alone without gbps); nullopt without a fit.
  std::optional<double> predictNs(double bytes) const;
};

// An empty kernel's launch, timed with its profiling events.
struct LaunchCeilings {
  LatencyFigure queued_to_start;  // enqueued on an idle queue: queued -> start, the launch latency
  LatencyFigure submit_to_end;    // submitted -> ended: what the device spends on an empty kernel
  LatencyFigure back_to_back;     // a burst of burst_launches: (last end - first start) / burst_launches
  int burst_launches = 0;
  std::optional<std::string> error;

  // queued_to_start's median: what each launch of a kernel costs before it runs.
  std::optional<double> latencyNs() const { return queued_to_start.median_ns; }
};

struct LinkCeilings {
  std::vector<LinkCeiling> transfers;  // every strategy but host_memcpy, in both directions
  std::optional<LinkCeiling> host_memcpy;

  const LinkCeiling* find(LinkStrategy strategy, LinkDirection direction) const;
  // The transfer that moved data (not zero-copy) at the highest bandwidth in `direction`: the link's
  // speed; null when none did.
  const LinkCeiling* fastestLink(LinkDirection direction) const;
};

}  // namespace rooflab
