// Roofline placement (analyzer/roofline.hpp): attainable, ridge, fraction of roof, bound classes,
// time at the roof, the local-memory roof, and JSON without NaN or Infinity.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "analyzer/place/place_record.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/roofline/roofline.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "reports/text/roofline_sentences.hpp"

using rooflab::DeviceModel;
using rooflab::RooflineBound;
using rooflab::RooflineInput;
using rooflab::RooflinePlacement;

namespace {

// A record beside its placements on `models`, as the analysis step makes them.
rooflab::AnalysedRecord placed(const rooflab::RunRecord& record, const rooflab::RooflineModels& models) {
  rooflab::RecordConclusions concluded;
  concluded.roofline = rooflab::placeRecord(record, models);
  return rooflab::AnalysedRecord(record, concluded);
}

const DeviceModel& model(const std::string& key) {
  static const std::vector<DeviceModel> models = rooflab::loadDeviceModels();
  for (const DeviceModel& m : models)
    if (m.key == key) return m;
  throw std::runtime_error("no shipped model " + key);
}

// The input of a run: flops, DRAM bytes, median kernel time, local bytes.
RooflineInput work(double flops, double dram_bytes, std::optional<double> kernel_ns,
                   std::optional<double> local_bytes = std::nullopt) {
  RooflineInput input;
  input.flops = flops;
  input.dram_bytes = dram_bytes;
  input.kernel_ns = kernel_ns;
  input.local_bytes = local_bytes;
  return input;
}

// A kernel time that makes the work reach `fraction` of `gflops`.
double nsAt(double flops, double gflops, double fraction) { return flops / (gflops * fraction); }

// Every number in the JSON is finite (nlohmann writes NaN and Infinity as null, but they must not
// reach it at all) and every null value has a reason.
void expectJsonClean(const RooflinePlacement& placement) {
  const nlohmann::json json = rooflab::toJson(placement);
  bool has_null = false;
  for (const auto& [key, value] : json.items()) {
    if (value.is_number()) {
      EXPECT_TRUE(std::isfinite(value.get<double>())) << key;
    }
    if (value.is_null() && key != "reason" && key != "local_roof_gflops") has_null = true;
  }
  if (has_null) {
    EXPECT_TRUE(json["reasons"].is_array() && !json["reasons"].empty()) << json.dump();
  }
  for (const char* key : {"intensity", "intensity_source", "achieved_gflops", "attainable_gflops", "fraction_of_roof",
                          "ridge_intensity", "bound", "time_at_roof_ns", "local_roof_gflops"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_TRUE(json.contains("reasons") || json.contains("reason"));
}

}  // namespace

TEST(Roofline, RidgeIsPeakOverBandwidth) {
  const RooflinePlacement p = rooflab::placeOnRoofline(model("gtx670"), work(1e6, 1e6, 1e3));
  EXPECT_NEAR(p.ridge_intensity, 2460.0 / 192.3, 1e-12);  // 12.79 FLOP/byte
}

TEST(Roofline, MemoryBoundVecadd) {
  // vecadd of N floats: N flops, 12 N bytes; intensity 1/12, far left of the ridge.
  const double n = 1 << 24;
  const DeviceModel& gtx670 = model("gtx670");
  const double roof = 192.3 / 12.0;
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(n, 12 * n, nsAt(n, roof, 0.9)));
  EXPECT_NEAR(*p.intensity, 1.0 / 12.0, 1e-15);
  EXPECT_NEAR(*p.attainable_gflops, roof, 1e-12);
  EXPECT_NEAR(*p.achieved_gflops, 0.9 * roof, 1e-9);
  EXPECT_NEAR(*p.fraction_of_roof, 0.9, 1e-9);
  EXPECT_EQ(p.bound, RooflineBound::memory);
  EXPECT_TRUE(p.reasons.empty());
  expectJsonClean(p);
}

TEST(Roofline, ComputeBoundRightOfTheRidge) {
  const DeviceModel& gtx670 = model("gtx670");
  const double flops = 1e12, bytes = 1e10;  // intensity 100 > 12.8
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(flops, bytes, nsAt(flops, 2460.0, 0.8)));
  EXPECT_DOUBLE_EQ(*p.attainable_gflops, 2460.0);
  EXPECT_NEAR(*p.fraction_of_roof, 0.8, 1e-9);
  EXPECT_EQ(p.bound, RooflineBound::compute);
}

