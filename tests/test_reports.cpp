// Renderers (reports/): every test reads the checked-in results fixtures, as `rooflab report`
// does; nothing here needs a device.
#include <gtest/gtest.h>

#include <unistd.h>
#ifdef ROOFLAB_HAVE_CAIRO
#include <cairo.h>
#include <dlfcn.h>
#endif

#include <algorithm>
#include <clocale>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <locale>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/support/format.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/text/diff_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/text/number_format.hpp"
#include "reports/chart/png_report.hpp"
#include "reports/report_writer.hpp"
#include "reports/text/results_order.hpp"
#include "reports/chart/roofline_chart.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/text/terminal_report.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
namespace reports = rooflab::reports;

namespace {

#ifdef ROOFLAB_HAVE_CAIRO
// cairo and fontconfig keep font caches for the life of the process; freed here so that sanitizer
// builds (ROOFLAB_SANITIZE, ROOFLAB_FUZZ) do not report them as leaks. FcFini is looked up rather
// than linked: the tests link cairo, which brings fontconfig, but not fontconfig itself.
class CairoStaticData : public ::testing::Environment {
 public:
  void TearDown() override {
    cairo_debug_reset_static_data();
    if (auto fontconfig_fini = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "FcFini"))) fontconfig_fini();
  }
};
[[maybe_unused]] ::testing::Environment* const kCairoStaticData =
    ::testing::AddGlobalTestEnvironment(new CairoStaticData);
#endif

const fs::path kFixtureDir = ROOFLAB_SOURCE_DIR "/tests/fixtures/results";
const char* const kCpuFixture = "cpu-pocl-small.json";
const char* const kGpuFixture = "gpu-h100-modes.json";

// Reporters take typed results. The tests read and doctor JSON, and hand it to them through the
// JSON edge, as `rooflab report` does with a file.
rooflab::ResultsDocument typed(const json& results) { return rooflab::resultsDocumentFromJson(results); }

// A results document as this rooflab writes it. The fixtures come from an older rooflab (fields added
// since, rates computed in another order of operations: tests/test_results_json.cpp), so a test that
// compares a report with the values of the file it was rendered from compares with these.
json asWritten(const json& results) { return rooflab::toJson(typed(results)); }

json loadFixture(const std::string& name) {
  std::ifstream in(kFixtureDir / name);
  if (!in) throw std::runtime_error("missing fixture " + (kFixtureDir / name).string());
  return json::parse(in);
}

// A fresh folder per test, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("rooflab-reports-" + std::string(test->test_suite_name()) + "-" + test->name() + "-" +
             std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::size_t countOccurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks; rows end in CRLF.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
      ++i;
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(field.empty() && row.empty()) << "last row does not end in CRLF";
  return rows;
}

std::string csvText(const json& results) {
  std::ostringstream csv;
  reports::writeCsv(typed(results), csv);
  return csv.str();
}

std::string terminalText(const json& results) {
  std::ostringstream out;
  reports::printTerminalSummary(typed(results), out);
  return out.str();
}

json* findRecord(json& results, const std::string& family, const std::string& variant, const std::string& mode,
                 std::int64_t n) {
  for (json& record : results["records"]) {
    if (record["family"] == family && record["variant"] == variant && record["mode"] == mode &&
        record["params"]["N"] == n) {
      return &record;
    }
  }
  return nullptr;
}

}  // namespace

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
  const json sparse = {{"schema", 1},
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
  EXPECT_NO_THROW(reports::diffResults(typed(sparse), typed(sparse)));
  EXPECT_THROW(reports::writeReports(typed(json{{"schema", 1}, {"records", {1, 2}}}), out.path(), {"csv"}),
               std::invalid_argument);
}

// ---- PNG ----

TEST(ReportPng, OneReadable1600x1000ImagePerFamily) {
#ifndef ROOFLAB_HAVE_CAIRO
  GTEST_SKIP() << "built without cairo: no PNG reports";
#else
  ScratchDir out;
  const json results = loadFixture(kGpuFixture);
  const std::vector<fs::path> written = reports::writePngReports(typed(results), out.path());
  ASSERT_EQ(written.size(), reports::familiesInRunOrder(typed(results)).size());
  for (const std::string& family : reports::familiesInRunOrder(typed(results))) {
    const fs::path file = out.path() / ("roofline-" + family + ".png");
    ASSERT_TRUE(fs::exists(file)) << file;
    cairo_surface_t* image = cairo_image_surface_create_from_png(file.c_str());
    ASSERT_EQ(cairo_surface_status(image), CAIRO_STATUS_SUCCESS) << file;
    EXPECT_EQ(cairo_image_surface_get_width(image), 1600);
    EXPECT_EQ(cairo_image_surface_get_height(image), 1000);
    cairo_surface_destroy(image);
  }
#endif
}

