// `rooflab ceilings` (analyzer/ceilings.hpp): a run on the PoCL CPU device with tiny sizes returns
// positive finite figures and a loadable measured model. It never asserts speed: CI machines vary.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "analyzer/roofline/device_models.hpp"
#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/json/results_json.hpp"
#include "embedded_ceilings_local_bandwidth.hpp"
#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/ceilings_table.hpp"

using rooflab::CeilingBenchmark;
using rooflab::CeilingsReport;
using rooflab::DeviceModel;

namespace {

std::optional<rooflab::SelectedDevice> cpuDevice() {
  for (const rooflab::SelectedDevice& device : rooflab::discoverDevices())
    if (device.info.type == "CPU") return device;
  return std::nullopt;
}

CeilingBenchmark figure(const char* name, const char* unit, double rate) {
  CeilingBenchmark benchmark;
  benchmark.name = name;
  benchmark.unit = unit;
  benchmark.best_rate = benchmark.median_rate = rate;
  benchmark.repetitions = 5;
  benchmark.shape.global_items = 1024;
  benchmark.shape.local_items = 64;
  return benchmark;
}

}  // namespace

TEST(Ceilings, TinyRunOnPoclGivesPositiveFiniteFigures) {
  const auto device = cpuDevice();
  if (!device) GTEST_SKIP() << "no CPU OpenCL device (install pocl-opencl-icd)";

  rooflab::CeilingsOptions options;
  options.repetitions = 2;
  options.dram_buffer_bytes = 1 << 20;
  options.min_kernel_ns = 1'000'000;
  const CeilingsReport report = rooflab::measureCeilings(*device, options);

  for (const CeilingBenchmark* benchmark : report.benchmarks()) {
    SCOPED_TRACE(benchmark->name);
    EXPECT_FALSE(benchmark->error.has_value()) << benchmark->error.value_or("");
    ASSERT_TRUE(benchmark->best_rate.has_value());
    EXPECT_TRUE(std::isfinite(*benchmark->best_rate));
    EXPECT_GT(*benchmark->best_rate, 0.0);
    EXPECT_GT(benchmark->best_kernel_ns, 0);
    EXPECT_GE(benchmark->repetitions, 2);  // at least the minimum; more until the noise target
    EXPECT_GT(benchmark->shape.global_items, 0u);
    EXPECT_GT(benchmark->shape.local_items, 0u);
    EXPECT_NE(rooflab::reports::benchmarkGeometryText(*benchmark).find("global "), std::string::npos)
        << rooflab::reports::benchmarkGeometryText(*benchmark);
  }
  EXPECT_TRUE(report.complete());

  ASSERT_TRUE(report.model.has_value());
  const DeviceModel& model = *report.model;
  EXPECT_EQ(model.key, "measured");
  ASSERT_TRUE(model.measured.has_value());
  EXPECT_EQ(model.measured->device, device->info.name);
  EXPECT_EQ(model.measured->driver, device->info.driver_version);
  EXPECT_EQ(model.measured->at, report.measured_at);
  EXPECT_DOUBLE_EQ(model.peak_gflops, *report.fp32_fma.best_rate);
  ASSERT_NE(report.dramCeiling(), nullptr);
  EXPECT_DOUBLE_EQ(model.dram_gbps, *report.dramCeiling()->best_rate);  // best of read, copy and write
  EXPECT_DOUBLE_EQ(*model.local_gbps, *report.local_read.best_rate);

  // The model it writes loads back and matches the device it was measured on.
  EXPECT_EQ(rooflab::parseDeviceModel(rooflab::toToml(model), "measured", "ceilings output"), model);
  EXPECT_TRUE(rooflab::matchDeviceModel(device->info, {model}).has_value());

  const std::string json = rooflab::toJson(report).dump();
  EXPECT_EQ(json.find("NaN"), std::string::npos);
  const std::string text = rooflab::reports::ceilingsTable(report, std::nullopt);
  EXPECT_NE(text.find(device->info.name), std::string::npos) << text;
  EXPECT_NE(text.find("GFLOP/s"), std::string::npos) << text;
}