TEST(Roofline, FarUnderBothRoofsIsLatency) {
  const DeviceModel& gtx670 = model("gtx670");
  const double flops = 1e9, bytes = 1e9;  // intensity 1
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(flops, bytes, nsAt(flops, 192.3, 0.1)));
  EXPECT_NEAR(*p.fraction_of_roof, 0.1, 1e-9);
  EXPECT_EQ(p.bound, RooflineBound::latency);
  ASSERT_FALSE(p.reasons.empty());
  EXPECT_NE(rooflab::reports::placementReasonsText(p).value_or("").find("latency"), std::string::npos);
}

TEST(Roofline, BoundMarginIsInclusive) {
  const DeviceModel& gtx670 = model("gtx670");
  const double flops = 1e9, bytes = 1e9;
  const double roof = 192.3;
  // Exactly representable fractions either side of kRoofBoundFraction = 0.5.
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, work(flops, bytes, flops / (roof * 0.5))).bound, RooflineBound::memory);
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, work(flops, bytes, flops / (roof * 0.49))).bound, RooflineBound::latency);
  static_assert(rooflab::kRoofBoundFraction == 0.5, "update this test with the margin");
}

TEST(Roofline, TimeAtRoofIsTheTimeOnTheModel) {
  const DeviceModel& gtx670 = model("gtx670");
  // 2.46 GFLOP at 2460 GFLOP/s: 1 ms on a GTX 670 whatever device ran it.
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, work(2.46e9, 1e6, 123.0)).time_at_roof_ns, 1'000'000);
  // 192.3 MB at 192.3 GB/s: 1 ms.
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, work(1e6, 192.3e6, 123.0)).time_at_roof_ns, 1'000'000);
  // Equal to work / attainable.
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(3e8, 1e8, std::nullopt));
  EXPECT_NEAR(double(*p.time_at_roof_ns), 3e8 / *p.attainable_gflops, 1.0);
}

TEST(Roofline, ZeroBytesGivesNullIntensityAndTheComputeRoof) {
  const DeviceModel& gtx670 = model("gtx670");
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(2.46e9, 0, 2e6));
  EXPECT_FALSE(p.intensity.has_value());
  EXPECT_DOUBLE_EQ(*p.attainable_gflops, 2460.0);
  EXPECT_NEAR(*p.fraction_of_roof, 0.5, 1e-12);
  EXPECT_EQ(p.bound, RooflineBound::compute);
  EXPECT_EQ(p.time_at_roof_ns, 1'000'000);
  ASSERT_FALSE(p.reasons.empty());
  EXPECT_NE(rooflab::reports::placementReasonsText(p).value_or("").find("no DRAM bytes"), std::string::npos);
  const nlohmann::json json = rooflab::toJson(p);
  EXPECT_TRUE(json["intensity"].is_null());
  EXPECT_EQ(json["reasons"][0]["kind"], "no_dram_bytes");
  expectJsonClean(p);
}

TEST(Roofline, ZeroFlopsUsesTheBandwidthFraction) {
  // A transpose: no flops; its fraction is achieved bandwidth over the model's.
  const DeviceModel& gtx670 = model("gtx670");
  const double bytes = 192.3e6;
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, work(0, bytes, 1.25e6));  // 80% of 192.3 GB/s
  EXPECT_DOUBLE_EQ(*p.intensity, 0.0);
  EXPECT_DOUBLE_EQ(*p.attainable_gflops, 0.0);
  EXPECT_DOUBLE_EQ(*p.achieved_gflops, 0.0);
  EXPECT_NEAR(*p.fraction_of_roof, 0.8, 1e-12);
  EXPECT_EQ(p.bound, RooflineBound::memory);
  EXPECT_EQ(p.time_at_roof_ns, 1'000'000);
  expectJsonClean(p);
}