TEST(ReportPng, FileNamesStayInTheOutputFolder) {
#ifndef ROOFLAB_HAVE_CAIRO
  GTEST_SKIP() << "built without cairo: no PNG reports";
#else
  EXPECT_EQ(reports::rooflinePngFileName("matmul"), "roofline-matmul.png");
  EXPECT_EQ(reports::rooflinePngFileName("../../etc/x"), "roofline-.._.._etc_x.png");
  EXPECT_EQ(reports::rooflinePngFileName(".."), "roofline-_...png");
#endif
}

// ---- CSV ----

TEST(ReportCsv, OneRowPerRecordThatParsesBack) {
  for (const char* name : {kCpuFixture, kGpuFixture}) {
    const json results = asWritten(loadFixture(name));
    const auto rows = parseCsv(csvText(results));
    ASSERT_EQ(rows.size(), results["records"].size() + 1) << name;
    const std::vector<std::string> header = reports::csvHeader(typed(results));
    EXPECT_EQ(rows[0], header);
    for (const char* column : {"gtx670_intensity", "gtx670_attainable_gflops", "gtx670_fraction_of_roof",
                               "gtx670_bound", "device_intensity", "device_bound"}) {
      EXPECT_NE(std::find(header.begin(), header.end(), column), header.end()) << column;
    }
    if (std::string(name) == kGpuFixture) {
      EXPECT_NE(std::find(header.begin(), header.end(), "device_counters_intensity"), header.end());
      EXPECT_NE(std::find(header.begin(), header.end(), "datasheet_bound"), header.end());
    }
    EXPECT_EQ(std::find(header.begin(), header.end(), "ceilings_bound"), header.end());  // not a model
    auto column = [&](const std::string& title) {
      return static_cast<std::size_t>(std::find(header.begin(), header.end(), title) - header.begin());
    };
    for (std::size_t i = 0; i < results["records"].size(); ++i) {
      const json& record = results["records"][i];
      const auto& row = rows[i + 1];
      ASSERT_EQ(row.size(), header.size()) << name << " row " << i;
      EXPECT_EQ(row[column("family")], record["family"]);
      EXPECT_EQ(row[column("variant")], record["variant"]);
      EXPECT_EQ(row[column("mode")], record["mode"]);
      std::string params;
      for (const json& param : record["param_order"]) {
        params += (params.empty() ? "" : ";") + param.get<std::string>() + "=" +
                  std::to_string(record["params"][param.get<std::string>()].get<std::int64_t>());
      }
      EXPECT_EQ(row[column("params")], params);
      EXPECT_EQ(row[column("status")], record["status"]);
      EXPECT_EQ(row[column("error")], record["error"].is_string() ? record["error"].get<std::string>() : "");
      if (record["timings"].is_object()) {
        EXPECT_EQ(std::stod(row[column("median_ns")]), record["timings"]["kernel_ns"]["median"].get<double>());
        EXPECT_EQ(std::stod(row[column("gflops")]), record["timings"]["gflops"].get<double>());
        EXPECT_EQ(std::stod(row[column("device_fraction_of_roof")]),
                  record["roofline"]["device"]["fraction_of_roof"].get<double>());
      } else {
        EXPECT_EQ(row[column("median_ns")], "");
      }
    }
  }
}

