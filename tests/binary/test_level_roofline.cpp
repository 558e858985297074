// The roofline shows each rung where it really is: every variant at its global level (the
// course's CGMA), a marker per memory level the hardware saw, a reason for every point above its
// roof, and the report's wording. PoCL runs of the default config's studies go through the binary
// and are read back from their results file, laid out as the chart the report draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>

#include "analyzer/roofline/roofline.hpp"
#include "analyzer/place/place_record.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/place/roof_excess.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/html/html_report.hpp"
#include "reports/chart/roofline_chart.hpp"
#include "reports/text/roofline_sentences.hpp"
#include "test_support.hpp"

using rooflab::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// The [[study]] block of configs/default.toml whose family is `family`, as written there.
std::string defaultStudyBlock(const std::string& family) {
  const std::string text = rooflab::testing::fileText(fs::path(ROOFLAB_SOURCE_DIR) / "configs/default.toml");
  const std::string marker = "[[study]]\nfamily = \"" + family + "\"";
  const std::size_t begin = text.find(marker);
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find("[[study]]", begin + marker.size());
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// Runs the default config's study of `family` once per rung, normal mode only, and returns its
// results; `ceilings` is "datasheet" (fast: the GTX 670 model alone on PoCL) or "measure".
rooflab::ResultsDocument runDefaultStudyOnPocl(const TempDir& dir, const std::string& family,
                                               const std::string& ceilings = "datasheet") {
  const std::string study = defaultStudyBlock(family);
  EXPECT_FALSE(study.empty());
  const fs::path config = dir.path() / (family + ".toml");
  std::ofstream(config) << "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nmodes = [\"normal\"]\n"
                        << "counters = \"off\"\nceilings = \"" << ceilings << "\"\nformats = [\"json\"]\n"
                        << "kernels = [\"" << ROOFLAB_SOURCE_DIR << "/kernels\"]\n\n"
                        << study;
  const fs::path out = dir.path() / "out";
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + config.string() + " --out " + out.string() +
                              " > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 0) << rooflab::testing::fileText(dir.path() / "log");
  return rooflab::readResultsFile(out / "results.json");
}

}  // namespace

TEST(LevelRoofline, DefaultMatmulChartPlacesEveryRungAtItsOwnGlobalIntensity) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const rooflab::AnalysedResults results = runDefaultStudyOnPocl(dir, "matmul");
  const rooflab::reports::RooflineChart chart = rooflab::reports::buildRooflineChart(results, "matmul");
  const rooflab::reports::ChartScene scene = rooflab::reports::layoutRooflineChart(chart);
  EXPECT_NE(chart.x_axis.title.find("global"), std::string::npos) << chart.x_axis.title;

  // Each marker's x on the scene, by the variant its tooltip names first.
  std::map<std::string, double> marker_x_px;
  for (const auto& item : scene.items) {
    if (const auto* marker = std::get_if<rooflab::reports::SceneMarker>(&item); marker && !marker->tooltip.empty())
      marker_x_px[marker->tooltip.front()] = marker->center.x_px;
  }
  // The ladder in its manifest order, with each rung's CGMA from its record.
  const rooflab::FamilyManifest family =
      rooflab::loadFamilyManifest(fs::path(ROOFLAB_SOURCE_DIR) / "kernels/matmul/family.toml");
  std::vector<std::pair<std::string, double>> ladder;  // variant, CGMA
  for (const rooflab::VariantSpec& variant : family.variants) {
    const auto record = std::find_if(results.records.begin(), results.records.end(),
                                     [&](const rooflab::AnalysedRecord& r) { return r.variant == variant.name; });
    if (record == results.records.end()) continue;
    SCOPED_TRACE(variant.name);
    ASSERT_TRUE(record->work.cgma());
    const auto global = record->roofline.find("gtx670_global");
    ASSERT_NE(global, record->roofline.end());
    ASSERT_TRUE(global->second.intensity);
    EXPECT_NEAR(*global->second.intensity, *record->work.cgma() / 4.0, 1e-9);
    const auto point = std::find_if(chart.points.begin(), chart.points.end(), [&](const auto& p) {
      return chart.series[p.series_index].variant == variant.name;
    });
    ASSERT_NE(point, chart.points.end());
    EXPECT_DOUBLE_EQ(point->at.intensity_flop_per_byte, *global->second.intensity);
    ASSERT_TRUE(marker_x_px.count("matmul / " + variant.name));
    ladder.emplace_back(variant.name, *record->work.cgma());
  }
  ASSERT_GE(ladder.size(), 10u) << "the default config's matmul study has 10 rungs";
  // Along the ladder the markers move as their CGMA does: right where it grows, level where two
  // rungs make the same accesses, left where it shrinks (volkov_64x16's 25.6 after tiled32's 32).
  for (std::size_t i = 1; i < ladder.size(); ++i) {
    SCOPED_TRACE(ladder[i - 1].first + " -> " + ladder[i].first);
    const double x_step = marker_x_px["matmul / " + ladder[i].first] - marker_x_px["matmul / " + ladder[i - 1].first];
    const double cgma_ratio = ladder[i].second / ladder[i - 1].second;
    if (cgma_ratio > 1.01) EXPECT_GT(x_step, 1.0);
    else if (cgma_ratio < 0.99) EXPECT_LT(x_step, -1.0);
    else EXPECT_NEAR(x_step, 0.0, 0.5);
  }
  // The course rungs stand apart: naive (CGMA 1) < tiled16 (16) < tiled32 (32) < 128x128 blocks (128).
  EXPECT_LT(marker_x_px["matmul / naive_coalesced"], marker_x_px["matmul / tiled16"]);
  EXPECT_LT(marker_x_px["matmul / tiled16"], marker_x_px["matmul / tiled32_2pt"]);
  EXPECT_LT(marker_x_px["matmul / tiled32_2pt"], marker_x_px["matmul / blocked128_8x8"]);
}