TEST(Roofline, NoWorkOrNoTimeIsUnknown) {
  const DeviceModel& gtx670 = model("gtx670");
  const RooflinePlacement none = rooflab::placeOnRoofline(gtx670, work(0, 0, 1e3));
  EXPECT_EQ(none.bound, RooflineBound::unknown);
  EXPECT_FALSE(none.attainable_gflops.has_value());
  EXPECT_FALSE(none.time_at_roof_ns.has_value());
  EXPECT_FALSE(none.reasons.empty());
  expectJsonClean(none);

  const RooflinePlacement untimed = rooflab::placeOnRoofline(gtx670, work(1e9, 1e9, std::nullopt));
  EXPECT_EQ(untimed.bound, RooflineBound::unknown);
  EXPECT_FALSE(untimed.achieved_gflops.has_value());
  EXPECT_FALSE(untimed.fraction_of_roof.has_value());
  EXPECT_TRUE(untimed.attainable_gflops.has_value());
  EXPECT_TRUE(untimed.time_at_roof_ns.has_value());
  expectJsonClean(untimed);

  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, work(1e9, 1e9, 0.0)).bound, RooflineBound::unknown);
}

TEST(Roofline, NonFiniteInputNeverReachesJson) {
  const DeviceModel& gtx670 = model("gtx670");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const RooflineInput& input : {work(nan, 1e6, 1e3), work(1e6, inf, 1e3), work(1e6, 1e6, nan), work(1e6, 1e6, inf),
                                     work(1e6, 1e6, 1e3, nan), work(-1, 1e6, 1e3)}) {
    const RooflinePlacement p = rooflab::placeOnRoofline(gtx670, input);
    expectJsonClean(p);
    const std::string text = rooflab::toJson(p).dump();
    EXPECT_EQ(text.find("NaN"), std::string::npos) << text;
    EXPECT_EQ(text.find("Infinity"), std::string::npos) << text;
  }
}

TEST(Roofline, AnotherDevicesTimingIsClassifiedByIntensity) {
  // Placing an H100 run on the GTX 670 model: the fraction exceeds 1, and a run on a slow CPU would be
  // far under the roof; either way the bound is the roof that limits the work on a GTX 670.
  const DeviceModel& gtx670 = model("gtx670");
  RooflineInput fast = work(1e9, 12e9, nsAt(1e9, 192.3 / 12, 15.0));
  fast.timed_on_model_device = false;
  const RooflinePlacement on_h100 = rooflab::placeOnRoofline(gtx670, fast);
  EXPECT_NEAR(*on_h100.fraction_of_roof, 15.0, 1e-9);  // never clamped
  EXPECT_EQ(on_h100.bound, RooflineBound::memory);

  RooflineInput slow = work(1e12, 1e9, nsAt(1e12, 2460, 0.01));
  slow.timed_on_model_device = false;
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, slow).bound, RooflineBound::compute);
  slow.timed_on_model_device = true;
  EXPECT_EQ(rooflab::placeOnRoofline(gtx670, slow).bound, RooflineBound::latency);
}

