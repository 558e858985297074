#include "reports/text/ceilings_sentences.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

constexpr double kKiB = 1024;
constexpr double kMiB = 1024 * kKiB;

std::string countText(std::uint64_t value) { return std::to_string(value); }

std::string launchText(const BenchmarkShape& shape) {
  return "global " + countText(shape.global_items) + " x local " + countText(shape.local_items);
}

std::string dramGeometry(const BenchmarkShape& shape) {
  const std::string per_item = shape.elements_per_item > 0
                                   ? countText(shape.elements_per_item) + " " + shape.element_type + " per work-item" +
                                         (shape.contiguous_chunks ? " (contiguous chunks)" : " (interleaved)")
                                   : "one " + shape.element_type + " per work-item";
  return (shape.buffers > 1 ? countText(shape.buffers) + " buffers; " : "") + launchText(shape) + ", " + per_item +
         ", buffers of " + formatFixedAsWritten(double(shape.buffer_bytes) / kMiB, 1) + " MiB";
}

std::string cacheSourceText(const BenchmarkShape& shape) {
  switch (shape.cache_source) {
    case CacheSizeSource::device: return "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE";
    case CacheSizeSource::datasheet:
      return "the datasheet model's last_level_cache_bytes; CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is " +
             formatFixedAsWritten(double(shape.device_cache_bytes) / kKiB, 0) + " KiB";
    case CacheSizeSource::host_sysfs: return "the host's last-level cache (sysfs)";
    case CacheSizeSource::host_cpuinfo: return "the host's cache size (/proc/cpuinfo)";
    case CacheSizeSource::none: break;
  }
  return "of unknown source";
}

std::string l2Geometry(const BenchmarkShape& shape) {
  return launchText(shape) + ", buffer of " + formatFixedAsWritten(double(shape.buffer_bytes) / kKiB, 0) +
         " KiB (a power of two within half of " + formatFixedAsWritten(double(shape.cache_bytes) / kKiB, 0) + " KiB, " +
         cacheSourceText(shape) + "), " + countText(shape.iterations) + " passes of " +
         countText(shape.elements_per_item) + " " + shape.element_type + " per work-item";
}

std::string chainsGeometry(const BenchmarkShape& shape) {
  return launchText(shape) + ", " + countText(shape.chains) + " chains of " + shape.element_type + ", " +
         countText(shape.iterations) + " iterations x " + countText(shape.steps_per_iteration) +
         " multiply-adds per chain";
}

std::string localGeometry(const BenchmarkShape& shape) {
  return launchText(shape) + ", tile " + countText(shape.tile_bytes) + " bytes, " + countText(shape.iterations) +
         " iterations x " + countText(shape.steps_per_iteration) + " " + shape.element_type + " reads";
}

std::string issueGeometry(const BenchmarkShape& shape) {
  return launchText(shape) + ", " + countText(shape.iterations) + " iterations x " +
         countText(shape.steps_per_iteration) + " instructions per work-item, a warp instruction per " +
         countText(shape.warp_items) + " work-items";
}

std::string usText(double ns) { return formatFixedAsWritten(ns / 1000, 1) + " us"; }

std::string sizeText(std::uint64_t bytes) {
  return bytes >= kMiB ? formatNumber(double(bytes) / kMiB) + " MiB" : formatNumber(double(bytes) / kKiB) + " KiB";
}

std::string benchmarkSource(const std::string& measured_at, const CeilingBenchmark& benchmark) {
  std::string noise;
  if (benchmark.spread && benchmark.spread->noise)
    noise = ", median known to +-" + formatFixedAsWritten(100 * *benchmark.spread->noise, 1) + "% (95%)";
  return "rooflab ceilings " + measured_at + ": " + benchmark.name +
         (benchmark.kernel.empty() ? "" : " (" + benchmark.kernel + ")") + ", best of " +
         std::to_string(benchmark.repetitions) + noise + " (OpenCL profiling events); " +
         benchmarkGeometryText(benchmark);
}

std::string linkSource(const CeilingsReport& report, LinkDirection direction) {
  const LinkCeiling* link = report.link ? report.link->fastestLink(direction) : nullptr;
  if (!link) return "";
  return "rooflab ceilings " + report.measured_at + ": " + toString(link->strategy) + " " + toString(direction) + ", " +
         link->calls + ": latency + bytes / bandwidth fitted over " + std::to_string(link->sizes.size()) +
         " sizes (OpenCL profiling events); the fastest strategy that moves data";
}