namespace {

// The H100 golden run read as if written today: each record's access element size (what a new run
// records), its counters' derived values and its placements recomputed by this build.
rooflab::ResultsDocument h100RunPlacedAgain() {
  rooflab::ResultsDocument d =
      rooflab::readResultsFile(fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/h100-default/input.json");
  const auto& saved = d.models.roofline_models;
  rooflab::RooflineModels models{saved.at("gtx670").model, saved.at("device").model, std::nullopt, d.models.ceilings};
  if (saved.count("datasheet")) models.datasheet = saved.at("datasheet").model;
  d.analysis.records.resize(d.records.size());
  for (std::size_t i = 0; i < d.records.size(); ++i) {
    rooflab::RunRecord& record = d.records[i];
    record.work.access_element_bytes = record.family == "nbody" ? 16.0 : 4.0;
    if (record.counters.available) rooflab::counters::deriveCounterValues(record.counters);
    d.analysis.records[i].roofline = rooflab::placeRecord(record, models);
  }
  return d;
}

double levelIntensity(const rooflab::reports::RooflineChart& chart, const std::string& variant,
                      rooflab::MemoryLevel level) {
  for (const auto& point : chart.points) {
    if (chart.series[point.series_index].variant != variant) continue;
    if (point.at.level == level) return point.at.intensity_flop_per_byte;
    for (const auto& marker : point.levels)
      if (marker.at.level == level) return marker.at.intensity_flop_per_byte;
  }
  return 0;
}

}  // namespace

TEST(LevelRoofline, CountersGiveTheBytesOfL1AndSharedMemory) {
  rooflab::counters::CounterSet c;
  c.available = true;
  c.values = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 100},
              {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 10},
              {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 7},
              {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 3}};
  rooflab::counters::deriveCounterValues(c);
  EXPECT_EQ(c.derived.at("l1_global_bytes"), 110.0 * 32);
  EXPECT_EQ(c.derived.at("shared_bytes"), 10.0 * 128);
}

