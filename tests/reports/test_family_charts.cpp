// Every kernel on a chart: the built-in transpose family (no arithmetic work) on the bandwidth chart
// with every variant, where its roofline used to stand empty; the instruction roofline of an H100
// transpose run, each rung at its wall; and the page and PNG files that carry them. Checked on the
// scenes both drawers draw, as test_chart_craft.cpp does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "analyzer/counters/counters.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/place/place_record.hpp"
#include "reports/chart/bandwidth_chart.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/family_charts.hpp"
#include "reports/chart/instruction_roofline.hpp"
#ifdef ROOFLAB_HAVE_CAIRO
#include "reports/chart/png_report.hpp"
#endif
#include "reports/html/html_report.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
namespace reports = rooflab::reports;
using rooflab::testing::TempDir;

namespace {

const fs::path kChartsSourceDir = ROOFLAB_SOURCE_DIR;
// `rooflab run` of the built-in transpose family on PoCL (tests/fixtures/results/README.md).
const fs::path kPoclTranspose = kChartsSourceDir / "tests/fixtures/results/pocl-transpose.json";
// configs/transpose.toml on an H100 with counters (bench/checks-h100.sh whatif).
const fs::path kH100Transpose =
    kChartsSourceDir / "bench/results/2026-11-23-h100-levels-whatif/checks-698406e/whatif/results.json.gz";

rooflab::ResultsDocument load(const fs::path& path) {
  if (path.extension() != ".gz") return rooflab::readResultsFile(path);
  TempDir dir;
  const fs::path plain = dir.path() / "results.json";
  const std::string command = "gzip -dc '" + path.string() + "' > '" + plain.string() + "'";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot gunzip " + path.string());
  return rooflab::readResultsFile(plain);
}

// The H100 run as this rooflab derives its counters: the file predates the instruction roofline's values.
rooflab::ResultsDocument h100TransposeDerivedNow() {
  rooflab::ResultsDocument results = load(kH100Transpose);
  for (rooflab::RunRecord& record : results.records)
    if (record.counters.available) rooflab::counters::deriveCounterValues(record.counters);
  return results;
}

std::vector<reports::SceneText> chartTextsOf(const reports::ChartScene& scene) {
  std::vector<reports::SceneText> texts;
  for (const reports::SceneItem& item : scene.items)
    if (const auto* text = std::get_if<reports::SceneText>(&item)) texts.push_back(*text);
  return texts;
}

// No two labels overlap and every one stays on the canvas.
void expectLabelsApartAndOnCanvas(const reports::ChartScene& scene) {
  const std::vector<reports::SceneText> texts = chartTextsOf(scene);
  for (std::size_t a = 0; a < texts.size(); ++a) {
    const reports::TextFootprint fa = reports::textFootprint(texts[a]);
    for (const reports::PixelPoint& corner : fa.corners)
      EXPECT_TRUE(corner.x_px >= 0 && corner.x_px <= scene.width_px && corner.y_px >= 0 &&
                  corner.y_px <= scene.height_px)
          << '"' << texts[a].text << "\" leaves the canvas";
    for (std::size_t b = a + 1; b < texts.size(); ++b)
      EXPECT_FALSE(reports::footprintsOverlap(fa, reports::textFootprint(texts[b])))
          << '"' << texts[a].text << "\" overlaps \"" << texts[b].text << '"';
  }
}

// The variants whose markers carry a tooltip, by the tooltip's first line.
std::set<std::string> tooltipHeads(const reports::ChartScene& scene) {
  std::set<std::string> heads;
  for (const reports::SceneItem& item : scene.items)
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item); marker && !marker->tooltip.empty())
      heads.insert(marker->tooltip.front());
  return heads;
}

}  // namespace