TEST(Ceilings, ReportShowsMeasuredAboveDatasheetUnclamped) {
  CeilingsReport report;
  report.device.name = "NVIDIA H100 80GB HBM3";
  report.device.platform = "NVIDIA CUDA";
  report.device.driver_version = "580.65";
  report.measured_at = "2026-11-22T13:00:00Z";
  report.dram_copy = figure("dram_copy", "GB/s", 3015.0);
  report.dram_read = figure("dram_read", "GB/s", 3100.0);
  report.fp32_fma = figure("fp32_fma", "GFLOP/s", 70250.0);  // a boost clock above 1980 MHz
  report.local_read = figure("local_read", "GB/s", 30000.0);
  report.local_read.best_rate.reset();
  report.local_read.error = "CL_OUT_OF_RESOURCES";

  const auto datasheet = rooflab::findDeviceModel(rooflab::loadDeviceModels(), "h100-sxm");
  ASSERT_TRUE(datasheet.has_value());
  const std::string text = rooflab::reports::ceilingsTable(report, datasheet);
  EXPECT_NE(text.find("70250.0 GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find("66908.2 GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find("1.05 (above datasheet)"), std::string::npos) << text;
  EXPECT_NE(text.find("0.90"), std::string::npos) << text;  // 3015 / 3350
  EXPECT_NE(text.find("FAILED: CL_OUT_OF_RESOURCES"), std::string::npos) << text;
  EXPECT_NE(text.find("h100-sxm"), std::string::npos) << text;
  EXPECT_FALSE(report.complete());
}

// The local-memory figure counts 8 vector reads per iteration per work-item; the kernel must make
// them 8 different vectors, or the compiler merges the repeats and the figure doubles (seen on an
// H100: 64.7 TB/s against a 33.5 TB/s datasheet). The sum it writes must be that of 8 distinct reads.
TEST(Ceilings, LocalReadKernelReadsEightDistinctVectorsPerIteration) {
  const auto device = cpuDevice();
  if (!device) GTEST_SKIP() << "no CPU OpenCL device (install pocl-opencl-icd)";
  constexpr unsigned kTile = 64, kGroup = 16, kIterations = 3;
  cl::Context context(device->device);
  cl::Program program(context, std::string(rooflab::embedded::ceilings_local_bandwidth));
  program.build({device->device}, ("-D RL_VECTOR_WIDTH=4 -D RL_TILE_VECTORS=" + std::to_string(kTile) +
                                   " -D RL_GROUP_SIZE=" + std::to_string(kGroup) + "u")
                                      .c_str());
  cl::Kernel kernel(program, "local_read");
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, kGroup * 4 * sizeof(float));
  kernel.setArg(0, out);
  kernel.setArg(1, static_cast<cl_uint>(kIterations));
  cl::CommandQueue queue(context, device->device);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kGroup), cl::NDRange(kGroup));
  std::vector<float> got(kGroup * 4);
  queue.enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(float), got.data());

  for (unsigned lid = 0; lid < kGroup; ++lid) {
    double expected = 0;
    unsigned index = lid;
    for (unsigned i = 0; i < kIterations; ++i) {
      std::set<unsigned> read;
      for (unsigned k = 0; k < 8; ++k) {
        const unsigned j = (index + k * (kTile / 8)) & (kTile - 1);
        read.insert(j);
        expected += j * 1.0e-3;
      }
      ASSERT_EQ(read.size(), 8u);
      index += 8 * kGroup + 1;
    }
    EXPECT_NEAR(got[4 * lid], expected, 1e-4 * expected) << "work-item " << lid;
  }
}