// On the H100 each matmul rung gets a marker at every level the counters saw, joined at its rate;
// the naive rungs' L1 and L2 points stand well left of the tiled rungs' (tiling cuts the traffic
// each cache level serves), and the legend says which shape is which level.
TEST(LevelRoofline, H100MatmulHasAMarkerPerLevelAndNaiveStandsLeftOfTiled) {
  const rooflab::ResultsDocument results = h100RunPlacedAgain();
  const rooflab::reports::RooflineChart chart = rooflab::reports::buildRooflineChart(results, "matmul");
  ASSERT_TRUE(chart.hierarchical);
  ASSERT_FALSE(chart.points.empty());
  for (const auto& point : chart.points) {
    SCOPED_TRACE(chart.series[point.series_index].variant);
    EXPECT_EQ(point.at.level, rooflab::MemoryLevel::global);
    std::vector<rooflab::MemoryLevel> levels;
    for (const auto& marker : point.levels) {
      levels.push_back(marker.at.level);
      EXPECT_DOUBLE_EQ(marker.at.gflops, point.at.gflops);
    }
    for (rooflab::MemoryLevel level : {rooflab::MemoryLevel::dram, rooflab::MemoryLevel::l1, rooflab::MemoryLevel::l2})
      EXPECT_NE(std::find(levels.begin(), levels.end(), level), levels.end()) << rooflab::toString(level);
  }
  using rooflab::MemoryLevel;
  for (const char* naive : {"naive_coalesced", "naive_uncoalesced"}) {
    for (const char* tiled : {"tiled16", "tiled32_2pt", "blocked128_8x8"}) {
      SCOPED_TRACE(std::string(naive) + " vs " + tiled);
      for (MemoryLevel level : {MemoryLevel::l1, MemoryLevel::l2}) {
        const double naive_x = levelIntensity(chart, naive, level), tiled_x = levelIntensity(chart, tiled, level);
        ASSERT_GT(naive_x, 0);
        // L1 serves every load the code makes: tiling cuts it by the tile size. L2 sees only L1's
        // misses, and naive_coalesced's row reuse already hits in L1 on the H100 (13.5 vs 3.4
        // FLOP/B): its L2 point stands just left of tiled16's, not far left.
        EXPECT_GT(tiled_x, (level == MemoryLevel::l1 ? 4 : 1) * naive_x) << rooflab::toString(level);
      }
    }
  }
  const rooflab::reports::ChartScene scene = rooflab::reports::layoutRooflineChart(chart);
  std::vector<std::string> texts;
  std::size_t level_markers = 0;
  for (const auto& item : scene.items) {
    if (const auto* text = std::get_if<rooflab::reports::SceneText>(&item)) texts.push_back(text->text);
    if (const auto* marker = std::get_if<rooflab::reports::SceneMarker>(&item);
        marker && marker->shape == rooflab::reports::MarkerShape::diamond && !marker->tooltip.empty())
      ++level_markers;
  }
  for (const char* legend : {"Memory levels (shape)", "global (CGMA)", "DRAM", "L1", "L2"})
    EXPECT_NE(std::find(texts.begin(), texts.end(), legend), texts.end()) << legend;
  EXPECT_EQ(level_markers, chart.points.size()) << "one L2 (diamond) marker per variant";
}

// A model may carry an L2 roof; JSON writes it only when present, so older results re-render
// unchanged, and the L2 level is placed under it (and has no roof on a model without one).
TEST(LevelRoofline, DeviceModelCarriesAnOptionalL2Roof) {
  const std::string toml = "peak_gflops = 1000.0\ndram_gbps = 100.0\nl2_gbps = 400.0\n[sources]\n"
                           "peak_gflops = \"x\"\ndram_gbps = \"x\"\nl2_gbps = \"x\"\n";
  const rooflab::DeviceModel model = rooflab::parseDeviceModel(toml, "l2", "test");
  ASSERT_EQ(model.l2_gbps, 400.0);
  EXPECT_EQ(rooflab::parseDeviceModel(rooflab::toToml(model), "l2", "again"), model);
  EXPECT_EQ(rooflab::toJson(model)["l2_gbps"], 400.0);
  rooflab::DeviceModel without = model;
  without.l2_gbps.reset();
  EXPECT_FALSE(rooflab::toJson(without).contains("l2_gbps"));

  rooflab::RooflineInput input;
  input.flops = 1000;
  input.dram_bytes = 100;  // 10 FLOP per L2 byte
  input.level = rooflab::MemoryLevel::l2;
  const rooflab::RooflinePlacement placed = rooflab::placeOnRoofline(model, input);
  ASSERT_TRUE(placed.attainable_gflops);
  EXPECT_DOUBLE_EQ(*placed.attainable_gflops, 1000.0);  // min(peak, 10 x 400)
  EXPECT_DOUBLE_EQ(placed.ridge_intensity, 2.5);
  const rooflab::RooflinePlacement no_roof = rooflab::placeOnRoofline(without, input);
  EXPECT_FALSE(no_roof.attainable_gflops);
  const std::string why = rooflab::reports::placementReasonsText(no_roof).value_or("");
  ASSERT_TRUE(no_roof.intensity);
  EXPECT_NE(why.find("no l2 bandwidth"), std::string::npos) << why;
}

