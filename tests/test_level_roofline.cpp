// The roofline shows each rung where it really is (issue 16): a run of the default config's matmul
// ladder on PoCL, read back from its results file and laid out as the chart the report draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>

#include "analyzer/manifest.hpp"
#include "analyzer/results_json.hpp"
#include "reports/chart_scene.hpp"
#include "reports/roofline_chart.hpp"
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

// Runs the default config's matmul study once per rung, normal mode only, and returns its results.
rooflab::ResultsDocument runDefaultMatmulOnPocl(const TempDir& dir) {
  const std::string study = defaultStudyBlock("matmul");
  EXPECT_FALSE(study.empty());
  const fs::path config = dir.path() / "matmul.toml";
  std::ofstream(config) << "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nmodes = [\"normal\"]\n"
                        << "counters = \"off\"\nceilings = \"datasheet\"\nformats = [\"json\"]\n"
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
  const rooflab::ResultsDocument results = runDefaultMatmulOnPocl(dir);
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
                                     [&](const rooflab::RunRecord& r) { return r.variant == variant.name; });
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
