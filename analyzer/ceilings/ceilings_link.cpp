// The host-link ceilings of `rooflab ceilings`: each way of moving data between the application's
// host arrays and the device (analyzer/data/link_ceilings.hpp), in both directions, timed with
// profiling events over a sweep of sizes and fitted as latency + bytes / bandwidth; a way whose time
// does not grow with the size moves no data (zero-copy) and is said so, not taken for a link speed.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "analyzer/stats/linear_fit.hpp"
#include "analyzer/support/aligned_bytes.hpp"
#include "analyzer/support/event_times.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab::ceiling_bench {
namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;
constexpr std::uint64_t kSmallestBytes = 4 * kKiB;
// A sweep's largest size: on a GPU the sizes applications move (a vector of 2^26 floats is 256 MiB);
// on a CPU, where the "link" is a memcpy, past the caches yet quick.
constexpr std::uint64_t kGpuLargestBytes = 256 * kMiB;
constexpr std::uint64_t kCpuLargestBytes = 16 * kMiB;
// Zero-copy: the fitted time does not grow with the size, or grows at a bandwidth past
// kImplausibleGbps, beyond any host link (PCIe 6 x16 carries 128 GB/s, NVLink-C2C 450 GB/s a
// direction); or a map outruns the device's own copies in the same direction kMapOverCopyFactor-fold
// (a map that moves data moves it no faster than a copy can). The fitted bandwidth, not the growth of
// the time, is what is judged: where each command costs tens of microseconds (PoCL), a copy of 1 MiB
// takes little longer than one of 4 KiB and still moves every byte.
constexpr double kImplausibleGbps = 1000;
constexpr double kMapOverCopyFactor = 4;
// A sweep has many sizes: each gets this share of a benchmark's time budget.
constexpr double kSizeBudgetShare = 0.25;

std::vector<std::uint64_t> sweepSizes(std::uint64_t largest) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes = kSmallestBytes; bytes <= largest; bytes *= 4) sizes.push_back(bytes);
  if (sizes.empty()) sizes.push_back(largest);
  return sizes;
}

// A transfer costs the application from the moment it is asked for, on an idle queue, to its end:
// queued -> end, so that a driver's work before the copy starts (staging, pinning, issuing the
// command) is part of the transfer's latency, as it is part of an end-to-end run's upload.
std::int64_t commandNs(const cl::Event& event) {
  const EventTimes times = eventTimes(event);
  return times.end_ns - times.queued_ns;
}

// A size for an error message.
std::string kibText(std::uint64_t bytes) {
  return bytes >= kMiB ? formatNumber(double(bytes) / kMiB) + " MiB" : formatNumber(double(bytes) / kKiB) + " KiB";
}

// The buffers and host arrays of every strategy, of the sweep's largest size, made once.
struct LinkBuffers {
  AlignedBytes application;  // the application's array: source of uploads, destination of downloads
  AlignedBytes use_host;     // the array a CL_MEM_USE_HOST_PTR buffer is made over
  cl::Buffer device;         // default flags
  cl::Buffer alloc_host;     // CL_MEM_ALLOC_HOST_PTR
  cl::Buffer use_host_buffer;
  cl::Buffer pinned_staging;  // CL_MEM_ALLOC_HOST_PTR, mapped for the whole sweep: pinned host memory
  void* pinned = nullptr;