namespace {

rooflab::RunRecord timedRecord(double bytes, std::int64_t median_ns) {
  rooflab::RunRecord record;
  record.work.flops = bytes / 4;
  record.work.bytes = bytes;
  rooflab::EventTimings timings;
  timings.kernel_ns.median = static_cast<double>(median_ns);
  record.timings = timings;
  return record;
}

// Why a point stands above its roof, as reports write it.
std::optional<std::string> aboveRoofSentence(const rooflab::RunRecord& record,
                                             const rooflab::RooflinePlacement& placement,
                                             const rooflab::RoofExcessContext& context) {
  const auto above = rooflab::explainAboveRoof(record, placement, context);
  if (!above) return std::nullopt;
  return rooflab::reports::aboveRoofText(*above);
}

rooflab::RooflinePlacement atFraction(double fraction) {
  rooflab::RooflinePlacement placement;
  placement.fraction_of_roof = fraction;
  return placement;
}

}  // namespace

// Every point above its roof carries why, as far as rooflab can tell; one under it carries nothing.
TEST(LevelRoofline, APointAboveItsRoofSaysWhy) {
  rooflab::RoofExcessContext context{1 << 20, std::nullopt, 1, true};
  const rooflab::RunRecord small = timedRecord(512 * 1024, 100000);  // 0.5 MiB, in a 1 MiB cache
  EXPECT_FALSE(rooflab::explainAboveRoof(small, atFraction(0.9), context));
  const auto cached = aboveRoofSentence(small, atFraction(1.59), context);
  ASSERT_TRUE(cached);
  EXPECT_NE(cached->find("159.0%"), std::string::npos) << *cached;
  EXPECT_NE(cached->find("fits in the 1.0 MiB cache"), std::string::npos) << *cached;

  rooflab::RunRecord counted = timedRecord(64.0 * 1024 * 1024, 100000);  // 64 MiB: no cache holds it
  counted.counters.available = true;
  counted.counters.derived["dram_bytes"] = 16.0 * 1024 * 1024;
  const auto below_compulsory = aboveRoofSentence(counted, atFraction(1.2), context);
  ASSERT_TRUE(below_compulsory);
  EXPECT_NE(below_compulsory->find("counters saw 16.0 MiB"), std::string::npos) << *below_compulsory;

  rooflab::RoofExcessContext coarse_timer{0, std::nullopt, 1000, true};
  const auto timer = aboveRoofSentence(timedRecord(64.0 * 1024 * 1024, 5000), atFraction(1.1), coarse_timer);
  ASSERT_TRUE(timer);
  EXPECT_NE(timer->find("timer resolution (1000 ns)"), std::string::npos) << *timer;

  const auto unknown = aboveRoofSentence(timedRecord(64.0 * 1024 * 1024, 1000000), atFraction(1.1), coarse_timer);
  ASSERT_TRUE(unknown);
  EXPECT_NE(unknown->find("no cause rooflab can tell"), std::string::npos) << *unknown;

  rooflab::RoofExcessContext reference{0, std::nullopt, 0, false};
  const auto other_device = aboveRoofSentence(timedRecord(64.0 * 1024 * 1024, 1000000), atFraction(30), reference);
  ASSERT_TRUE(other_device);
  EXPECT_NE(other_device->find("another device"), std::string::npos) << *other_device;
}

// On PoCL every point above a roof of the default vecadd study is flagged, with its reason, in the
// results and in the chart's tooltip.
TEST(LevelRoofline, PoclVecaddHasNoUnflaggedPointAboveARoof) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const rooflab::AnalysedResults results = runDefaultStudyOnPocl(dir, "vecadd", "measure");
  ASSERT_FALSE(results.records.empty());
  for (const rooflab::AnalysedRecord& record : results.records) {
    for (const auto& [key, placement] : record.roofline) {
      SCOPED_TRACE(record.variant + " " + key);
      const bool above = placement.fraction_of_roof && *placement.fraction_of_roof > 1.0;
      EXPECT_EQ(above, placement.above_roof.has_value());
    }
  }
  const rooflab::reports::RooflineChart chart = rooflab::reports::buildRooflineChart(results, "vecadd");
  for (const auto& point : chart.points) {
    if (!point.above_roof) continue;
    EXPECT_NE(std::find(point.details.begin(), point.details.end(), "⚠ " + *point.above_roof), point.details.end());
  }
}

// A mutant slower than its original promises nothing: the report says "no gain", never "up to
// 0.44x faster" (the H100 golden run has both kinds).
TEST(LevelRoofline, ASpeedupUnderOneIsNoGain) {
  const rooflab::ResultsDocument results =
      rooflab::readResultsFile(fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/h100-default/input.json");
  const std::string html = rooflab::reports::renderHtmlReport(results);
  EXPECT_NE(html.find("were free: no gain"), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex("up to 0\\.[0-9]+× faster")));
  EXPECT_TRUE(std::regex_search(html, std::regex("up to [1-9][0-9.]*× faster")));
}