const CeilingBenchmark* benchmarkOf(const CeilingsReport& report, const std::string& roof_key) {
  const auto present = [](const std::optional<CeilingBenchmark>& b) { return b ? &*b : nullptr; };
  if (roof_key == "local_gbps") return &report.local_read;
  if (roof_key == "l2_gbps") return present(report.l2_read);
  if (roof_key == "fp64_gflops") return present(report.fp64_fma);
  if (roof_key == "int32_gops") return present(report.int32_mad);
  if (roof_key == "warp_issue_gips") return present(report.warp_issue);
  return nullptr;
}

}  // namespace

std::string benchmarkGeometryText(const CeilingBenchmark& benchmark) {
  if (benchmark.geometry_as_saved) return *benchmark.geometry_as_saved;
  const BenchmarkShape& shape = benchmark.shape;
  const std::string& name = benchmark.name;
  if (name.rfind("dram_", 0) == 0) return dramGeometry(shape);
  if (name == "l2_read") return l2Geometry(shape);
  if (name == "local_read") return localGeometry(shape);
  if (name == "warp_issue") return issueGeometry(shape);
  if (shape.chains > 0) return chainsGeometry(shape);
  return launchText(shape);
}

std::string zeroCopyEvidenceText(const LinkCeiling& ceiling) {
  if (ceiling.zero_copy_evidence_as_saved) return *ceiling.zero_copy_evidence_as_saved;
  if (!ceiling.zero_copy_evidence) return "";
  const ZeroCopyEvidence& evidence = *ceiling.zero_copy_evidence;
  std::string text = "its commands take " + usText(evidence.first_ns) + " at " + sizeText(evidence.first_bytes) +
                     " and " + usText(evidence.last_ns) + " at " + sizeText(evidence.last_bytes);
  const double gbps = evidence.gbps.value_or(0);
  switch (evidence.reason) {
    case ZeroCopyReason::time_flat: text += ": the time does not grow with the size"; break;
    case ZeroCopyReason::beyond_any_link:
      text += ": the time grows as at " + formatFixedAsWritten(gbps, 0) +
              " GB/s, beyond any host link: it does not grow with the data";
      break;
    case ZeroCopyReason::faster_than_copy: {
      const double copy_gbps = evidence.copy_gbps.value_or(0);
      text += ": the time grows as at " + formatFixedAsWritten(gbps, 0) + " GB/s, " +
              formatFixedAsWritten(copy_gbps > 0 ? gbps / copy_gbps : 0, 1) + "x the device's fastest copy (" +
              formatFixedAsWritten(copy_gbps, 1) + " GB/s), which a map that moved the data could not outrun";
      break;
    }
  }
  if (evidence.pointer == MappedPointer::own_array) text += "; the mapped pointer is the application's own array";
  if (evidence.pointer == MappedPointer::same_every_map)
    text += "; every map returned the same pointer, the buffer's own memory";
  return text;
}

std::string measuredRoofSource(const CeilingsReport& report, const std::string& roof_key) {
  if (roof_key == "peak_gflops")
    return benchmarkSource(report.measured_at, report.fp32_fma) +
           "; the best of 8, 16 and 32 chains at two vector widths; 2 flops per multiply-add";
  if (roof_key == "dram_gbps") {
    const CeilingBenchmark* dram = report.dramCeiling();
    if (!dram) return "";
    return benchmarkSource(report.measured_at, *dram) +
           "; the best of dram_copy (read + write bytes), dram_read and dram_write over vector widths and geometries";
  }
  if (roof_key == "host_to_device_gbps") return linkSource(report, LinkDirection::host_to_device);
  if (roof_key == "device_to_host_gbps") return linkSource(report, LinkDirection::device_to_host);
  if (roof_key == "launch_latency_ns") {
    if (!report.launch) return "";
    return "rooflab ceilings " + report.measured_at +
           ": an empty kernel enqueued on an idle queue, queued -> start, median of " +
           std::to_string(report.launch->queued_to_start.repetitions) + " launches (OpenCL profiling events)";
  }
  const CeilingBenchmark* benchmark = benchmarkOf(report, roof_key);
  return benchmark ? benchmarkSource(report.measured_at, *benchmark) : "";
}

}  // namespace rooflab::reports
