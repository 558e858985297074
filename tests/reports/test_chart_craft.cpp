// The roofline chart's craft: labels that never cover each other, whole variant names,
// a colour and shape per rung, and the HTML's offline zoom and variant filter. Checked on the chart
// scene (the picture both the SVG and the PNG draw) of saved runs: the default config on PoCL, on
// an H100, and an H100 run with per-level (hierarchical) markers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/json/results_json.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/html/html_report.hpp"
#include "reports/text/results_order.hpp"
#include "reports/chart/roofline_chart.hpp"
#include "reports/html/svg_chart.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
namespace reports = rooflab::reports;
using rooflab::testing::TempDir;

namespace {

const fs::path kSourceDir = ROOFLAB_SOURCE_DIR;

rooflab::ResultsDocument loadResults(const fs::path& path) {
  std::string text;
  if (path.extension() == ".gz") {
    TempDir dir;
    const fs::path plain = dir.path() / "results.json";
    const std::string command = "gzip -dc '" + path.string() + "' > '" + plain.string() + "'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot gunzip " + path.string());
    text = rooflab::testing::fileText(plain);
  } else {
    text = rooflab::testing::fileText(path);
  }
  return rooflab::resultsDocumentFromJson(nlohmann::json::parse(text));
}

struct SavedRun {
  const char* name;
  const char* path;  // under the source folder
};

const SavedRun kSavedRuns[] = {
    {"PoclDefault", "tests/fixtures/report-golden/pocl-default/input.json"},
    {"H100Default", "tests/fixtures/report-golden/h100-default/input.json"},
    {"H100Levels", "bench/results/2026-11-23-h100-faults-levels-libclang/final-e4cf105/levels/results.json.gz"},
};

std::string describe(const reports::SceneText& text) {
  std::ostringstream out;
  out << '"' << text.text << "\" at (" << text.baseline.x_px << ", " << text.baseline.y_px << ")";
  if (text.rotation_deg != 0) out << " turned " << text.rotation_deg << " deg";
  return out.str();
}

std::vector<reports::SceneText> textsOf(const reports::ChartScene& scene) {
  std::vector<reports::SceneText> texts;
  for (const reports::SceneItem& item : scene.items) {
    if (const auto* text = std::get_if<reports::SceneText>(&item)) texts.push_back(*text);
  }
  return texts;
}

class ChartCraft : public ::testing::TestWithParam<SavedRun> {};

}  // namespace

TEST_P(ChartCraft, NoTwoLabelsOverlapAndAllStayOnTheCanvas) {
  const rooflab::ResultsDocument results = loadResults(kSourceDir / GetParam().path);
  // Also with the mutants' markers on (`--show-mutants`): labels keep off them too.
  for (const bool show_mutants : {false, true})
    for (const std::string& family : reports::familiesInRunOrder(results)) {
      const reports::ChartScene scene = reports::layoutRooflineChart(
          reports::buildRooflineChart(results, family, reports::ChartOptions{show_mutants}));
      const std::vector<reports::SceneText> texts = textsOf(scene);
      ASSERT_GT(texts.size(), 10u) << family;
      std::vector<reports::TextFootprint> footprints;
      for (const reports::SceneText& text : texts) footprints.push_back(reports::textFootprint(text));
      for (std::size_t a = 0; a < texts.size(); ++a) {
        for (const reports::PixelPoint& corner : footprints[a].corners) {
          EXPECT_TRUE(corner.x_px >= 0 && corner.x_px <= scene.width_px && corner.y_px >= 0 &&
                      corner.y_px <= scene.height_px)
              << family << ": " << describe(texts[a]) << " leaves the canvas";
        }
        for (std::size_t b = a + 1; b < texts.size(); ++b) {
          EXPECT_FALSE(reports::footprintsOverlap(footprints[a], footprints[b]))
              << family << ": " << describe(texts[a]) << " overlaps " << describe(texts[b]);
        }
      }
    }
}