// The local-memory roof of a tiled matrix multiply on the GTX 280, the course's example.
//
// local_roof_gflops = flops / (local_bytes / local_gbps). With one 4-byte local operand per FMA
// (2 flops) that is local_gbps / 2; with an extra local load per FMA, local_gbps / 4. GT200's
// shared memory serves 16 banks x 4 bytes per two shader clocks per SM (CUDA Programming Guide,
// compute capability 1.x): 32 bytes per clock, exactly the 8 SPs x 4 bytes that one operand per
// MAD needs, so the bank-derived 1244.2 GB/s puts the roof for one operand per FMA at 622 GFLOP/s,
// the MAD peak, and at 311 GFLOP/s with the extra load.
//
// The course's figures are 415 and 244 GFLOP/s. 415 = 2/3 x 622, and two readings give it: the
// formula at 0.5 flop/byte with an effective 829 GB/s, two thirds of the bank rate; or the time of
// the FMA and of its local operand added instead of overlapped, with local memory counted at 16
// banks x 4 bytes every clock (2488 GB/s, a local roof of 1244): 1 / (1/622 + 1/1244) = 415.
// Neither yields 244 for the extra load: the first gives 207 (829 GB/s at 0.25 flop/byte), the
// second 1 / (1/622 + 1/622) = 311; the nearest simple figure, 1 / (1/415 + 1/622) = 249, is 2% off,
// so the course's 244 must carry other costs of its loop. Rather than fudge a bandwidth to hit both
// numbers, the test checks the formula on the model's bank-derived bandwidth, and that the course's
// 415 is what the formula gives at the two-thirds bandwidth the first reading implies.
TEST(Roofline, LocalRoofOfTheCourseTiledMatmulOnGtx280) {
  const DeviceModel& gtx280 = model("gtx280");
  const double n = 1024;
  const double flops = 2 * n * n * n;
  const double dram_bytes = 2 * 4 * n * n * n / 16;  // 16x16 tiles: every operand read N/16 times
  const double one_operand_bytes = 4 * n * n * n;    // one 4-byte local operand per FMA
  const double extra_load_bytes = 8 * n * n * n;     // and one more local load per FMA

  const double local_gbps = *gtx280.local_gbps;
  EXPECT_NEAR(local_gbps, 1244.16, 0.01);
  RooflineInput one_operand = work(flops, dram_bytes, std::nullopt, one_operand_bytes);
  RooflineInput extra_load = work(flops, dram_bytes, std::nullopt, extra_load_bytes);
  EXPECT_NEAR(*rooflab::placeOnRoofline(gtx280, one_operand).local_roof_gflops,
              flops / (one_operand_bytes / local_gbps), 1e-9);
  EXPECT_NEAR(*rooflab::placeOnRoofline(gtx280, one_operand).local_roof_gflops, 622.08, 0.01);
  EXPECT_NEAR(*rooflab::placeOnRoofline(gtx280, extra_load).local_roof_gflops, 311.04, 0.01);

  DeviceModel course_effective = gtx280;
  course_effective.local_gbps = local_gbps * 2.0 / 3.0;
  EXPECT_NEAR(*rooflab::placeOnRoofline(course_effective, one_operand).local_roof_gflops, 415.0, 0.5);
}

TEST(Roofline, LocalRoofBelowTheDramRoofDecidesTheBound) {
  // The tiled matmul at 4 flop per DRAM byte: DRAM roof 566.8, local roof 311 with the extra load.
  const DeviceModel& gtx280 = model("gtx280");
  const double n = 1024, flops = 2 * n * n * n;
  RooflineInput input = work(flops, flops / 4.0, nsAt(flops, 311.04, 0.9), 8 * n * n * n);
  const RooflinePlacement p = rooflab::placeOnRoofline(gtx280, input);
  EXPECT_NEAR(*p.attainable_gflops, 566.8, 0.01);
  EXPECT_NEAR(*p.fraction_of_roof, 0.9 * 311.04 / 566.8, 1e-6);
  EXPECT_EQ(p.bound, RooflineBound::memory);
  ASSERT_FALSE(p.reasons.empty());
  EXPECT_NE(rooflab::reports::placementReasonsText(p).value_or("").find("local-memory"), std::string::npos);
}