TEST(FamilyCharts, PoclTransposeHasABandwidthChartWithEveryVariant) {
  const rooflab::ResultsDocument results = load(kPoclTranspose);
  const reports::FamilyCharts charts = reports::buildFamilyCharts(results, "transpose");
  // No FLOPs: the roofline would be empty, so the bandwidth chart stands in its place.
  EXPECT_FALSE(charts.roofline.has_value());
  EXPECT_FALSE(charts.instructions.has_value());  // no counters on PoCL
  ASSERT_TRUE(charts.bandwidth.has_value());
  const reports::BandwidthChart& chart = *charts.bandwidth;
  std::vector<std::string> variants;
  for (const reports::VariantSeries& series : chart.series) variants.push_back(series.variant);
  EXPECT_EQ(variants, (std::vector<std::string>{"naive", "tiled", "tiled_padded"}));
  EXPECT_TRUE(chart.unplaced.empty());

  // Every record has a dot in the global and DRAM columns; the tiled rungs in the local one too.
  std::map<rooflab::MemoryLevel, std::set<std::size_t>> series_by_level;
  for (const reports::BandwidthDot& dot : chart.dots) {
    series_by_level[chart.columns[dot.column].level].insert(dot.series_index);
    EXPECT_GT(dot.fraction, 0.0);
  }
  EXPECT_EQ(series_by_level[rooflab::MemoryLevel::global], (std::set<std::size_t>{0, 1, 2}));
  EXPECT_EQ(series_by_level[rooflab::MemoryLevel::dram], (std::set<std::size_t>{0, 1, 2}));
  EXPECT_EQ(series_by_level[rooflab::MemoryLevel::local], (std::set<std::size_t>{1, 2}));

  const reports::ChartScene scene = reports::layoutBandwidthChart(chart);
  expectLabelsApartAndOnCanvas(scene);
  EXPECT_EQ(tooltipHeads(scene),
            (std::set<std::string>{"transpose / naive", "transpose / tiled", "transpose / tiled_padded"}));

  // The page: the bandwidth chart with a filter checkbox per variant, and no empty roofline.
  const std::string html = reports::renderHtmlReport(results);
  const std::size_t figure = html.find("data-chart=\"bandwidth\"");
  ASSERT_NE(figure, std::string::npos);
  const std::string bandwidth_figure = html.substr(figure, html.find("</figure>", figure) - figure);
  for (std::size_t index = 0; index < variants.size(); ++index) {
    EXPECT_NE(bandwidth_figure.find("<input type=\"checkbox\" checked data-series=\"" + std::to_string(index) + "\">"),
              std::string::npos);
    EXPECT_NE(bandwidth_figure.find("> " + variants[index] + "</label>"), std::string::npos);
  }
  EXPECT_EQ(html.find("no variant can be placed"), std::string::npos);
}

TEST(FamilyCharts, H100TransposeStandsAtItsWallsOnTheInstructionRoofline) {
  const rooflab::ResultsDocument results = h100TransposeDerivedNow();
  const std::optional<reports::RooflineChart> chart = reports::buildInstructionRoofline(results, "transpose");
  ASSERT_TRUE(chart.has_value());
  ASSERT_EQ(chart->series.size(), 3u);
  std::map<std::string, std::map<reports::AccessKind, double>> x_of;  // variant -> access kind -> x
  std::map<std::string, std::set<rooflab::MemoryLevel>> levels_of;
  for (const reports::VariantPoint& point : chart->points) {
    const std::string& variant = chart->series[point.series_index].variant;
    levels_of[variant].insert(point.at.level);
    for (const reports::LevelMarker& level : point.levels) levels_of[variant].insert(level.at.level);
    for (const reports::AccessMarker& access : point.accesses)
      x_of[variant][access.kind] = access.at.intensity_flop_per_byte;
  }
  using rooflab::MemoryLevel;
  EXPECT_EQ(levels_of["naive"], (std::set<MemoryLevel>{MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::dram}));
  EXPECT_EQ(levels_of["tiled"],
            (std::set<MemoryLevel>{MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::dram, MemoryLevel::local}));
  // Naive: loads at unit stride, stores a sector per pair of threads (16-wide work-groups).
  EXPECT_NEAR(x_of["naive"][reports::AccessKind::global_load], 0.25, 0.01);
  EXPECT_NEAR(x_of["naive"][reports::AccessKind::global_store], 1.0 / 16, 0.005);
  // Tiled: the column read of the tile is a 32-way conflict; padded, it is none.
  EXPECT_NEAR(x_of["tiled"][reports::AccessKind::shared_load], 1.0 / 32, 0.003);
  EXPECT_GT(x_of["tiled_padded"][reports::AccessKind::shared_load], 0.9);
  EXPECT_NEAR(x_of["tiled"][reports::AccessKind::global_store], 0.25, 0.01);

  // The walls and the level slopes are drawn, each labelled; no label covers another.
  std::vector<double> walls;
  for (const reports::ChartWall& wall : chart->walls) walls.push_back(wall.x);
  EXPECT_EQ(walls, (std::vector<double>{1.0, 0.25, 1.0 / 32}));
  const reports::ChartScene scene = reports::layoutRooflineChart(*chart);
  expectLabelsApartAndOnCanvas(scene);
  const std::vector<reports::SceneText> texts = chartTextsOf(scene);
  for (const reports::ChartWall& wall : chart->walls)
    EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [&](const reports::SceneText& t) {
      return t.text == wall.label || t.text == wall.short_label;
    })) << wall.label;
  std::set<reports::CeilingKind> slopes;
  for (const reports::Ceiling& ceiling : chart->ceilings) slopes.insert(ceiling.kind);
  EXPECT_EQ(slopes, (std::set<reports::CeilingKind>{
                        reports::CeilingKind::l1_bandwidth, reports::CeilingKind::l2_bandwidth,
                        reports::CeilingKind::dram_bandwidth, reports::CeilingKind::local_bandwidth}));

  // The page shows it beside the family's other charts, with the readings in a table.
  const std::string html = reports::renderHtmlReport(results);
  EXPECT_NE(html.find("data-chart=\"instructions\""), std::string::npos);
  EXPECT_NE(html.find("<table class=\"instruction-roofline\">"), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"bandwidth\""), std::string::npos);
}