// The batch will hand reporters typed results that never went through the JSON edge: unknown values
// are NaN or nullopt there, and infinities can occur. Reports show them all as unknown, as the file
// holds null for each.
TEST(ReportCsv, UnknownValuesOfATypedRecordAreEmptyFields) {
  rooflab::ResultsDocument results;
  rooflab::RunRecord record;
  record.family = "f";
  record.variant = "v";
  record.params = {{"N", 1024}};
  record.param_order = {"N"};
  record.work.flops = std::nan("");
  record.work.bytes = std::numeric_limits<double>::infinity();
  record.timings = rooflab::EventTimings{};
  record.timings->kernel_ns.median = std::nan("");
  rooflab::RooflinePlacement placement;
  placement.intensity = std::numeric_limits<double>::infinity();
  placement.fraction_of_roof = std::nan("");
  record.roofline["device"] = placement;
  results.records.push_back(record);

  const auto rows = parseCsv(csvText(rooflab::toJson(results)));
  ASSERT_EQ(rows.size(), 2u);
  std::ostringstream typed_csv;
  reports::writeCsv(results, typed_csv);
  const auto typed_rows = parseCsv(typed_csv.str());
  EXPECT_EQ(typed_rows, rows);  // the same as through the file
  const std::vector<std::string> header = reports::csvHeader(results);
  for (const char* column : {"median_ns", "gflops", "gbps", "flops", "bytes", "cgma", "device_intensity",
                             "device_fraction_of_roof"}) {
    const auto at = std::find(header.begin(), header.end(), column);
    ASSERT_NE(at, header.end()) << column;
    EXPECT_EQ(typed_rows[1][static_cast<std::size_t>(at - header.begin())], "") << column;
  }
  EXPECT_EQ(reports::renderHtmlReport(results), reports::renderHtmlReport(typed(rooflab::toJson(results))));
}

TEST(ReportCsv, QuotesPerRfc4180) {
  EXPECT_EQ(reports::csvField("plain"), "plain");
  EXPECT_EQ(reports::csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(reports::csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(reports::csvField("two\nlines"), "\"two\nlines\"");
}

// ---- JSON and the writer ----

// A file the current rooflab wrote (the fixtures above are older: read back, they gain the fields
// added since, with their defaults).
TEST(ReportWriter, JsonWrittenEqualsTheInput) {
  ScratchDir out;
  std::ifstream input(fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/h100-default/input.json");
  const json results = json::parse(input);
  reports::writeReports(typed(results), out.path() / "nested", {"json"});
  const fs::path written = out.path() / "nested" / "results.json";
  ASSERT_TRUE(fs::exists(written));
  std::ifstream in(written);
  EXPECT_EQ(json::parse(in), results);
  for (const auto& entry : fs::directory_iterator(out.path() / "nested")) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << "temporary file left behind";
  }
}

TEST(ReportWriter, WritesEveryKnownFormat) {
  ScratchDir out;
  const json results = loadFixture(kCpuFixture);
  reports::writeReports(typed(results), out.path(), reports::knownReportFormats());
  for (const char* file : {"report.html", "results.json", "results.csv"}) {
    EXPECT_TRUE(fs::exists(out.path() / file)) << file;
  }
#ifdef ROOFLAB_HAVE_CAIRO
  for (const char* file : {"roofline-vecadd.png", "roofline-matmul.png"}) {
    EXPECT_TRUE(fs::exists(out.path() / file)) << file;
  }
#endif
}

TEST(ReportWriter, UnknownFormatIsNamedAndNothingIsWritten) {
  ScratchDir out;
  const fs::path target = out.path() / "never";
  try {
    reports::writeReports(typed(loadFixture(kCpuFixture)), target, {"html", "pdf"});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("\"pdf\""), std::string::npos) << error.what();
  }
  EXPECT_FALSE(fs::exists(target));
}

// The writer gets typed results: what is not schema-1 results is turned away at the JSON edge.
TEST(ReportWriter, RejectsWhatIsNotSchema1Results) {
  ScratchDir out;
  EXPECT_THROW(reports::writeReports(typed(json{{"schema", 2}, {"records", json::array()}}), out.path(), {"csv"}),
               std::invalid_argument);
  EXPECT_THROW(reports::writeReports(typed(json::array()), out.path(), {"csv"}), std::invalid_argument);
}

// ---- terminal ----

TEST(ReportTerminal, OneLinePerRecordWithErrors) {
  const json results = loadFixture(kCpuFixture);
  const std::string text = terminalText(results);
  // Header, rule, one line per record, totals.
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), results["records"].size() + 3);
  EXPECT_NE(text.find("error: clBuildProgram: CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
  EXPECT_NE(text.find("FAILED (rel. err 0.41"), std::string::npos);
  EXPECT_NE(text.find("14 records: 13 ok, 1 error, 0 skipped, 2 failed verification"), std::string::npos);
  EXPECT_NE(text.find("diagnosis"), std::string::npos);  // the one bound column
}

// ---- locale ----

// google/benchmark's locale_impermeability_test, for every renderer: a German locale (decimal
// comma, '.' thousands grouping) must not change a byte.
TEST(ReportLocale, OutputIsTheSameUnderAGermanLocale) {
  const json results = loadFixture(kGpuFixture);
  json slower = results;
  slower["records"][0]["timings"]["kernel_ns"]["median"] = 1234567.0;
  auto renderAll = [&] {
    std::vector<std::string> outputs = {reports::renderHtmlReport(typed(results)), csvText(results), terminalText(results)};
    std::ostringstream diff;
    reports::printDiff(reports::diffResults(typed(results), typed(slower)), diff);
    outputs.push_back(diff.str());
#ifdef ROOFLAB_HAVE_CAIRO
    outputs.push_back(reports::renderPng(reports::layoutRooflineChart(reports::buildRooflineChart(typed(results), "matmul"))));
#endif
    return outputs;
  };
  const std::vector<std::string> in_c_locale = renderAll();

  const std::locale previous_global;
  std::locale german;
  bool found = false;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE"}) {
    try {
      german = std::locale(name);
      found = std::setlocale(LC_ALL, name) != nullptr;
    } catch (const std::runtime_error&) {
    }
    if (found) break;
  }
  if (!found) GTEST_SKIP() << "no de_DE locale installed (locale-gen de_DE.UTF-8 to run this test)";
  std::locale::global(german);
  std::setlocale(LC_ALL, german.name().c_str());
  const std::vector<std::string> in_german_locale = renderAll();
  std::ostringstream imbued;
  imbued.imbue(german);
  reports::printTerminalSummary(typed(results), imbued);
  std::locale::global(previous_global);
  std::setlocale(LC_ALL, "C");

  ASSERT_EQ(in_c_locale.size(), in_german_locale.size());
  for (std::size_t i = 0; i < in_c_locale.size(); ++i) EXPECT_TRUE(in_c_locale[i] == in_german_locale[i]) << "output " << i;
  EXPECT_EQ(imbued.str(), in_c_locale[2]);  // the terminal table
}