TEST(Roofline, LocalRoofNeedsTheModelsLocalBandwidth) {
  DeviceModel bare = model("gtx670");
  bare.local_gbps.reset();
  const RooflinePlacement p = rooflab::placeOnRoofline(bare, work(1e9, 1e8, 1e6, 4e9));
  EXPECT_FALSE(p.local_roof_gflops.has_value());
  ASSERT_FALSE(p.reasons.empty());
  EXPECT_NE(rooflab::reports::placementReasonsText(p).value_or("").find("local_gbps"), std::string::npos);
  // No declared local traffic: no local roof, and nothing to explain.
  EXPECT_FALSE(rooflab::placeOnRoofline(model("gtx670"), work(1e9, 1e8, std::nullopt)).local_roof_gflops.has_value());
}

TEST(Roofline, JsonCarriesTheSchemaValues) {
  RooflineInput input = work(1048576, 12582912, 61011);
  input.intensity_source = rooflab::IntensitySource::counters;
  const nlohmann::json json = rooflab::toJson(rooflab::placeOnRoofline(model("gtx670"), input));
  EXPECT_NEAR(json["intensity"].get<double>(), 0.0833, 1e-4);
  EXPECT_EQ(json["intensity_source"], "counters");
  EXPECT_NEAR(json["attainable_gflops"].get<double>(), 16.025, 1e-3);
  EXPECT_NEAR(json["achieved_gflops"].get<double>(), 1048576.0 / 61011, 1e-9);
  EXPECT_EQ(json["bound"], "memory");
  EXPECT_TRUE(json["time_at_roof_ns"].is_number_integer());
  EXPECT_EQ(json["time_at_roof_ns"].get<std::int64_t>(), std::llround(12582912 / 192.3));
  EXPECT_TRUE(json["local_roof_gflops"].is_null());
}

// The placements saved in the golden runs were made when records held their counters as JSON: placing
// the typed records again gives the same placements, the counters' ones included.
TEST(Roofline, PlacementReproducesTheGoldenRuns) {
  for (const char* run : {"pocl-default", "h100-default"}) {
    SCOPED_TRACE(run);
    rooflab::ResultsDocument d = rooflab::readResultsFile(std::string(ROOFLAB_SOURCE_DIR) +
                                                          "/tests/fixtures/report-golden/" + run + "/input.json");
    const auto& saved = d.models.roofline_models;
    rooflab::RooflineModels models{saved.at("gtx670").model, saved.at("device").model, std::nullopt, d.models.ceilings};
    if (saved.count("datasheet")) models.datasheet = saved.at("datasheet").model;
    std::size_t placements = 0;
    for (std::size_t i = 0; i < d.records.size(); ++i) {
      const auto& before = d.analysis.records[i].roofline;
      const rooflab::AnalysedRecord record = placed(d.records[i], models);
      // Placements at further memory levels are new; every placement the file has is
      // reproduced exactly.
      ASSERT_GE(record.roofline.size(), before.size()) << record.label();
      for (const auto& [key, placement] : record.roofline)
        if (!before.count(key)) EXPECT_NE(placement.level, rooflab::MemoryLevel::dram) << record.label() << " " << key;
      for (const auto& [key, placement] : before) {
        RooflinePlacement again = record.roofline.at(key);
        again.above_roof.reset();  // new since these runs: tested in test_level_roofline.cpp
        // The files saved the reasons as one sentence: the reports' rendering must be that sentence.
        again.reason_as_saved = rooflab::reports::placementReasonsText(again);
        again.reasons.clear();
        EXPECT_EQ(rooflab::toJson(again), rooflab::toJson(placement)) << record.label() << " " << key;
      }
      placements += before.size();
    }
    EXPECT_GT(placements, 100u);
  }
}

namespace {

// A shipped matmul rung resolved at size N and placed on the GTX 670 course model alone.
rooflab::AnalysedRecord placedMatmulRung(const std::string& variant, double n) {
  static const rooflab::FamilyManifest family =
      rooflab::loadFamilyManifest(std::string(ROOFLAB_SOURCE_DIR) + "/kernels/matmul/family.toml");
  rooflab::ParamValues params = family.params;
  params["N"] = n;
  const rooflab::ResolvedPoint resolved =
      rooflab::resolvePoint(rooflab::RunPoint{&family, family.findVariant(variant), params, rooflab::RunMode::normal});
  rooflab::RunRecord record;
  record.work = resolved.work;
  return placed(record, rooflab::RooflineModels{model("gtx670"), std::nullopt, std::nullopt, std::nullopt});
}

}  // namespace

