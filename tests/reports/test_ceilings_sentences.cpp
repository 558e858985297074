// The ceilings' measurement notes in words (reports/text/ceilings_sentences.hpp), written from the
// counts analyzer/ceilings keeps. The expected launches are the ones rooflab wrote on an H100 and on
// PoCL when the analysis still wrote them itself (tests/fixtures/report-golden): the same counts give
// the same words. A note an older results file saved as a sentence is read and written back as saved.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"
#include "reports/text/ceilings_sentences.hpp"

using namespace rooflab;

namespace {

CeilingBenchmark benchmarkNamed(const char* name) {
  CeilingBenchmark benchmark;
  benchmark.name = name;
  benchmark.unit = "GB/s";
  benchmark.best_rate = benchmark.median_rate = 3000;
  benchmark.repetitions = 5;
  return benchmark;
}

CeilingBenchmark h100DramCopy() {
  CeilingBenchmark copy = benchmarkNamed("dram_copy");
  copy.kernel = "dram_copy_float4";
  copy.shape.global_items = 270336;
  copy.shape.local_items = 256;
  copy.shape.element_type = "float4";
  copy.shape.buffers = 2;
  copy.shape.buffer_bytes = 270336ull * 124 * 16;
  copy.shape.elements_per_item = 124;
  return copy;
}

}  // namespace

TEST(CeilingsSentences, SayEachBenchmarksLaunchAsTheAnalysisOnceDid) {
  CeilingBenchmark copy = h100DramCopy();
  EXPECT_EQ(reports::benchmarkGeometryText(copy),
            "2 buffers; global 270336 x local 256, 124 float4 per work-item (interleaved), buffers of 511.5 MiB");
  copy.name = "dram_read";
  copy.shape.buffers = 1;
  EXPECT_EQ(reports::benchmarkGeometryText(copy),
            "global 270336 x local 256, 124 float4 per work-item (interleaved), buffers of 511.5 MiB");
  copy.shape.elements_per_item = 0;
  EXPECT_EQ(reports::benchmarkGeometryText(copy),
            "global 270336 x local 256, one float4 per work-item, buffers of 511.5 MiB");

  CeilingBenchmark fp32 = benchmarkNamed("fp32_fma");
  fp32.shape = {.global_items = 540672,
                .local_items = 256,
                .element_type = "float",
                .chains = 16,
                .iterations = 11309,
                .steps_per_iteration = 4};
  EXPECT_EQ(reports::benchmarkGeometryText(fp32),
            "global 540672 x local 256, 16 chains of float, 11309 iterations x 4 multiply-adds per chain");

  CeilingBenchmark local = benchmarkNamed("local_read");
  local.shape = {.global_items = 270336,
                 .local_items = 256,
                 .element_type = "float4",
                 .iterations = 11405,
                 .steps_per_iteration = 8,
                 .tile_bytes = 16384};
  EXPECT_EQ(reports::benchmarkGeometryText(local),
            "global 270336 x local 256, tile 16384 bytes, 11405 iterations x 8 float4 reads");

  CeilingBenchmark l2 = benchmarkNamed("l2_read");
  l2.shape = {.global_items = 65536,
              .local_items = 256,
              .element_type = "float4",
              .buffers = 1,
              .buffer_bytes = 32ull << 20,
              .elements_per_item = 32,
              .iterations = 40,
              .cache_bytes = 50ull << 20,
              .cache_source = CacheSizeSource::datasheet,
              .device_cache_bytes = 4325376};
  EXPECT_EQ(reports::benchmarkGeometryText(l2),
            "global 65536 x local 256, buffer of 32768 KiB (a power of two within half of 51200 KiB, the datasheet "
            "model's last_level_cache_bytes; CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is 4224 KiB), 40 passes of 32 float4 "
            "per work-item");

  CeilingBenchmark issue = benchmarkNamed("warp_issue");
  issue.shape = {
      .global_items = 4096, .local_items = 256, .iterations = 100, .steps_per_iteration = 16, .warp_items = 32};
  EXPECT_EQ(reports::benchmarkGeometryText(issue),
            "global 4096 x local 256, 100 iterations x 16 instructions per work-item, a warp instruction per 32 "
            "work-items");
}