// With the integer instructions counted (a run of this rooflab collects them), the transpose, which
// declares no work, stands on its roofline under the int32 roof: its integer work (the addressing)
// per counted DRAM byte, the caption says so, and its tooltip has the count.
TEST(FamilyCharts, IntegerWorkTheCountersCountedPutsATransposeOnItsRoofline) {
  rooflab::ResultsDocument results = h100TransposeDerivedNow();
  // The int32 roof is measured in every run that may get counters.
  results.models.roofline_models.at("device").model.int32_gops = 33400;
  const auto& saved = results.models.roofline_models;
  const rooflab::RooflineModels models{saved.at("gtx670").model, saved.at("device").model, std::nullopt,
                                       results.models.ceilings};
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    rooflab::RunRecord& record = results.records[i];
    if (!record.counters.available) continue;
    // 16 integer instructions per thread of each warp instruction's 32: what the addressing costs.
    record.counters.values[rooflab::counters::kIntegerInstructions] =
        16 * record.counters.values.at(rooflab::counters::kWarpInstructions);
    rooflab::counters::deriveCounterValues(record.counters);
    results.analysis.records.at(i).roofline = rooflab::placeRecord(record, models);
  }
  const reports::RooflineChart chart = reports::buildRooflineChart(results, "transpose");
  ASSERT_EQ(chart.series.size(), 3u);
  EXPECT_TRUE(chart.unplaced.empty());
  EXPECT_NE(chart.y_axis.title.find("integer"), std::string::npos);
  EXPECT_FALSE(chart.caption_note.empty());
  std::size_t device_peaks = 0;
  for (const reports::Ceiling& ceiling : chart.ceilings) {
    if (ceiling.kind != reports::CeilingKind::fp32_peak) continue;
    EXPECT_NE(ceiling.label.find("int32 peak"), std::string::npos);
    device_peaks += chart.models[ceiling.model_index].role == reports::ModelRole::measured_device;
  }
  EXPECT_EQ(device_peaks, 1u);
  for (const reports::VariantPoint& point : chart.points) {
    EXPECT_EQ(point.at.level, rooflab::MemoryLevel::dram);
    EXPECT_TRUE(std::any_of(point.details.begin(), point.details.end(),
                            [](const std::string& line) { return line.rfind("integer operations counted", 0) == 0; }));
  }
  expectLabelsApartAndOnCanvas(reports::layoutRooflineChart(chart));
  // The bandwidth chart still shows the traffic; the page draws all three.
  const reports::FamilyCharts charts = reports::buildFamilyCharts(results, "transpose");
  EXPECT_TRUE(charts.roofline && charts.bandwidth && charts.instructions);
}

// The default config's families on an H100 (10 matmul rungs among them), their counters derived as
// this rooflab derives them: every record on its instruction roofline, no label over another.
TEST(FamilyCharts, EveryFamilyOfAnH100RunHasAnInstructionRooflineWithLabelsApart) {
  rooflab::ResultsDocument results = load(
      kChartsSourceDir / "bench/results/2026-11-23-h100-faults-levels-libclang/final-e4cf105/levels/results.json.gz");
  for (rooflab::RunRecord& record : results.records)
    if (record.counters.available) rooflab::counters::deriveCounterValues(record.counters);
  for (const char* family : {"vecadd", "matmul", "reduce", "nbody"}) {
    SCOPED_TRACE(family);
    const std::optional<reports::RooflineChart> chart = reports::buildInstructionRoofline(results, family);
    ASSERT_TRUE(chart.has_value());
    EXPECT_TRUE(chart->unplaced.empty());
    expectLabelsApartAndOnCanvas(reports::layoutRooflineChart(*chart));
  }
}

// A results file without instruction counts (written before them, or without counters) draws no
// instruction roofline, and the families with FLOPs keep their roofline alone.
TEST(FamilyCharts, OlderAndFloatingPointRunsKeepTheirOneChart) {
  const rooflab::ResultsDocument results =
      load(kChartsSourceDir / "tests/fixtures/report-golden/h100-default/input.json");
  for (const char* family : {"matmul", "vecadd"}) {
    const reports::FamilyCharts charts = reports::buildFamilyCharts(results, family);
    EXPECT_TRUE(charts.roofline.has_value()) << family;
    EXPECT_FALSE(charts.bandwidth.has_value()) << family;
    EXPECT_FALSE(charts.instructions.has_value()) << family;
  }
}

#ifdef ROOFLAB_HAVE_CAIRO
TEST(FamilyCharts, PngsAreWrittenForEveryChartAndNoEmptyRoofline) {
  TempDir out;
  const auto written = reports::writePngReports(h100TransposeDerivedNow(), out.path());
  std::set<std::string> names;
  for (const fs::path& file : written) names.insert(file.filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"bandwidth-transpose.png", "instructions-transpose.png"}));
  for (const fs::path& file : written) EXPECT_GT(fs::file_size(file), 10000u) << file;
}
#endif