  LinkBuffers(Bench& bench, std::uint64_t bytes)
      : application(bytes),
        use_host(bytes),
        device(bench.context, CL_MEM_READ_WRITE, bytes),
        alloc_host(bench.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes),
        use_host_buffer(bench.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, use_host.data()),
        pinned_staging(bench.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes) {
    pinned = bench.queue.enqueueMapBuffer(pinned_staging, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
    std::memset(pinned, 0, bytes);
  }
  void release(Bench& bench) noexcept {
    try {
      if (pinned) bench.queue.enqueueUnmapMemObject(pinned_staging, pinned);
      bench.queue.finish();
    } catch (const cl::Error&) {
    }
    pinned = nullptr;
  }
};

std::string callsOf(LinkStrategy strategy, LinkDirection direction) {
  const bool up = direction == LinkDirection::host_to_device;
  switch (strategy) {
    case LinkStrategy::copy:
      return std::string(up ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer") + " (blocking), " +
             (up ? "from" : "into") + " pageable host memory";
    case LinkStrategy::copy_async:
      return std::string(up ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer") +
             " (non-blocking, waited on its event), " + (up ? "from" : "into") +
             " pinned host memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer)";
    case LinkStrategy::map:
    case LinkStrategy::alloc_host_ptr:
    case LinkStrategy::use_host_ptr: {
      const std::string buffer = strategy == LinkStrategy::map              ? "a default buffer"
                                 : strategy == LinkStrategy::alloc_host_ptr ? "a CL_MEM_ALLOC_HOST_PTR buffer"
                                                                            : "a CL_MEM_USE_HOST_PTR buffer";
      return std::string(up ? "clEnqueueMapBuffer (write, invalidate) + clEnqueueUnmapMemObject"
                            : "clEnqueueMapBuffer (read) + clEnqueueUnmapMemObject") +
             " of " + buffer;
    }
    case LinkStrategy::host_memcpy: break;
  }
  return "memcpy between two host arrays, timed with the host clock (host work: no device command)";
}

// One transfer of `bytes`, in device ns; `mapped` gets a map strategy's mapped pointer.
std::int64_t transferOnce(Bench& bench, LinkBuffers& buffers, LinkStrategy strategy, LinkDirection direction,
                          std::uint64_t bytes, void*& mapped) {
  const bool up = direction == LinkDirection::host_to_device;
  cl::Event event;
  switch (strategy) {
    case LinkStrategy::copy:
      if (up)
        bench.queue.enqueueWriteBuffer(buffers.device, CL_TRUE, 0, bytes, buffers.application.data(), nullptr, &event);
      else
        bench.queue.enqueueReadBuffer(buffers.device, CL_TRUE, 0, bytes, buffers.application.data(), nullptr, &event);
      return commandNs(event);
    case LinkStrategy::copy_async:
      if (up) bench.queue.enqueueWriteBuffer(buffers.device, CL_FALSE, 0, bytes, buffers.pinned, nullptr, &event);
      else bench.queue.enqueueReadBuffer(buffers.device, CL_FALSE, 0, bytes, buffers.pinned, nullptr, &event);
      event.wait();
      return commandNs(event);
    case LinkStrategy::host_memcpy: {
      const auto started = std::chrono::steady_clock::now();
      std::memcpy(buffers.use_host.data(), buffers.application.data(), bytes);
      return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count();
    }
    default: break;
  }
  cl::Buffer& buffer = strategy == LinkStrategy::map              ? buffers.device
                       : strategy == LinkStrategy::alloc_host_ptr ? buffers.alloc_host
                                                                  : buffers.use_host_buffer;
  cl::Event unmapped;
  mapped = bench.queue.enqueueMapBuffer(buffer, CL_TRUE, up ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, 0, bytes,
                                        nullptr, &event);
  bench.queue.enqueueUnmapMemObject(buffer, mapped, nullptr, &unmapped);
  unmapped.wait();
  return commandNs(event) + commandNs(unmapped);
}

bool isMap(LinkStrategy strategy) {
  return strategy == LinkStrategy::map || strategy == LinkStrategy::alloc_host_ptr ||
         strategy == LinkStrategy::use_host_ptr;
}

// The fit, and whether the strategy moved data at all. `copy_gbps`: the fastest copy measured in the
// same direction, which a map cannot outrun by much and still move the data.
void judge(LinkCeiling& ceiling, const void* own_array, const std::vector<const void*>& pointers,
           std::optional<double> copy_gbps) {
  std::vector<LineSample> samples;
  for (const LinkSize& size : ceiling.sizes)
    if (size.time.median_ns) samples.push_back({double(size.bytes), *size.time.median_ns});
  if (samples.empty()) {
    if (!ceiling.error) ceiling.error = "no size was timed (below the timer's resolution)";
    return;
  }
  const LineFit fit = fitLineRelative(samples);
  ceiling.latency_ns = fit.intercept;
  if (fit.slope > 0) ceiling.gbps = 1.0 / fit.slope;  // bytes per ns are GB/s
  ceiling.max_relative_residual = fit.max_relative_residual;
  if (isMap(ceiling.strategy)) {
    bool same = !pointers.empty();
    for (const void* pointer : pointers) same = same && pointer == (own_array ? own_array : pointers.front());
    ceiling.maps_host_pointer = same;
  }
  const LineSample& first = samples.front();
  const LineSample& last = samples.back();
  ZeroCopyEvidence evidence{ZeroCopyReason::time_flat, std::uint64_t(first.x), first.y, std::uint64_t(last.x), last.y};
  if (!ceiling.gbps && samples.size() > 1) {
    ceiling.zero_copy = true;
  } else if (ceiling.gbps && *ceiling.gbps > kImplausibleGbps) {
    ceiling.zero_copy = true;
    evidence.reason = ZeroCopyReason::beyond_any_link;
    evidence.gbps = ceiling.gbps;
  } else if (isMap(ceiling.strategy) && ceiling.gbps && copy_gbps && *ceiling.gbps > kMapOverCopyFactor * *copy_gbps) {
    ceiling.zero_copy = true;
    evidence.reason = ZeroCopyReason::faster_than_copy;
    evidence.gbps = ceiling.gbps;
    evidence.copy_gbps = copy_gbps;
  }
  if (!ceiling.zero_copy) return;
  if (ceiling.maps_host_pointer && *ceiling.maps_host_pointer)
    evidence.pointer = own_array ? MappedPointer::own_array : MappedPointer::same_every_map;
  ceiling.zero_copy_evidence = evidence;
}

LinkCeiling measureOne(Bench& bench, LinkBuffers& buffers, LinkStrategy strategy, LinkDirection direction,
                       const std::vector<std::uint64_t>& sizes, const NoiseTarget& target,
                       std::optional<double> copy_gbps = std::nullopt) {
  LinkCeiling ceiling;
  ceiling.strategy = strategy;
  ceiling.direction = direction;
  ceiling.calls = callsOf(strategy, direction);
  std::vector<const void*> pointers;
  CeilingBenchmark guard;  // runGuarded's error slot
  runGuarded(bench, guard, [&] {
    for (std::uint64_t bytes : sizes) {
      void* mapped = nullptr;
      transferOnce(bench, buffers, strategy, direction, bytes, mapped);  // warm-up: pinning, first touch
      LinkSize size;
      size.bytes = bytes;
      size.time = timeSamples([&] { return transferOnce(bench, buffers, strategy, direction, bytes, mapped); }, target);
      if (mapped) pointers.push_back(mapped);
      ceiling.sizes.push_back(size);
    }
  });
  ceiling.error = guard.error;
  judge(ceiling, strategy == LinkStrategy::use_host_ptr ? buffers.use_host.data() : nullptr, pointers, copy_gbps);
  return ceiling;
}

}  // namespace

// The host link's fastest transfer that moves data in each direction, and the launch latency.
void addLinkRoofs(const CeilingsReport& report, DeviceModel& model, const RoofSourceText& roof_source) {
  auto measured = [&](const char* key) { model.sources[key] = measuredRoofSourceOr(roof_source, report, key); };
  if (report.link)
    for (const auto& [direction, slot, key] :
         {std::tuple{LinkDirection::host_to_device, &DeviceModel::host_to_device_gbps, "host_to_device_gbps"},
          std::tuple{LinkDirection::device_to_host, &DeviceModel::device_to_host_gbps, "device_to_host_gbps"}})
      if (const LinkCeiling* link = report.link->fastestLink(direction)) {
        model.*slot = *link->gbps;
        measured(key);
      }
  if (report.launch && report.launch->latencyNs()) {
    model.launch_latency_ns = *report.launch->latencyNs();
    measured("launch_latency_ns");
  }
}

void measureLink(Bench& bench, std::uint64_t max_bytes, CeilingsReport& report) {
  LinkCeilings& link = report.link.emplace();
  const DeviceInfo& info = bench.device.info;
  std::uint64_t largest = max_bytes > 0 ? max_bytes : bench.cpu ? kCpuLargestBytes : kGpuLargestBytes;
  if (info.max_alloc_bytes > 0) largest = std::min(largest, info.max_alloc_bytes / 2);
  if (info.global_mem_bytes > 0) largest = std::min(largest, info.global_mem_bytes / 8);
  const std::vector<std::uint64_t> sizes = sweepSizes(largest);
  NoiseTarget target = bench.target;
  target.max_time_s *= kSizeBudgetShare;

  std::optional<LinkBuffers> buffers;
  CeilingBenchmark setup;
  runGuarded(bench, setup, [&] { buffers.emplace(bench, sizes.back()); });
  const LinkStrategy strategies[] = {LinkStrategy::copy, LinkStrategy::copy_async, LinkStrategy::map,
                                     LinkStrategy::alloc_host_ptr, LinkStrategy::use_host_ptr};
  for (LinkStrategy strategy : strategies)
    for (LinkDirection direction : {LinkDirection::host_to_device, LinkDirection::device_to_host}) {
      if (!buffers) {
        LinkCeiling failed;
        failed.strategy = strategy;
        failed.direction = direction;
        failed.calls = callsOf(strategy, direction);
        failed.error = "allocating the sweep's buffers (" + kibText(sizes.back()) + "): " + setup.error.value_or("?");
        link.transfers.push_back(failed);
        continue;
      }
      std::optional<double> copy_gbps;  // the copies run first
      for (const LinkCeiling& copy : link.transfers)
        if (copy.direction == direction && !isMap(copy.strategy) && copy.gbps &&
            (!copy_gbps || *copy.gbps > *copy_gbps))
          copy_gbps = copy.gbps;
      link.transfers.push_back(measureOne(bench, *buffers, strategy, direction, sizes, target, copy_gbps));
    }
  if (buffers) {
    link.host_memcpy =
        measureOne(bench, *buffers, LinkStrategy::host_memcpy, LinkDirection::host_to_device, sizes, target);
    buffers->release(bench);
  }
}

}  // namespace rooflab::ceiling_bench