// ---- diff ----

namespace {

// A record `factor` times slower in every repetition, as a run of slower code would be: the
// repetitions are what `diff` tests, the summary and the rates follow them.
void slowDown(json& record, double factor) {
  json& timings = record["timings"];
  for (json& repetition : timings["repetitions"]) {
    repetition["kernel_ns"] = std::llround(repetition["kernel_ns"].get<double>() * factor);
  }
  for (const char* key : {"median", "min", "max"}) timings["kernel_ns"][key] = timings["kernel_ns"][key].get<double>() * factor;
  for (const char* key : {"gflops", "gbps"})
    if (timings.contains(key) && timings[key].is_number()) timings[key] = timings[key].get<double>() / factor;
}

const reports::RecordChange* changeOf(const reports::DiffResult& diff, const std::string& text) {
  for (const reports::RecordChange& change : diff.matched)
    if (change.key.text() == text) return &change;
  return nullptr;
}

std::string diffText(const reports::DiffResult& diff) {
  std::ostringstream out;
  reports::printDiff(diff, out);
  return out.str();
}

std::string lineWith(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

reports::DiffOptions minEffect(double min_effect) {
  reports::DiffOptions options;
  options.min_effect = min_effect;
  return options;
}

}  // namespace

TEST(ReportDiff, IdenticalRunsDoNotRegress) {
  const json results = loadFixture(kGpuFixture);
  const reports::DiffResult diff = reports::diffResults(typed(results), typed(results));
  EXPECT_FALSE(diff.regressed);
  EXPECT_FALSE(diff.refusal.has_value());
  EXPECT_EQ(diff.matched.size(), results["records"].size());
  EXPECT_TRUE(diff.added.empty());
  EXPECT_TRUE(diff.removed.empty());
  EXPECT_TRUE(diff.warnings.empty());
  EXPECT_EQ(diff.count(reports::RecordVerdict::regressed) + diff.count(reports::RecordVerdict::improved), 0u);
}

// The rule changed from "median slower by more than 10%" to a test on the repetitions and a
// minimum effect of 20%: the doctored copy now slows the repetitions down, not only the median.
TEST(ReportDiff, FindsARegressionInADoctoredCopy) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  json* tiled = findRecord(new_run, "matmul", "tiled16", "normal", 1024);
  ASSERT_NE(tiled, nullptr);
  slowDown(*tiled, 1.25);
  // 5% slower, with repetitions that do not overlap the old ones: significant, but under the default
  // minimum effect of 20%.
  slowDown(*findRecord(new_run, "matmul", "naive", "normal", 1024), 1.05);
  // One record gone, one new.
  json added = new_run["records"][0];
  added["params"]["N"] = 33554432;
  new_run["records"].erase(new_run["records"].begin() + 1);
  new_run["records"].push_back(added);

