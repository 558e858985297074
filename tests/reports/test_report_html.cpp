// Renderers (reports/): every test reads the checked-in results fixtures, as `rooflab report`
// does; nothing here needs a device.
//
// This file: the fixtures, number formats, the chart and the HTML page.

#include "reports/reports_test_support.hpp"

// ---- fixtures ----

TEST(ReportFixtures, FollowTheResultsSchema) {
  for (const char* name : {kCpuFixture, kGpuFixture}) {
    const json results = loadFixture(name);
    EXPECT_NO_THROW(typed(results)) << name;
    ASSERT_TRUE(results["models"].contains("gtx670")) << name;
    ASSERT_TRUE(results["models"].contains("device")) << name;
    EXPECT_EQ(results["models"]["gtx670"]["role"], "reference") << name;
    EXPECT_EQ(reports::modelKeysInOrder(typed(results)).front(), "gtx670") << name;
    EXPECT_EQ(results["summary"]["points"], results["records"].size()) << name;
    for (const json& record : results["records"]) {
      for (const char* key : {"family", "variant", "mode", "params", "status", "error", "build", "geometry", "work",
                              "timings", "verification", "counters", "roofline", "mutation"}) {
        EXPECT_TRUE(record.contains(key)) << name << ": " << key;
      }
      if (record["status"] == "ok") {
        EXPECT_TRUE(record["roofline"].contains("gtx670") && record["roofline"].contains("device")) << name;
      }
    }
  }
}

TEST(ReportFixtures, GpuRunHasEveryModeMutationsAndBothKindsOfCounters) {
  const json results = loadFixture(kGpuFixture);
  std::set<std::string> modes;
  bool counters_available = false, counters_unavailable = false;
  for (const json& record : results["records"]) {
    modes.insert(record["mode"].get<std::string>());
    if (record["mode"] == "normal") {
      EXPECT_TRUE(record["mutation"].is_object()) << record["variant"];
    }
    (record["counters"]["available"].get<bool>() ? counters_available : counters_unavailable) = true;
  }
  EXPECT_EQ(modes, (std::set<std::string>{"normal", "compute-only", "memory-only"}));
  EXPECT_TRUE(counters_available);
  EXPECT_TRUE(counters_unavailable);
}

// ---- number formatting ----

TEST(ReportNumbers, FormatsForPeople) {
  EXPECT_EQ(reports::formatDurationNs(812), "812 ns");
  EXPECT_EQ(reports::formatDurationNs(61011), "61.0 µs");
  EXPECT_EQ(reports::formatDurationNs(1234567), "1.23 ms");
  EXPECT_EQ(reports::formatDurationNs(2.5e9), "2.50 s");
  EXPECT_EQ(reports::formatRate(20413.3), "20413");
  EXPECT_EQ(reports::formatRate(231.634), "231.6");
  EXPECT_EQ(reports::formatRate(7.219), "7.22");
  EXPECT_EQ(reports::formatRate(0.01234), "0.0123");
  EXPECT_EQ(reports::formatSpeedup(2.345), "2.35×");  // to_chars rounds the binary value 2.34499...
  EXPECT_EQ(reports::formatPercent(0.832), "83.2%");
  EXPECT_EQ(rooflab::formatRoundTrip(0.1), "0.1");
  EXPECT_EQ(rooflab::formatRoundTrip(1048576), "1048576");
  // Report fields take the shortest form of whole numbers too; messages and keys spell them out.
  EXPECT_EQ(rooflab::formatRoundTrip(1e6), "1e+06");
  EXPECT_EQ(rooflab::formatNumber(1e6), "1000000");
  EXPECT_EQ(rooflab::formatRoundTrip(-0.0), "0");
  EXPECT_EQ(rooflab::formatRoundTrip(std::nan("")), "");
  EXPECT_EQ(reports::decadeTickLabel(0.01), "0.01");
  EXPECT_EQ(reports::decadeTickLabel(1e5), "100000");
  EXPECT_EQ(reports::decadeTickLabel(1e6), "10⁶");
  EXPECT_EQ(reports::decadeTickLabel(1e-4), "10⁻⁴");
}

// ---- chart geometry, shared by the SVG and the PNG ----