// The course's arithmetic: naive matmul makes one 4-byte global access per FLOP (CGMA 1.0), so the
// GTX 670's 192.3 GB/s allow 0.25 FLOP/B x 192.3 GB/s = 48 GFLOP/s, 2% of its 2460; 16x16 tiles
// reuse each loaded value 16 times (CGMA 16). At N = 4096 the N*N stores of C shift the CGMA by
// less than 0.2%.
TEST(Roofline, Gtx670PlacesTheCourseMatmulRungsAtTheirCgma) {
  const rooflab::AnalysedRecord naive = placedMatmulRung("naive_coalesced", 4096);
  ASSERT_TRUE(naive.roofline.count("gtx670_global"));
  const RooflinePlacement& naive_global = naive.roofline.at("gtx670_global");
  EXPECT_EQ(naive_global.level, rooflab::MemoryLevel::global);
  EXPECT_EQ(naive.work.access_element_bytes, 4.0);
  ASSERT_TRUE(naive_global.intensity && naive.work.cgma());
  EXPECT_NEAR(*naive.work.cgma(), 1.0, 0.002);
  EXPECT_NEAR(*naive_global.intensity * 4, 1.0, 0.002);
  ASSERT_TRUE(naive_global.attainable_gflops);
  EXPECT_NEAR(*naive_global.attainable_gflops, 48.0, 0.2);
  EXPECT_LT(*naive_global.intensity, naive_global.ridge_intensity);  // on the DRAM slope, far left of the ridge

  const rooflab::AnalysedRecord tiled = placedMatmulRung("tiled16", 4096);
  const RooflinePlacement& tiled_global = tiled.roofline.at("gtx670_global");
  ASSERT_TRUE(tiled_global.intensity && tiled.work.cgma());
  EXPECT_NEAR(*tiled.work.cgma(), 16.0, 0.05);
  EXPECT_NEAR(*tiled_global.intensity * 4, 16.0, 0.05);
  EXPECT_NEAR(*tiled_global.attainable_gflops, *tiled.work.cgma() / 4 * 192.3, 1e-9);
  EXPECT_NEAR(*tiled_global.attainable_gflops, 16.0 / 4 * 192.3, 0.01 * 769.2);  // 769 GFLOP/s, 31% of the peak

  // The compulsory level stays its own placement: the family's work, the same for every rung.
  const RooflinePlacement& naive_dram = naive.roofline.at("gtx670");
  const RooflinePlacement& tiled_dram = tiled.roofline.at("gtx670");
  EXPECT_EQ(naive_dram.level, rooflab::MemoryLevel::dram);
  ASSERT_TRUE(naive_dram.intensity && tiled_dram.intensity);
  EXPECT_DOUBLE_EQ(*naive_dram.intensity, *tiled_dram.intensity);
  EXPECT_NEAR(*naive_dram.intensity, 2.0 * 4096 / 12, 1e-6);  // 2N^3 / (3 N^2 x 4 B)
}

TEST(Roofline, LevelRoundTripsThroughJsonAndDramWritesNone) {
  RooflinePlacement global;
  global.level = rooflab::MemoryLevel::global;
  EXPECT_EQ(rooflab::toJson(global)["level"], "global");
  EXPECT_EQ(rooflab::rooflinePlacementFromJson(rooflab::toJson(global)).level, rooflab::MemoryLevel::global);
  EXPECT_FALSE(rooflab::toJson(RooflinePlacement{}).contains("level"));
  EXPECT_EQ(rooflab::levelPlacementKey("gtx670", rooflab::MemoryLevel::dram), "gtx670");
  EXPECT_EQ(rooflab::levelPlacementKey("device", rooflab::MemoryLevel::l2), "device_l2");
}

