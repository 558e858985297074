// The host link and launch ceilings on PoCL (analyzer/ceilings/ceilings_link.cpp, ceilings_launch.cpp):
// a CPU device's host-memory strategies move no data and are said to be zero-copy, its copies move data
// at a fitted bandwidth, and an empty kernel's launch has a latency. Never asserts speed.
#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/ceilings/ceilings_kinds.hpp"
#include "analyzer/device/device.hpp"
#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/ceilings_table.hpp"

using namespace rooflab;

namespace {

std::optional<SelectedDevice> linkCpuDevice() {
  for (const SelectedDevice& device : discoverDevices())
    if (device.info.type == "CPU") return device;
  return std::nullopt;
}

}  // namespace

TEST(LinkCeilings, HostMemoryStrategiesAreZeroCopyOnPoclAndCopiesAreNot) {
  const std::optional<SelectedDevice> device = linkCpuDevice();
  if (!device) GTEST_SKIP() << "no CPU OpenCL device (install pocl-opencl-icd)";
  NoiseTarget target;
  target.min_repetitions = 5;
  target.max_noise = 0.05;
  target.max_time_s = 0.02;
  cl::Context context(device->device);
  ceiling_bench::Bench bench{*device, context, cl::CommandQueue(context, device->device, CL_QUEUE_PROFILING_ENABLE),
                             true,    5,       1'000'000,
                             target};
  CeilingsReport report;
  ceiling_bench::measureLaunch(bench, report);
  ceiling_bench::measureLink(bench, 0, report);  // 4 KiB to 16 MiB, the CPU sweep

  ASSERT_TRUE(report.launch);
  EXPECT_FALSE(report.launch->error) << *report.launch->error;
  ASSERT_TRUE(report.launch->latencyNs());
  EXPECT_GT(*report.launch->latencyNs(), 0);
  EXPECT_TRUE(report.launch->back_to_back.median_ns);

  ASSERT_TRUE(report.link);
  ASSERT_EQ(report.link->transfers.size(), 10u);  // five strategies, two directions
  for (const LinkCeiling& ceiling : report.link->transfers) {
    const std::string what = toString(ceiling.strategy) + " " + toString(ceiling.direction);
    EXPECT_FALSE(ceiling.error) << what << ": " << *ceiling.error;
    EXPECT_EQ(ceiling.sizes.size(), 7u) << what;  // 4 KiB to 16 MiB by factors of 4
    ASSERT_TRUE(ceiling.latency_ns) << what;
    if (ceiling.strategy == LinkStrategy::alloc_host_ptr || ceiling.strategy == LinkStrategy::use_host_ptr) {
      EXPECT_TRUE(ceiling.zero_copy) << what << " on a CPU device maps host memory in place";
      ASSERT_TRUE(ceiling.zero_copy_evidence) << what;
      EXPECT_NE(ceiling.zero_copy_evidence->pointer, MappedPointer::not_checked) << what;
      EXPECT_EQ(reports::zeroCopyEvidenceText(ceiling).rfind("its commands take ", 0), 0u) << what;
      ASSERT_TRUE(ceiling.maps_host_pointer) << what;
      EXPECT_TRUE(*ceiling.maps_host_pointer) << what;
    }
    if (ceiling.strategy == LinkStrategy::copy) {
      EXPECT_FALSE(ceiling.zero_copy) << what << ": " << reports::zeroCopyEvidenceText(ceiling);
      ASSERT_TRUE(ceiling.gbps) << what;
      EXPECT_TRUE(std::isfinite(*ceiling.gbps) && *ceiling.gbps > 0) << what;
    }
  }
  // The link's speed is a strategy that moves data, never a zero-copy one.
  const LinkCeiling* fastest = report.link->fastestLink(LinkDirection::host_to_device);
  ASSERT_NE(fastest, nullptr);
  EXPECT_FALSE(fastest->zero_copy);
  ASSERT_TRUE(report.link->host_memcpy);
  EXPECT_TRUE(report.link->host_memcpy->gbps);

  const std::string text = reports::linkCeilingsTable(report);
  EXPECT_NE(text.find("zero-copy: its commands take"), std::string::npos) << text;
  EXPECT_NE(text.find("queued -> start"), std::string::npos) << text;

  DeviceModel model;
  ceiling_bench::addLinkRoofs(report, model, reports::measuredRoofSource);
  EXPECT_TRUE(model.host_to_device_gbps && model.device_to_host_gbps && model.launch_latency_ns);
  ASSERT_TRUE(model.sources.count("launch_latency_ns"));
  EXPECT_NE(model.sources.at("launch_latency_ns").find("queued -> start, median of "), std::string::npos);
  ASSERT_TRUE(model.sources.count("host_to_device_gbps"));
  EXPECT_NE(model.sources.at("host_to_device_gbps").find("fitted over 7 sizes"), std::string::npos);
}