TEST(ReportChart, PlacesEveryNormalVariantUnderBothModelsRoofs) {
  const json results = loadFixture(kGpuFixture);
  const reports::RooflineChart chart = reports::buildRooflineChart(typed(results), "matmul");
  ASSERT_EQ(chart.models.size(), 2u);
  EXPECT_EQ(chart.models[0].role, reports::ModelRole::reference);
  EXPECT_EQ(chart.models[1].role, reports::ModelRole::measured_device);
  EXPECT_EQ(chart.points.size(), 6u);  // 3 variants x 2 sizes, normal mode only
  EXPECT_EQ(chart.series.size(), 3u);
  EXPECT_TRUE(chart.unplaced.empty());

  std::map<std::pair<std::size_t, reports::CeilingKind>, int> ceilings;
  for (const reports::Ceiling& ceiling : chart.ceilings) ceilings[{ceiling.model_index, ceiling.kind}]++;
  for (std::size_t model = 0; model < 2; ++model) {
    // matmul declares local accesses: the local roof is drawn for both models.
    for (auto kind : {reports::CeilingKind::dram_bandwidth, reports::CeilingKind::fp32_peak,
                      reports::CeilingKind::local_bandwidth}) {
      EXPECT_EQ((ceilings[{model, kind}]), 1) << model;
    }
  }
  for (const reports::Ceiling& ceiling : chart.ceilings) {
    EXPECT_NE(ceiling.label.find(ceiling.kind == reports::CeilingKind::fp32_peak ? "GFLOP/s" : "GB/s"),
              std::string::npos);
    EXPECT_GE(ceiling.from.intensity_flop_per_byte, chart.x_axis.min_value * 0.999);
    EXPECT_LE(ceiling.to.intensity_flop_per_byte, chart.x_axis.max_value * 1.001);
  }
  for (const reports::VariantPoint& point : chart.points) {
    EXPECT_GT(point.at.intensity_flop_per_byte, chart.x_axis.min_value);
    EXPECT_LT(point.at.intensity_flop_per_byte, chart.x_axis.max_value);
    EXPECT_GT(point.at.gflops, chart.y_axis.min_value);
    EXPECT_LT(point.at.gflops, chart.y_axis.max_value);
  }
  for (double tick : chart.y_axis.decade_ticks) {
    EXPECT_NEAR(std::log10(tick), std::round(std::log10(tick)), 1e-9);
  }
  EXPECT_GE(chart.x_axis.decade_ticks.size(), 2u);
}

TEST(ReportChart, WorkWithoutFlopsIsListedNotPlaced) {
  const json results = loadFixture(kGpuFixture);
  const reports::RooflineChart chart = reports::buildRooflineChart(typed(results), "transpose");
  EXPECT_TRUE(chart.points.empty());
  EXPECT_EQ(chart.unplaced.size(), 2u);
  const reports::RooflineChart cpu_matmul = reports::buildRooflineChart(typed(loadFixture(kCpuFixture)), "matmul");
  ASSERT_EQ(cpu_matmul.unplaced.size(), 1u);  // vec4 N=512 did not build
  EXPECT_EQ(cpu_matmul.unplaced[0].variant, "vec4");
  EXPECT_NE(cpu_matmul.unplaced[0].reason.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
}

TEST(ReportChart, SvgDrawsEveryScenePoint) {
  const json results = loadFixture(kGpuFixture);
  const reports::ChartScene scene = reports::layoutRooflineChart(reports::buildRooflineChart(typed(results), "matmul"));
  std::size_t points_with_tooltip = 0;
  for (const reports::SceneItem& item : scene.items) {
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item); marker && !marker->tooltip.empty()) {
      ++points_with_tooltip;
    }
  }
  EXPECT_EQ(points_with_tooltip, 6u);
  const std::string svg = reports::renderSvgChart(scene, "matmul");
  EXPECT_EQ(countOccurrences(svg, "<g class=\"point\""), points_with_tooltip);
  EXPECT_EQ(countOccurrences(svg, "<title>"), points_with_tooltip);
}

// ---- HTML ----

TEST(ReportHtml, OneRooflineSvgPerFamilyAndEveryVariant) {
  for (const char* name : {kCpuFixture, kGpuFixture}) {
    const json results = loadFixture(name);
    const std::string html = reports::renderHtmlReport(typed(results));
    const std::vector<std::string> families = reports::familiesInRunOrder(typed(results));
    EXPECT_EQ(countOccurrences(html, "<svg class=\"roofline\""), families.size()) << name;
    for (const std::string& family : families) {
      EXPECT_EQ(countOccurrences(html, "data-family=\"" + family + "\""), 1u) << name << " " << family;
    }
    for (const json& record : results["records"]) {
      EXPECT_NE(html.find("<td>" + record["variant"].get<std::string>() + "</td>"), std::string::npos)
          << name << " " << record["variant"];
    }
  }
}