namespace {

// A record that ran on an H100 with counters: `fp32_flops` and `integer_ops` counted, 1 MB of DRAM.
rooflab::RunRecord countedRecord(rooflab::Arithmetic declared, double declared_flops, double fp32_flops,
                                 double integer_ops) {
  rooflab::RunRecord record;
  record.work.arithmetic = declared;
  record.work.flops = declared_flops;
  record.work.bytes = 1e6;
  rooflab::EventTimings timings;
  timings.kernel_ns.median = 1000;
  record.timings = timings;
  record.counters.available = true;
  record.counters.not_attempted = false;
  record.counters.derived = {
      {"fp32_flops", fp32_flops}, {"integer_ops", integer_ops}, {"dram_bytes", 1e6}, {"l2_bytes", 2e6}};
  return record;
}

}  // namespace

// Integer work counted by the hardware stands under the int32 roof whether or not the manifest says
// the work is in integers; a manifest that does says nothing more on the placement, and floating-point
// work keeps its FLOPs.
TEST(Roofline, IntegerWorkTheCountersCountedStandsUnderTheInt32Roof) {
  const DeviceModel& h100 = model("h100-sxm");
  const rooflab::RooflineModels models{h100, std::nullopt, std::nullopt, std::nullopt};
  const double int32_ridge = *h100.int32_gops / h100.dram_gbps;

  // Declared FP32 work, none counted: a user's integer kernel without `[work] type`.
  const rooflab::AnalysedRecord undeclared = placed(countedRecord(rooflab::Arithmetic::fp32, 5e6, 0, 4e7), models);
  const RooflinePlacement& counted = undeclared.roofline.at("h100-sxm_counters");
  EXPECT_EQ(counted.arithmetic, rooflab::Arithmetic::int32);
  EXPECT_DOUBLE_EQ(*counted.intensity, 40.0);  // integer operations per counted DRAM byte
  EXPECT_DOUBLE_EQ(counted.ridge_intensity, int32_ridge);
  EXPECT_DOUBLE_EQ(*counted.achieved_gflops, 4e7 / 1000);
  EXPECT_EQ(undeclared.roofline.at("h100-sxm_l2").arithmetic, rooflab::Arithmetic::int32);
  EXPECT_DOUBLE_EQ(*undeclared.roofline.at("h100-sxm_l2").intensity, 20.0);
  EXPECT_EQ(rooflab::toJson(counted).at("arithmetic"), "int32");
  EXPECT_EQ(rooflab::rooflinePlacementFromJson(rooflab::toJson(counted)).arithmetic, rooflab::Arithmetic::int32);
  // The analytic placement keeps the manifest's type.
  EXPECT_FALSE(undeclared.roofline.at("h100-sxm").arithmetic.has_value());

  // Declared in integers: the counted operations, the roof the manifest already names.
  const rooflab::AnalysedRecord declared = placed(countedRecord(rooflab::Arithmetic::int32, 5e6, 0, 4e7), models);
  EXPECT_FALSE(declared.roofline.at("h100-sxm_counters").arithmetic.has_value());
  EXPECT_FALSE(rooflab::toJson(declared.roofline.at("h100-sxm_counters")).contains("arithmetic"));
  EXPECT_DOUBLE_EQ(*declared.roofline.at("h100-sxm_counters").intensity, 40.0);
  EXPECT_DOUBLE_EQ(declared.roofline.at("h100-sxm_counters").ridge_intensity, int32_ridge);

  // Floating-point work counted: its FLOPs, under the FP32 roof, as before.
  const rooflab::AnalysedRecord floating = placed(countedRecord(rooflab::Arithmetic::fp32, 5e6, 6e6, 4e7), models);
  EXPECT_FALSE(floating.roofline.at("h100-sxm_counters").arithmetic.has_value());
  EXPECT_DOUBLE_EQ(*floating.roofline.at("h100-sxm_counters").intensity, 6.0);
}