// The device's roofs always keep a label; a reference roof's label is left out where markers and
// other labels leave it no free place (its line style and the legend still name it).
TEST_P(ChartCraft, EveryRoofOfTheDeviceHasItsLabel) {
  const rooflab::ResultsDocument results = loadResults(kSourceDir / GetParam().path);
  for (const std::string& family : reports::familiesInRunOrder(results)) {
    const reports::RooflineChart chart = reports::buildRooflineChart(results, family);
    const std::vector<reports::SceneText> texts = textsOf(reports::layoutRooflineChart(chart));
    for (const reports::Ceiling& ceiling : chart.ceilings) {
      if (chart.models[ceiling.model_index].role != reports::ModelRole::measured_device) continue;
      const bool labelled = std::any_of(texts.begin(), texts.end(), [&](const reports::SceneText& text) {
        return text.text == ceiling.label || text.text == ceiling.short_label;
      });
      EXPECT_TRUE(labelled) << family << ": no label for " << ceiling.label;
    }
  }
}

TEST_P(ChartCraft, EveryVariantsWholeNameIsInTheLegendAndItsTooltips) {
  const rooflab::ResultsDocument results = loadResults(kSourceDir / GetParam().path);
  for (const std::string& family : reports::familiesInRunOrder(results)) {
    const reports::RooflineChart chart = reports::buildRooflineChart(results, family);
    const reports::ChartScene scene = reports::layoutRooflineChart(chart);
    std::map<std::size_t, std::string> legend_names;
    std::map<std::size_t, std::set<std::string>> tooltip_heads;
    for (const reports::SceneItem& item : scene.items) {
      if (const auto* text = std::get_if<reports::SceneText>(&item); text && text->series && text->series->legend) {
        legend_names[text->series->series_index] += text->text;
      }
      if (const auto* marker = std::get_if<reports::SceneMarker>(&item);
          marker && marker->series && !marker->series->legend && !marker->tooltip.empty()) {
        tooltip_heads[marker->series->series_index].insert(marker->tooltip.front());
      }
    }
    for (std::size_t index = 0; index < chart.series.size(); ++index) {
      const std::string& variant = chart.series[index].variant;
      EXPECT_EQ(legend_names[index], variant) << family;
      EXPECT_EQ(tooltip_heads[index], std::set<std::string>{family + " / " + variant}) << family;
      EXPECT_EQ(legend_names[index].find("…"), std::string::npos) << family;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SavedRuns, ChartCraft, ::testing::ValuesIn(kSavedRuns),
                         [](const ::testing::TestParamInfo<SavedRun>& info) { return std::string(info.param.name); });

TEST(ChartCraft, EveryMatmulRungHasItsOwnColourAndShape) {
  for (const SavedRun& run : kSavedRuns) {
    const reports::RooflineChart chart = reports::buildRooflineChart(loadResults(kSourceDir / run.path), "matmul");
    ASSERT_EQ(chart.series.size(), 10u) << run.name;
    const reports::ChartScene scene = reports::layoutRooflineChart(chart);
    // Per variant, the (colour, shape) of its markers; on a hierarchical chart the shape says the
    // level, so the colour alone must tell the variants apart.
    std::map<std::size_t, std::set<std::tuple<int, int, int, int>>> looks;
    for (const reports::SceneItem& item : scene.items) {
      const auto* marker = std::get_if<reports::SceneMarker>(&item);
      if (!marker || !marker->series || marker->series->legend) continue;
      const int shape = chart.hierarchical ? -1 : static_cast<int>(marker->shape);
      looks[marker->series->series_index].insert({marker->fill.red, marker->fill.green, marker->fill.blue, shape});
    }
    ASSERT_EQ(looks.size(), 10u) << run.name;
    std::set<std::tuple<int, int, int, int>> seen;
    for (const auto& [index, variant_looks] : looks) {
      EXPECT_EQ(variant_looks.size(), 1u) << run.name << " " << chart.series[index].variant;
      EXPECT_TRUE(seen.insert(*variant_looks.begin()).second)
          << run.name << ": " << chart.series[index].variant << " looks like an earlier rung";
    }
  }
  // The palette and shapes in ladder order: deterministic and distinct far beyond 10 rungs.
  std::set<std::tuple<int, int, int, int>> combinations;
  for (std::size_t index = 0; index < 72; ++index) {
    const reports::Rgb color = reports::seriesColor(index);
    combinations.insert({color.red, color.green, color.blue, static_cast<int>(reports::seriesShape(index))});
  }
  EXPECT_EQ(combinations.size(), 72u);
}

TEST(ChartCraft, NamesWrapAtSeparatorsWithinTheWidth) {
  const double font = 20, width = 200;
  const std::vector<std::string> lines = reports::wrappedToWidth("tiled32_2pt_transposed_unpadded", font, width);
  ASSERT_GE(lines.size(), 2u);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(reports::estimatedTextWidthPx(line, font), width) << line;
    joined += line;
  }
  EXPECT_EQ(joined, "tiled32_2pt_transposed_unpadded");
  EXPECT_EQ(lines.front().back(), '_');
  EXPECT_EQ(reports::wrappedToWidth("naive", font, width), std::vector<std::string>{"naive"});
}

TEST(ChartCraft, OverlapTestSeesTurnedLabels) {
  reports::SceneText flat{"DRAM 24.79 GB/s", {100, 100}, 20, false, reports::TextAlign::start, 0, {}, std::nullopt};
  reports::SceneText turned = flat;
  turned.rotation_deg = -45;
  turned.baseline = {100, 140};
  EXPECT_TRUE(reports::footprintsOverlap(reports::textFootprint(flat), reports::textFootprint(turned)));
  turned.baseline = {100, 400};
  EXPECT_FALSE(reports::footprintsOverlap(reports::textFootprint(flat), reports::textFootprint(turned)));
  reports::SceneText below = flat;
  below.baseline.y_px += 20;  // 0.2 em under the first's baseline: edges touch, glyphs do not
  EXPECT_FALSE(reports::footprintsOverlap(reports::textFootprint(flat), reports::textFootprint(below)));
}

// The page works without a network: one inline script, no URL that would be fetched, and a toggle
// per variant bound to the SVG items of that variant.
TEST(ChartCraft, HtmlZoomAndVariantFilterAreInlineAndBoundToEachVariant) {
  const rooflab::ResultsDocument results =
      loadResults(kSourceDir / "tests/fixtures/report-golden/pocl-default/input.json");
  const std::string html = reports::renderHtmlReport(results);
  const std::regex fetched(R"((src|href)\s*=\s*"(https?:)?//|url\(|<link|import\s*\(|fetch\()");
  EXPECT_FALSE(std::regex_search(html, fetched));
  const std::size_t script_start = html.find("<script id=\"chart-controls\">");
  ASSERT_NE(script_start, std::string::npos);
  const std::string script = html.substr(script_start, html.find("</script>", script_start) - script_start);
  EXPECT_EQ(script.find("http"), std::string::npos);
  EXPECT_NE(script.find("viewBox"), std::string::npos);

  for (const std::string& family : reports::familiesInRunOrder(results)) {
    const reports::RooflineChart chart = reports::buildRooflineChart(results, family);
    const std::size_t svg_start = html.find("data-family=\"" + family + "\"");
    ASSERT_NE(svg_start, std::string::npos) << family;
    const std::size_t figure_end = html.find("</figure>", svg_start);
    const std::string figure = html.substr(svg_start, figure_end - svg_start);
    EXPECT_NE(figure.find("data-zoom=\"reset\""), std::string::npos) << family;
    for (std::size_t index = 0; index < chart.series.size(); ++index) {
      const std::string tag = "data-series=\"" + std::to_string(index) + "\"";
      EXPECT_NE(figure.find("<input type=\"checkbox\" checked " + tag + ">"), std::string::npos) << family << index;
      EXPECT_NE(figure.find("<g class=\"point\" tabindex=\"0\" " + tag + ">"), std::string::npos) << family << index;
      EXPECT_NE(figure.find("data-legend=\"" + std::to_string(index) + "\""), std::string::npos) << family << index;
      EXPECT_NE(figure.find("> " + chart.series[index].variant + "</label>"), std::string::npos) << family << index;
    }
  }
}