  const reports::DiffResult diff = reports::diffResults(typed(old_run), typed(new_run));
  EXPECT_TRUE(diff.regressed);
  std::vector<std::string> regressed;
  for (const reports::RecordChange& change : diff.matched)
    if (change.regressed) regressed.push_back(change.key.text());
  EXPECT_EQ(regressed, std::vector<std::string>{"matmul/tiled16 N=1024 (normal)"});
  const reports::RecordChange* tiled_change = changeOf(diff, "matmul/tiled16 N=1024 (normal)");
  ASSERT_NE(tiled_change, nullptr);
  ASSERT_TRUE(tiled_change->time_change.has_value());
  EXPECT_NEAR(*tiled_change->time_change, 0.25, 1e-5);
  ASSERT_TRUE(tiled_change->comparison.has_value());
  EXPECT_NEAR(tiled_change->comparison->p_value, 2.0 / 252, 1e-12);  // 5 + 5 that do not overlap: exact
  const reports::RecordChange* naive_change = changeOf(diff, "matmul/naive N=1024 (normal)");
  ASSERT_NE(naive_change, nullptr);
  EXPECT_EQ(naive_change->verdict, reports::RecordVerdict::unchanged_within_noise);
  EXPECT_LT(naive_change->comparison->p_value, 0.05);
  ASSERT_EQ(diff.added.size(), 1u);
  EXPECT_EQ(diff.added[0].params, "N=33554432, WG=256");
  ASSERT_EQ(diff.removed.size(), 1u);
  EXPECT_EQ(diff.removed[0].text(), "vecadd/global N=16777216, WG=256 (compute-only)");

