// The reports of sizes and tuning from typed results, no device: a family's rate against its size
// (the half-plateau size interpolated on log-log axes, the roofs and the launch floor on the chart),
// a tuning search's CSV, chart and HTML section, and the JSON edge of what both add to the results.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "analyzer/json/results_json.hpp"
#include "reports/chart/rate_vs_size_chart.hpp"
#include "reports/chart/tuning_chart.hpp"
#include "reports/html/html_report.hpp"
#include "reports/text/size_choice_text.hpp"
#include "reports/text/size_response.hpp"
#include "reports/text/tuning_text.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

// A record of family "f", `variant`, at N = size, `bytes_per_ns` GB/s of 12 N bytes.
RunRecord sized(const std::string& variant, double size, double gbps) {
  RunRecord r;
  r.family = "f";
  r.variant = variant;
  r.params = {{"N", size}};
  r.param_order = {"N"};
  r.work.flops = size;
  r.work.bytes = 12 * size;
  EventTimings timings;
  timings.kernel_ns.median = r.work.bytes / gbps;
  timings.kernel_ns.min = timings.kernel_ns.max = timings.kernel_ns.median;
  timings.kernel_ns.count = 10;
  r.timings = timings;
  return r;
}

ResultsDocument sweep() {
  ResultsDocument d;
  DeviceModel device;
  device.key = "device";
  device.display_name = "test device";
  device.peak_gflops = 1000;
  device.dram_gbps = 20;
  d.models.roofline_models["device"] = {device, RooflineModelRole::measured};
  const double rates[] = {1, 4, 9, 9.5};
  for (int i = 0; i < 4; ++i) d.records.push_back(sized("a", std::pow(10.0, 3 + i), rates[i]));
  d.records.push_back(sized("b", 1e3, 5));
  d.records.push_back(sized("b", 1e4, 6));
  d.records.push_back(sized("b", 1e5, 7));
  d.launch_floor_ns = 2000;
  return d;
}

TEST(RateVsSize, EachVariantsHalfPlateauSizeIsInterpolatedOnLogLogAxes) {
  const AnalysedResults results = sweep();  // the response points into its records
  const std::optional<reports::SizeResponse> response = reports::sizeResponse(results, "f");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->param, "N");
  EXPECT_EQ(response->unit, "GB/s");  // 1/12 FLOP per byte, far below the device's ridge of 50
  ASSERT_EQ(response->series.size(), 2u);
  const reports::SizeSeries& a = response->series[0];
  EXPECT_EQ(a.plateau_rate, 9.5);
  // Half of 9.5 lies between 4 GB/s at 1e4 and 9 at 1e5: 1e4 x 10^(ln(4.75/4) / ln(9/4)).
  ASSERT_TRUE(a.half_plateau_size);
  EXPECT_NEAR(*a.half_plateau_size, 1e4 * std::pow(10.0, std::log(4.75 / 4) / std::log(9.0 / 4)), 1);
  EXPECT_FALSE(a.half_below_range);
  EXPECT_FALSE(a.still_rising);  // 9 -> 9.5 is under 10%
  const reports::SizeSeries& b = response->series[1];
  EXPECT_TRUE(b.half_below_range);  // 5 of a plateau of 7 at the smallest size
  EXPECT_TRUE(b.still_rising);      // 6 -> 7: 17%

  std::ostringstream csv;
  reports::writeSizeResponseCsv(*response, csv);
  EXPECT_TRUE(contains(csv.str(), "a,,N,1000,1,GB/s,12000,9.5,")) << csv.str();

  const reports::RooflineChart chart = reports::buildRateVsSizeChart(results, *response);
  EXPECT_TRUE(chart.join_series);
  EXPECT_EQ(chart.points.size(), 7u);
  EXPECT_EQ(chart.marks.size(), 2u);
  bool roof = false, floor = false;
  for (const reports::Ceiling& c : chart.ceilings) {
    roof = roof || (c.kind == reports::CeilingKind::dram_bandwidth && c.from.gflops == 20);
    floor = floor || (c.kind == reports::CeilingKind::launch_floor && !c.label.empty());
  }
  EXPECT_TRUE(roof) << "the DRAM roof, 20 GB/s at every size";
  EXPECT_TRUE(floor) << "the launch floor, labelled once";
  const std::string html = reports::renderHtmlReport(sweep());
  EXPECT_TRUE(contains(html, "<h3>Rate against size</h3>"));
  EXPECT_TRUE(contains(html, "still rising at the largest size"));
}

TEST(RateVsSize, OneSizePerVariantDrawsNoChart) {
  ResultsDocument d = sweep();
  d.records.resize(1);
  const AnalysedResults analysed(d);
  EXPECT_FALSE(reports::sizeResponse(analysed, "f"));
  EXPECT_FALSE(contains(reports::renderHtmlReport(d), "Rate against size"));
}