TEST(CeilingsSentences, WriteTheMeasuredRoofsSourceWithItsNoise) {
  CeilingsReport report;
  report.measured_at = "2026-11-23T12:32:28Z";
  report.fp32_fma = benchmarkNamed("fp32_fma");
  report.fp32_fma.shape = {.global_items = 128,
                           .local_items = 16,
                           .element_type = "float16",
                           .chains = 16,
                           .iterations = 22137,
                           .steps_per_iteration = 4};
  EXPECT_EQ(reports::measuredRoofSource(report, "peak_gflops"),
            "rooflab ceilings 2026-11-23T12:32:28Z: fp32_fma, best of 5 (OpenCL profiling events); global 128 x "
            "local 16, 16 chains of float16, 22137 iterations x 4 multiply-adds per chain; the best of 8, 16 and 32 "
            "chains at two vector widths; 2 flops per multiply-add");
  report.dram_read = h100DramCopy();
  report.dram_read.name = "dram_read";
  report.dram_read.kernel = "dram_read_float4";
  report.dram_read.spread.emplace().noise = 0.0123;
  EXPECT_EQ(
      reports::measuredRoofSource(report, "dram_gbps")
          .rfind("rooflab ceilings 2026-11-23T12:32:28Z: dram_read (dram_read_float4), best of 5, median known to "
                 "+-1.2% (95%) (OpenCL profiling events); 2 buffers; global 270336",
                 0),
      0u)
      << reports::measuredRoofSource(report, "dram_gbps");
  EXPECT_EQ(reports::measuredRoofSource(report, "l2_gbps"), "");  // no L2 benchmark in this report
}

TEST(CeilingsSentences, SayWhyAStrategyMovedNoData) {
  LinkCeiling map;
  map.strategy = LinkStrategy::map;
  map.zero_copy = true;
  map.zero_copy_evidence = ZeroCopyEvidence{ZeroCopyReason::faster_than_copy, 4096, 12000, 64ull << 20, 15000};
  map.zero_copy_evidence->gbps = 21000;
  map.zero_copy_evidence->copy_gbps = 52.4;
  map.zero_copy_evidence->pointer = MappedPointer::same_every_map;
  EXPECT_EQ(reports::zeroCopyEvidenceText(map),
            "its commands take 12.0 us at 4 KiB and 15.0 us at 64 MiB: the time grows as at 21000 GB/s, 400.8x the "
            "device's fastest copy (52.4 GB/s), which a map that moved the data could not outrun; every map "
            "returned the same pointer, the buffer's own memory");
  map.zero_copy_evidence->reason = ZeroCopyReason::time_flat;
  map.zero_copy_evidence->pointer = MappedPointer::own_array;
  EXPECT_EQ(reports::zeroCopyEvidenceText(map),
            "its commands take 12.0 us at 4 KiB and 15.0 us at 64 MiB: the time does not grow with the size; the "
            "mapped pointer is the application's own array");
  map.zero_copy_evidence.reset();
  EXPECT_EQ(reports::zeroCopyEvidenceText(map), "");
}

TEST(CeilingsSentences, AnOlderFilesSentencesAreSaidAndWrittenBackAsSaved) {
  nlohmann::json benchmark = toJson(h100DramCopy());
  ASSERT_TRUE(benchmark.at("geometry").is_object());
  EXPECT_EQ(benchmark.at("geometry").at("elements_per_item"), 124);

  CeilingsReport report;
  report.dram_copy = h100DramCopy();
  report.link.emplace().transfers.push_back(LinkCeiling{});
  report.link->transfers[0].zero_copy = true;
  report.link->transfers[0].zero_copy_evidence =
      ZeroCopyEvidence{ZeroCopyReason::time_flat, 4096, 12000, 64ull << 20, 15000};
  nlohmann::json written = toJson(report);
  const CeilingsReport typed = ceilingsReportFromJson(written);
  EXPECT_EQ(reports::benchmarkGeometryText(typed.dram_copy), reports::benchmarkGeometryText(report.dram_copy));
  EXPECT_EQ(reports::zeroCopyEvidenceText(typed.link->transfers[0]),
            reports::zeroCopyEvidenceText(report.link->transfers[0]));
  EXPECT_EQ(toJson(typed), written);

  // As an older rooflab wrote them: sentences.
  for (nlohmann::json& entry : written.at("benchmarks"))
    if (entry.at("name") == "dram_copy") entry["geometry"] = "2 buffers; global 1 x local 1, as written";
  written["link"]["transfers"][0]["zero_copy_evidence"] = "the time does not grow, as written";
  const CeilingsReport saved = ceilingsReportFromJson(written);
  EXPECT_EQ(reports::benchmarkGeometryText(saved.dram_copy), "2 buffers; global 1 x local 1, as written");
  EXPECT_EQ(reports::zeroCopyEvidenceText(saved.link->transfers[0]), "the time does not grow, as written");
  EXPECT_EQ(toJson(saved), written);
}