  const std::string text = diffText(diff);
  // Each record shows its p-value and the ratio's interval beside the verdict.
  const std::string tiled_line = lineWith(text, "matmul/tiled16 N=1024 (normal)");
  EXPECT_NE(tiled_line.find("+25.0%"), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("1.250 ["), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("0.0079"), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("REGRESSED"), std::string::npos) << text;
  EXPECT_NE(lineWith(text, "matmul/naive N=1024 (normal)").find("unchanged within noise"), std::string::npos) << text;
  EXPECT_NE(text.find("new/old (95% interval)"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSED: 1 of " + std::to_string(diff.matched.size()) + " matched records"), std::string::npos);
  EXPECT_NE(text.find("(a change counts when p < 0.05 and the median moved by more than 20%)"), std::string::npos) << text;
  EXPECT_NE(text.find("added:   vecadd/global N=33554432, WG=256 (normal)"), std::string::npos);

  // A larger minimum effect lets the same change pass; a smaller one catches the 5% too.
  EXPECT_FALSE(reports::diffResults(typed(old_run), typed(new_run), minEffect(0.30)).regressed);
  EXPECT_EQ(reports::diffResults(typed(old_run), typed(new_run), minEffect(0.04)).count(reports::RecordVerdict::regressed), 2u);
}

TEST(ReportDiff, NewErrorsAndVerificationFailuresRegress) {
  const json old_run = loadFixture(kCpuFixture);
  json new_run = old_run;
  json* global = findRecord(new_run, "vecadd", "global", "normal", 1048576);
  (*global)["status"] = "error";
  (*global)["error"] = "clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES (-5)";
  (*global)["timings"] = nullptr;
  json* vec4 = findRecord(new_run, "vecadd", "vec4", "normal", 1048576);
  (*vec4)["verification"]["status"] = "failed";
  const reports::DiffResult diff = reports::diffResults(typed(old_run), typed(new_run));
  EXPECT_TRUE(diff.regressed);
  std::size_t regressions = 0;
  for (const auto& change : diff.matched) regressions += change.regressed;
  EXPECT_EQ(regressions, 2u);
  const std::string text = diffText(diff);
  EXPECT_NE(text.find("REGRESSED: ran before, now errors"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSED: now fails verification"), std::string::npos) << text;
  // The record that already failed verification in the old run is no news.
  EXPECT_FALSE(reports::diffResults(typed(old_run), typed(old_run)).regressed);
}

TEST(ReportDiff, FasterRepetitionsImprove) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  slowDown(*findRecord(new_run, "matmul", "tiled16", "normal", 1024), 0.5);
  const reports::DiffResult diff = reports::diffResults(typed(old_run), typed(new_run));
  EXPECT_FALSE(diff.regressed);
  EXPECT_EQ(diff.count(reports::RecordVerdict::improved), 1u);
  EXPECT_EQ(changeOf(diff, "matmul/tiled16 N=1024 (normal)")->verdict, reports::RecordVerdict::improved);
  const std::string text = diffText(diff);
  EXPECT_NE(lineWith(text, "matmul/tiled16 N=1024 (normal)").find("IMPROVED"), std::string::npos) << text;
  EXPECT_NE(lineWith(text, "matmul/tiled16 N=1024 (normal)").find("  0.0079  "), std::string::npos) << text;
  // The fixture's skipped and failed mutants are not compared.
  ASSERT_EQ(diff.count(reports::RecordVerdict::not_compared), 3u);
  EXPECT_NE(text.find("no regression among 42 matched records: 1 improved, 38 unchanged within noise, 3 not compared"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not compared: skipped in both runs"), std::string::npos) << text;
}

// A whole run on a slower host, as a shared host gives. Every repetition moved, so the test is
// significant everywhere; only the minimum effect keeps that from reading as a regression.
TEST(ReportDiff, ARunThatMovedLessThanTheMinimumEffectIsUnchanged) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  for (json& record : new_run["records"])
    if (record["timings"].is_object()) slowDown(record, 1.15);
  const reports::DiffResult diff = reports::diffResults(typed(old_run), typed(new_run));
  EXPECT_FALSE(diff.regressed) << diffText(diff);
  std::size_t significant = 0;
  for (const auto& change : diff.matched) significant += change.comparison && change.comparison->p_value < 0.05;
  EXPECT_GT(significant, 0u);
  EXPECT_EQ(diff.count(reports::RecordVerdict::regressed), 0u);
  // The same shift beyond the minimum effect is a regression of every record that ran.
  EXPECT_TRUE(reports::diffResults(typed(old_run), typed(new_run), minEffect(0.10)).regressed);
}

TEST(ReportDiff, TooFewRepetitionsCannotBeSignificant) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  json* tiled = findRecord(new_run, "matmul", "tiled16", "normal", 1024);
  json trimmed_old = old_run;
  json* tiled_old = findRecord(trimmed_old, "matmul", "tiled16", "normal", 1024);
  for (json* record : {tiled, tiled_old}) {
    json& repetitions = (*record)["timings"]["repetitions"];
    repetitions.erase(repetitions.begin() + 3, repetitions.end());  // 3 each
  }
  ASSERT_EQ((*tiled)["timings"]["repetitions"].size(), 3u);
  slowDown(*tiled, 2.0);
  const reports::DiffResult diff = reports::diffResults(typed(trimmed_old), typed(new_run));
  const reports::RecordChange* change = changeOf(diff, "matmul/tiled16 N=1024 (normal)");
  ASSERT_NE(change, nullptr);
  EXPECT_EQ(change->verdict, reports::RecordVerdict::unchanged_within_noise);
  EXPECT_NEAR(change->comparison->p_value, 0.1, 1e-12);  // 2 / C(6, 3): the smallest there is
  EXPECT_NE(diffText(diff).find("unchanged within noise: 3 + 3 repetitions cannot reach p < 0.05"), std::string::npos)
      << diffText(diff);
}

TEST(ReportDiff, RefusesOtherDevicesUnlessAllowedAndRejectsBadSettings) {
  const json cpu = loadFixture(kCpuFixture);
  const json gpu = loadFixture(kGpuFixture);
  const reports::DiffResult refused = reports::diffResults(typed(cpu), typed(gpu));
  ASSERT_TRUE(refused.refusal.has_value());
  EXPECT_NE(refused.refusal->find("OLD ran on \"cpu-haswell-Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz\" "
                                  "(Portable Computing Language), NEW on \"NVIDIA H100 80GB HBM3\" (NVIDIA CUDA)"),
            std::string::npos)
      << *refused.refusal;
  EXPECT_NE(refused.refusal->find("--allow-other-device"), std::string::npos);
  EXPECT_TRUE(refused.matched.empty());
  EXPECT_FALSE(refused.regressed);

  // The same device on another platform is another device too.
  json other_platform = cpu;
  other_platform["device"]["platform"] = "Intel(R) OpenCL";
  EXPECT_TRUE(reports::diffResults(typed(cpu), typed(other_platform)).refusal.has_value());

  reports::DiffOptions allow;
  allow.allow_other_device = true;
  const reports::DiffResult allowed = reports::diffResults(typed(cpu), typed(other_platform), allow);
  EXPECT_FALSE(allowed.refusal.has_value());
  ASSERT_EQ(allowed.warnings.size(), 1u);
  EXPECT_NE(allowed.warnings[0].find("different devices"), std::string::npos);
  EXPECT_EQ(allowed.matched.size(), cpu["records"].size());

  EXPECT_THROW(reports::diffResults(typed(cpu), typed(cpu), minEffect(-0.1)), std::invalid_argument);
  for (double alpha : {0.0, 1.0, -0.5}) {
    reports::DiffOptions bad;
    bad.alpha = alpha;
    EXPECT_THROW(reports::diffResults(typed(cpu), typed(cpu), bad), std::invalid_argument) << alpha;
  }
}

TEST(ReportDiff, NothingMatchedSaysWhy) {
  const json cpu = loadFixture(kCpuFixture);
  json running = cpu;
  running["records"] = json::array();
  running["status"] = "running";
  running.erase("summary");
  const reports::DiffResult empty = reports::diffResults(typed(cpu), typed(running));
  ASSERT_TRUE(empty.refusal.has_value());
  EXPECT_EQ(*empty.refusal, "nothing to compare: NEW has 0 records (status: running)");

  json other_family = cpu;
  for (json& record : other_family["records"]) record["family"] = "transpose";
  const reports::DiffResult families = reports::diffResults(typed(cpu), typed(other_family));
  ASSERT_TRUE(families.refusal.has_value());
  EXPECT_EQ(*families.refusal, "nothing to compare: no family in common: OLD holds matmul, vecadd, NEW holds transpose")
      << *families.refusal;

  json other_size = cpu;
  for (json& record : other_size["records"]) record["params"]["N"] = 12345;
  const reports::DiffResult sizes = reports::diffResults(typed(cpu), typed(other_size));
  ASSERT_TRUE(sizes.refusal.has_value());
  EXPECT_NE(sizes.refusal->find("no record of OLD has the (family, variant, params, mode) of one in NEW"), std::string::npos)
      << *sizes.refusal;
  EXPECT_NE(sizes.refusal->find("N=12345"), std::string::npos) << *sizes.refusal;
}

// ---- Noise target: intervals, convergence and the host ----

namespace {

// The CPU fixture as a run measured to a noise target would write it: every timed record with its
// median's interval, the first normal record not converged, and a noisy host.
json withIntervals() {
  json results = loadFixture(kCpuFixture);
  bool first_normal = true;
  for (json& record : results["records"]) {
    json& timings = record["timings"];
    if (!timings.is_object() || !timings["kernel_ns"].is_object() || !timings["kernel_ns"]["median"].is_number())
      continue;
    const double median = timings["kernel_ns"]["median"].get<double>();
    const bool converged = !(first_normal && record["mode"] == "normal");
    if (record["mode"] == "normal") first_normal = false;
    timings["kernel_ns_interval"] = {{"lower", median * 0.9}, {"upper", median * 1.1}, {"confidence", 0.95},
                                     {"noise", 0.1}, {"converged", converged}};
  }
  results["host"] = {{"cpu_governor", "powersave"}, {"load_average_1min", 3.5}, {"core_count", 2},
                     {"gpu_sm_clock_unavailable", "not an NVIDIA GPU"}};
  results["noisy_host"] = "load average 3.50 on 2 cores";
  return results;
}

}  // namespace

TEST(ReportNoise, IntervalsAndTheHostRoundTripThroughJson) {
  const json results = withIntervals();
  const json written = asWritten(results);
  EXPECT_EQ(written["host"], results["host"]);
  EXPECT_EQ(written["noisy_host"], results["noisy_host"]);
  std::size_t intervals = 0;
  for (std::size_t i = 0; i < results["records"].size(); ++i) {
    const json& timings = results["records"][i]["timings"];
    if (!timings.is_object() || !timings.contains("kernel_ns_interval")) continue;
    ++intervals;
    EXPECT_EQ(written["records"][i]["timings"]["kernel_ns_interval"], timings["kernel_ns_interval"]) << i;
  }
  EXPECT_GT(intervals, 0u);
  EXPECT_EQ(asWritten(written), written);
}

TEST(ReportNoise, ChartDrawsBarsAndHollowMarkersForMissedTargets) {
  const rooflab::ResultsDocument document = typed(withIntervals());
  const std::string family = document.records.front().family;
  const reports::RooflineChart chart = reports::buildRooflineChart(document, family);
  ASSERT_FALSE(chart.points.empty());
  std::size_t missed = 0;
  for (const reports::VariantPoint& point : chart.points) {
    ASSERT_TRUE(point.median_interval && point.min_max);
    EXPECT_LT(point.median_interval->low, point.at.gflops);  // slower end of the time interval
    EXPECT_GT(point.median_interval->high, point.at.gflops);
    EXPECT_LT(point.min_max->low, point.min_max->high);
    if (point.missed_noise_target) ++missed;
  }
  EXPECT_EQ(missed, 1u);
  const reports::ChartScene scene = reports::layoutRooflineChart(chart);
  std::size_t hollow_points = 0, legend_texts = 0;
  for (const reports::SceneItem& item : scene.items) {
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item); marker && marker->hollow && !marker->tooltip.empty())
      ++hollow_points;
    if (const auto* text = std::get_if<reports::SceneText>(&item);
        text && (text->text == "95% interval of median" || text->text == "hollow: noise target missed"))
      ++legend_texts;
  }
  EXPECT_EQ(hollow_points, 1u);
  EXPECT_EQ(legend_texts, 2u);
  EXPECT_NE(reports::renderSvgChart(scene, family).find("fill=\"#ffffff\" stroke=\"#"), std::string::npos);
}

TEST(ReportNoise, HtmlMarksNoisyRecordsOnceExplainedAndTheNoisyHost) {
  const std::string html = reports::renderHtmlReport(typed(withIntervals()));
  EXPECT_EQ(countOccurrences(html, "did not meet"), 1u);
  EXPECT_GE(countOccurrences(html, "<span class=\"bad\">noisy</span>"), 2u);  // the note and the record's cell
  EXPECT_NE(html.find("±10.0%"), std::string::npos);
  EXPECT_NE(html.find("noisy host</strong>: load average 3.50 on 2 cores"), std::string::npos);
  EXPECT_NE(html.find("NOT converged"), std::string::npos);  // the tooltip
  // Older results say nothing of noise.
  const std::string old_html = reports::renderHtmlReport(typed(loadFixture(kCpuFixture)));
  EXPECT_EQ(old_html.find("did not meet"), std::string::npos);
  EXPECT_EQ(old_html.find("<span class=\"bad\">noisy</span>"), std::string::npos);
  EXPECT_EQ(old_html.find("noisy host</strong>"), std::string::npos);
}

TEST(ReportNoise, CsvHasTheIntervalColumnsWhenMeasuredToATarget) {
  const json results = withIntervals();
  const auto rows = parseCsv(csvText(results));
  const std::vector<std::string>& header = rows.at(0);
  auto column = [&](const std::string& title) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), title) - header.begin());
  };
  ASSERT_LT(column("converged"), header.size());
  ASSERT_LT(column("median_ns_low"), header.size());
  std::size_t not_converged = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size());
    if (rows[i][column("converged")] == "false") ++not_converged;
    if (!rows[i][column("median_ns")].empty())
      EXPECT_NEAR(std::stod(rows[i][column("median_ns_low")]), 0.9 * std::stod(rows[i][column("median_ns")]), 1.0);
  }
  EXPECT_EQ(not_converged, 1u);
  const auto old_header = parseCsv(csvText(loadFixture(kCpuFixture))).at(0);
  EXPECT_EQ(std::find(old_header.begin(), old_header.end(), "converged"), old_header.end());
}

TEST(ReportNoise, DiffWarnsOfNoisyHostsAndRecordsThatMissedTheTarget) {
  const rooflab::ResultsDocument noisy = typed(withIntervals());
  const reports::DiffResult diff = reports::diffResults(typed(loadFixture(kCpuFixture)), noisy);
  ASSERT_EQ(diff.warnings.size(), 2u);
  EXPECT_EQ(diff.warnings[0], "NEW ran on a noisy host: load average 3.50 on 2 cores");
  EXPECT_EQ(diff.warnings[1], "1 record of NEW did not meet the noise target: its median is less certain than the others'");
}