TEST(ReportHtml, SelfContained) {
  const std::string html = reports::renderHtmlReport(typed(loadFixture(kGpuFixture)));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // One inline script, the charts' zoom and filter (reports/html_chart_controls.cpp); nothing loaded.
  EXPECT_EQ(countOccurrences(html, "<script"), 1u);
  EXPECT_EQ(countOccurrences(html, "<script id=\"chart-controls\">"), 1u);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  // The only absolute URL is the SVG namespace, which is a name, not a fetch.
  EXPECT_EQ(countOccurrences(html, "http://") + countOccurrences(html, "https://"),
            countOccurrences(html, "xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(ReportHtml, ShowsErrorsStepsVerificationMutationsAndCounters) {
  const json cpu = loadFixture(kCpuFixture);
  const std::string cpu_html = reports::renderHtmlReport(typed(cpu));
  // The build error is shown whole, escaped: it holds '<', '>', '&' and quotes.
  EXPECT_NE(cpu_html.find("CL_BUILD_PROGRAM_FAILURE (-11)"), std::string::npos);
  EXPECT_NE(cpu_html.find("float4 Asub[TS][N/4] &amp; &lt;__local&gt;"), std::string::npos);
  EXPECT_EQ(cpu_html.find("<__local>"), std::string::npos);
  EXPECT_NE(cpu_html.find("FAILED (rel. err 0.41"), std::string::npos);
  EXPECT_NE(cpu_html.find("Counters unavailable: not an NVIDIA device"), std::string::npos);
  // Step of tiled16 over naive at N=512, and gain of tiled_wpt over naive.
  const double naive_ns = cpu["records"][10]["timings"]["kernel_ns"]["median"];
  const double tiled_ns = cpu["records"][11]["timings"]["kernel_ns"]["median"];
  const double wpt_ns = cpu["records"][12]["timings"]["kernel_ns"]["median"];
  ASSERT_EQ(cpu["records"][11]["variant"], "tiled16");
  EXPECT_NE(cpu_html.find(">" + reports::formatSpeedup(naive_ns / tiled_ns) + "<"), std::string::npos);
  EXPECT_NE(cpu_html.find(">" + reports::formatSpeedup(naive_ns / wpt_ns) + "<"), std::string::npos);

  const std::string gpu_html = reports::renderHtmlReport(typed(loadFixture(kGpuFixture)));
  for (const char* verdict : {"memory-bound", "compute-bound", "latency-bound", "balanced", "memory-leaning",
                              "overhead-dominated", "unknown"}) {
    EXPECT_NE(gpu_html.find(std::string("verdict-") + verdict), std::string::npos) << verdict;
  }
  EXPECT_NE(gpu_html.find("if memory traffic were free"), std::string::npos);
  EXPECT_NE(gpu_html.find("dram__bytes_read.sum"), std::string::npos);
  EXPECT_NE(gpu_html.find("the PTX bridge profiles single-launch variants only"), std::string::npos);
  EXPECT_NE(gpu_html.find("global memory sectors (load + store)"), std::string::npos);
  EXPECT_NE(gpu_html.find("Measured ceilings"), std::string::npos);
  EXPECT_NE(gpu_html.find("padded local memory 53248 B &gt; CL_DEVICE_LOCAL_MEM_SIZE"), std::string::npos);
  EXPECT_NE(gpu_html.find("H100 SXM5 80GB"), std::string::npos);
  EXPECT_NE(gpu_html.find("bench/configs/h100-modes.toml"), std::string::npos);
  EXPECT_NE(cpu_html.find("pattern &#39;tiled64*&#39; matches no variant"), std::string::npos);
}

TEST(ReportHtml, EscapesNamesFromTheResults) {
  json results = loadFixture(kCpuFixture);
  results["records"][0]["variant"] = "<script>alert('x')</script>";
  results["records"][0]["family"] = "fam\"ily<";
  const std::string html = reports::renderHtmlReport(typed(results));
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("data-family=\"fam&quot;ily&lt;\""), std::string::npos);
}

TEST(ReportHtml, InterruptedRunSaysSo) {
  json results = loadFixture(kCpuFixture);
  results["status"] = "interrupted";
  results["records"].erase(results["records"].begin() + 5, results["records"].end());
  const std::string html = reports::renderHtmlReport(typed(results));
  EXPECT_NE(html.find("<strong>interrupted</strong>"), std::string::npos);
  EXPECT_EQ(countOccurrences(html, "<svg class=\"roofline\""), 1u);
}

TEST(ReportHtml, SparseDocumentsStillRender) {
  // An interrupted or hand-made document: no models, no config, records missing most fields.
  const json sparse = {
      {"schema", 1},
      {"records",
       {{{"family", "f"}, {"variant", "v"}, {"mode", "normal"}, {"status", "ok"}},
        {{"family", "f"}, {"variant", "w"}, {"status", "error"}, {"error", nullptr}},
        {{"family", "g"}, {"variant", "v"}, {"timings", nullptr}, {"roofline", {{"device", nullptr}}}}}}};
  ScratchDir out;
  EXPECT_NO_THROW(reports::writeReports(typed(sparse), out.path(), reports::knownReportFormats()));
  const std::string html = reports::renderHtmlReport(typed(sparse));
  EXPECT_EQ(countOccurrences(html, "<svg class=\"roofline\""), 2u);
  EXPECT_EQ(parseCsv(csvText(sparse)).size(), 4u);
  EXPECT_NE(terminalText(sparse).find("3 records"), std::string::npos);
  EXPECT_NO_THROW(rooflab::compareRuns(typed(sparse), typed(sparse)));
  EXPECT_THROW(reports::writeReports(typed(json{{"schema", 1}, {"records", {1, 2}}}), out.path(), {"csv"}),
               std::invalid_argument);
}