// The table names the rule the repetitions followed, each figure's noise and kernel, the DRAM write
// row, the figures still noisy when their time ran out, and a noisy host.
TEST(Ceilings, ReportShowsNoiseKernelsWriteRowAndNoisyHost) {
  CeilingsReport report;
  report.device.name = "NVIDIA H100 80GB HBM3";
  report.dram_copy = figure("dram_copy", "GB/s", 2985.0);
  report.dram_read = figure("dram_read", "GB/s", 2969.0);
  report.dram_write = figure("dram_write", "GB/s", 3050.0);
  report.dram_write->kernel = "dram_write_float4, one per work-item";
  report.fp32_fma = figure("fp32_fma", "GFLOP/s", 60000.0);
  report.fp32_fma.kernel = "fp32_fma_chains 16 x float";
  report.local_read = figure("local_read", "GB/s", 30000.0);
  rooflab::CeilingSpread quiet;
  quiet.noise = 0.003;
  quiet.stopped = rooflab::StopDecision::converged;
  report.dram_write->spread = quiet;
  rooflab::CeilingSpread noisy = quiet;
  noisy.noise = 0.023;
  noisy.stopped = rooflab::StopDecision::budget_exhausted;
  report.dram_read.spread = noisy;
  report.repetition_rule = rooflab::NoiseTarget{5, 1000, 0.01, 0.95, 0, 0.2};
  report.noisy_host = rooflab::HostNoise{rooflab::HostLoadNoise{5.54, 2, 2.77, 0.5}, {}, {}, {}};

  const std::string text = rooflab::reports::ceilingsTable(report, std::nullopt);
  EXPECT_NE(text.find("at least 5 timed runs, until its median is known to ±1% (95% interval) or 0.2 s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DRAM write"), std::string::npos) << text;
  EXPECT_NE(text.find("±0.3%"), std::string::npos) << text;
  EXPECT_NE(text.find("fp32_fma_chains 16 x float"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAM roof: dram_write (dram_write_float4, one per work-item)"), std::string::npos) << text;
  EXPECT_NE(text.find("dram_read (±2.3%)"), std::string::npos) << text;
  EXPECT_NE(text.find("noisy host: load average 5.54 on 2 cores"), std::string::npos) << text;

  // A report without the rule (older rooflab) says what it did then.
  report.repetition_rule.reset();
  report.fp32_fma.repetitions = 5;
  EXPECT_NE(rooflab::reports::ceilingsTable(report, std::nullopt).find("best of 5 timed runs"), std::string::npos);
}

// The L2 ceiling beside DRAM, and the FP64 and int32 roofs and the warp-instruction issue rate when asked. On PoCL the
// "L2" is the CPU's cache (the device reports none; the host's is used). No figure is compared with another: on a
// loaded 2-core host a cache-resident read can time below the DRAM one. The L2 figure exists, is finite and positive,
// and lands in the measured model and the report's JSON.
TEST(Ceilings, L2AndTypedPeaksOnPocl) {
  const auto device = cpuDevice();
  if (!device) GTEST_SKIP() << "no CPU OpenCL device (install pocl-opencl-icd)";

  rooflab::CeilingsOptions options;
  options.repetitions = 3;
  options.min_kernel_ns = 2'000'000;
  options.max_seconds_per_benchmark = 0.1;
  options.typed_peaks = {rooflab::Arithmetic::fp64, rooflab::Arithmetic::int32};
  options.warp_issue_rate = true;
  options.roof_source = rooflab::reports::measuredRoofSource;
  const CeilingsReport report = rooflab::measureCeilings(*device, options);

  ASSERT_TRUE(report.l2_read.has_value()) << report.l2_not_measured.value_or("");
  const CeilingBenchmark& l2 = *report.l2_read;
  EXPECT_FALSE(l2.error.has_value()) << l2.error.value_or("");
  ASSERT_TRUE(l2.best_rate.has_value());
  EXPECT_TRUE(std::isfinite(*l2.best_rate));
  EXPECT_GT(*l2.best_rate, 0.0);
  EXPECT_EQ(l2.kernel.rfind("l2_read_float", 0), 0u) << l2.kernel;
  EXPECT_GT(l2.shape.iterations, 0u);
  EXPECT_NE(l2.shape.cache_source, rooflab::CacheSizeSource::none);
  EXPECT_NE(rooflab::reports::benchmarkGeometryText(l2).find("passes"), std::string::npos)
      << rooflab::reports::benchmarkGeometryText(l2);
  ASSERT_NE(report.dramCeiling(), nullptr);

  for (const auto* typed : {&report.fp64_fma, &report.int32_mad, &report.warp_issue}) {
    ASSERT_TRUE(typed->has_value());
    SCOPED_TRACE((*typed)->name);
    EXPECT_FALSE((*typed)->error.has_value()) << (*typed)->error.value_or("");
    ASSERT_TRUE((*typed)->best_rate.has_value());
    EXPECT_TRUE(std::isfinite(*(*typed)->best_rate));
    EXPECT_GT(*(*typed)->best_rate, 0.0);
  }
  EXPECT_EQ(report.int32_mad->unit, "GOP/s");
  EXPECT_EQ(report.warp_issue->unit, "warp GIPS");
  EXPECT_NE(rooflab::reports::benchmarkGeometryText(*report.warp_issue).find("a warp instruction per 32 work-items"),
            std::string::npos);

  ASSERT_TRUE(report.model.has_value());
  EXPECT_EQ(report.model->warp_issue_gips, report.warp_issue->best_rate);
  EXPECT_EQ(report.model->l2_gbps, l2.best_rate);
  EXPECT_EQ(report.model->fp64_gflops, report.fp64_fma->best_rate);
  EXPECT_EQ(report.model->int32_gops, report.int32_mad->best_rate);
  EXPECT_NE(report.model->sources.at("l2_gbps").find("l2_read"), std::string::npos);
  EXPECT_EQ(rooflab::parseDeviceModel(rooflab::toToml(*report.model), "measured", "ceilings output"), *report.model);

  const CeilingsReport again = rooflab::ceilingsReportFromJson(rooflab::toJson(report));
  ASSERT_TRUE(again.l2_read && again.fp64_fma && again.int32_mad);
  EXPECT_EQ(again.l2_read->best_rate, l2.best_rate);
  EXPECT_EQ(again.l2_read->kernel, l2.kernel);
  EXPECT_EQ(again.int32_mad->unit, "GOP/s");
  ASSERT_TRUE(again.warp_issue.has_value());
  EXPECT_EQ(again.warp_issue->unit, "warp GIPS");
  EXPECT_EQ(again.warp_issue->best_rate, report.warp_issue->best_rate);
  const std::string text = rooflab::reports::ceilingsTable(report, std::nullopt);
  EXPECT_NE(text.find("warp instruction issue"), std::string::npos) << text;
  EXPECT_NE(text.find("L2 read"), std::string::npos) << text;
  EXPECT_NE(text.find("FP64 multiply-add"), std::string::npos) << text;
}

// A report without the L2 says why, in its JSON and its table; an older report has neither.
TEST(Ceilings, L2NotMeasuredSaysWhy) {
  CeilingsReport report;
  report.dram_read = figure("dram_read", "GB/s", 20.0);
  report.fp32_fma = figure("fp32_fma", "GFLOP/s", 100.0);
  report.l2_not_measured = "the device reports no global memory cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is 0)";
  const auto j = rooflab::toJson(report);
  EXPECT_EQ(j.at("l2_not_measured"), *report.l2_not_measured);
  EXPECT_FALSE(j.contains("l2_read"));
  EXPECT_EQ(rooflab::ceilingsReportFromJson(j).l2_not_measured, report.l2_not_measured);
  EXPECT_NE(rooflab::reports::ceilingsTable(report, std::nullopt).find("L2 not measured: the device reports"),
            std::string::npos);
  const auto older = rooflab::toJson(CeilingsReport{});
  EXPECT_FALSE(older.contains("l2_not_measured") || older.contains("fp64_fma") || older.contains("int32_mad") ||
               older.contains("warp_issue"));
}