TuningResult search() {
  TuningResult t;
  t.family = "f";
  t.variant = "v";
  t.params = {{"N", 4096}};
  t.param_order = {"N"};
  t.searcher = TuneSearcher::guided;
  t.dimensions = {{"WG", "param", {64, 128}}, {"VPI", "define", {1, 2}}};
  t.configurations = {
      {{64, 1}, ConfigurationOutcome::ok, "", 1, false, 2000.0, 1950.0, 2050.0, 10.0},
      {{64, 2}, ConfigurationOutcome::ok, "", 2, true, 1000.0, 990.0, 1010.0, 20.0},
      {{128, 1}, ConfigurationOutcome::build_failed, "OpenCL build of k.cl failed: too many registers", 3},
      {{128, 2}, ConfigurationOutcome::invalid, "constraint 'WG*VPI <= 128' is false"}};
  t.valid = 3;
  t.evaluations = 3;
  t.best = 1;
  t.baseline = 0;
  t.rate_unit = "GB/s";
  t.roof_rate = 25;
  t.stop_reason = "every valid configuration was tried";
  t.tuned_variant = "v_tuned";
  t.manifest_snippet = "[[variants]]\nname = \"v_tuned\"\n";
  return t;
}

TEST(TuningReports, TheSpaceIsDataAChartAndASection) {
  std::ostringstream csv;
  reports::writeTuningCsv(search(), csv);
  EXPECT_TRUE(
      contains(csv.str(), "WG,VPI,outcome,order,resumed,median_ns,lower_ns,upper_ns,rate,rate_unit,best,reason\r\n"));
  EXPECT_TRUE(contains(csv.str(), "64,2,ok,2,1,1000,990,1010,20,GB/s,1,\r\n")) << csv.str();
  EXPECT_TRUE(contains(csv.str(), "128,2,invalid,,0,,,,,GB/s,0,constraint 'WG*VPI <= 128' is false")) << csv.str();

  std::ostringstream summary;
  reports::printTuningSummary(search(), summary);
  EXPECT_TRUE(contains(summary.str(), "best WG=64 VPI=2: 1.00 µs")) << summary.str();
  EXPECT_TRUE(contains(summary.str(), "80.0% of the roof")) << summary.str();
  EXPECT_TRUE(contains(summary.str(), "3 of 3 valid configurations run (4 in the space, 1 failed)")) << summary.str();

  const reports::ChartScene scene = reports::layoutTuningChart(search());
  std::size_t best_markers = 0, failed_markers = 0;
  for (const reports::SceneItem& item : scene.items)
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item)) {
      best_markers += marker->shape == reports::MarkerShape::diamond;
      failed_markers += marker->shape == reports::MarkerShape::cross;
    }
  EXPECT_EQ(best_markers, 2u) << "the best, marked in each parameter's panel";
  EXPECT_EQ(failed_markers, 2u) << "the build failure along the bottom of each panel; the invalid one is not drawn";

  ResultsDocument d;
  d.tuning.push_back(search());
  RunRecord tuned = sized("v_tuned", 4096, 20);
  tuned.family = "f";
  d.records.push_back(tuned);
  const std::string html = reports::renderHtmlReport(d);
  EXPECT_TRUE(contains(html, "<h3>Tuning v</h3>")) << "under its family";
  EXPECT_TRUE(contains(html, "name = &quot;v_tuned&quot;")) << "the manifest entry";
  EXPECT_TRUE(contains(html, "too many registers")) << "the failures";
}

TEST(TuningReports, SizeChoicesTuningAndTheLaunchFloorRoundTripThroughJson) {
  ResultsDocument d = sweep();
  d.tuning.push_back(search());
  SizeChoice choice;
  choice.family = "f";
  choice.rule.param = "N";
  choice.rule.sweep_from = 1024;
  choice.value = 3072;
  choice.values = {1024, 2048, 3072};
  choice.limited_by = SizeLimit::kernel_time;
  choice.estimated_kernel_us = 250;
  d.size_choices.push_back(choice);
  SizeChoice saved = choice;  // as an older rooflab wrote it: with its sentence
  saved.why_as_saved = "N = 3072 (size rule \"fill\"): as written";
  d.size_choices.push_back(saved);
  BatchConfig config;
  config.studies.push_back(StudySpec{});
  config.studies[0].family = "f";
  config.studies[0].size_rules.push_back(choice.rule);
  d.config = config;
  const nlohmann::json written = toJson(d);
  const ResultsDocument read = resultsDocumentFromJson(written);
  EXPECT_EQ(toJson(read), written);
  ASSERT_EQ(read.size_choices.size(), 2u);
  EXPECT_EQ(read.size_choices[0].limited_by, SizeLimit::kernel_time);
  EXPECT_FALSE(written.at("size_choices").at(0).contains("why"));  // the figures say it
  EXPECT_EQ(reports::sizeChoiceText(read.size_choices[0]), reports::sizeChoiceText(choice));
  EXPECT_NE(reports::sizeChoiceText(choice).find("kernel time: 250 µs"), std::string::npos)
      << reports::sizeChoiceText(choice);
  EXPECT_EQ(reports::sizeChoiceText(read.size_choices[1]), "N = 3072 (size rule \"fill\"): as written");
  ASSERT_EQ(read.tuning.size(), 1u);
  EXPECT_EQ(read.tuning[0].configurations[2].outcome, ConfigurationOutcome::build_failed);
  EXPECT_EQ(read.config->studies[0].size_rules.at(0).sweep_from, 1024);
  EXPECT_EQ(read.launch_floor_ns, 2000);
}

}  // namespace
}  // namespace rooflab::testing
