#pragma once
// The benchmarks `rooflab ceilings` runs beside DRAM, FP32 and local memory (analyzer/ceilings/ceilings.cpp):
// the L2 read ceiling (analyzer/ceilings/ceilings_l2.cpp), the FP64 and int32 multiply-add peaks
// (analyzer/ceilings/ceilings_typed.cpp), the warp-instruction issue rate (analyzer/ceilings/ceilings_issue.cpp)
// and, when asked, the host link and the launch. Each fills its slot of the report, or says why it has none.
#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/ceilings/ceilings_timing.hpp"

namespace rooflab::ceiling_bench {

// Sets report.l2_read, or report.l2_not_measured when no cache size is known. The buffer is half
// the device's cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), on a GPU half the datasheet's last-level
// cache (0: none) when that is larger, on a CPU device that reports none half the host's.
void measureL2(Bench& bench, std::uint64_t datasheet_cache_bytes, CeilingsReport& report);

// Sets report.fp64_fma (or int32_mad) from a 16-chain multiply-add kernel in that type. FP64 on a
// device without cl_khr_fp64 is a benchmark whose error says so.
void measureTypedPeak(Bench& bench, Arithmetic arithmetic, CeilingsReport& report);

// Sets report.warp_issue from FFMA and IMAD chains interleaved (analyzer/ceilings/kernels/issue_rate.cl):
// the warp instructions a device issues per second, the instruction roofline's roof.
void measureWarpIssue(Bench& bench, CeilingsReport& report);

// Sets report.link: every strategy of analyzer/data/link_ceilings.hpp in both directions over a sweep of
// sizes up to max_bytes, each fitted as latency + bytes / bandwidth and judged zero-copy or not,
// and the host's own memcpy (analyzer/ceilings/ceilings_link.cpp).
void measureLink(Bench& bench, std::uint64_t max_bytes, CeilingsReport& report);

// The measured model's link and launch roofs (host_to_device_gbps, device_to_host_gbps,
// launch_latency_ns) from report.link and report.launch, with their sources (roof_source's words,
// or the measurement's stamp alone).
void addLinkRoofs(const CeilingsReport& report, DeviceModel& model, const RoofSourceText& roof_source);

// The source note of the measured roof `key`: roof_source's words, or without them the measurement's
// stamp alone (a device model names a source for every figure).
std::string measuredRoofSourceOr(const RoofSourceText& roof_source, const CeilingsReport& report, const char* key);

// The device model the report's roofs make (nullopt without an FP32 and a DRAM roof); the datasheet
// model, if any, gives what no benchmark measures (the last-level cache). Each measured roof's
// source note is measuredRoofSourceOr(roof_source, ...).
std::optional<DeviceModel> measuredModel(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet,
                                         const RoofSourceText& roof_source);

// Sets report.launch: an empty kernel's queued -> start, submitted -> end and back-to-back launch
// time (analyzer/ceilings/ceilings_launch.cpp).
void measureLaunch(Bench& bench, CeilingsReport& report);

}  // namespace rooflab::ceiling_bench
