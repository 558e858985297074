// Renderers (reports/): every test reads the checked-in results fixtures, as `rooflab report`
// does; nothing here needs a device.
//
// This file: PNG, CSV, the report writer, the terminal summary and the locale.

#include "reports/reports_test_support.hpp"

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

}  // namespace

// ---- PNG ----

// A roofline per family with FLOPs; the transpose, which has none, on its bandwidth chart instead
// (docs/charts.md): no empty roofline.
TEST(ReportPng, OneReadable1600x1000ImagePerChart) {
#ifndef ROOFLAB_HAVE_CAIRO
  GTEST_SKIP() << "built without cairo: no PNG reports";
#else
  ScratchDir out;
  const json results = loadFixture(kGpuFixture);
  const std::vector<fs::path> written = reports::writePngReports(typed(results), out.path());
  ASSERT_EQ(written.size(), reports::familiesInRunOrder(typed(results)).size());
  for (const std::string& family : reports::familiesInRunOrder(typed(results))) {
    const fs::path file = out.path() / ((family == "transpose" ? "bandwidth-" : "roofline-") + family + ".png");
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
  rooflab::AnalysedRecord record;
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
  results.analysis.records.push_back(record);

  const auto rows = parseCsv(csvText(rooflab::toJson(results)));
  ASSERT_EQ(rows.size(), 2u);
  std::ostringstream typed_csv;
  reports::writeCsv(results, typed_csv);
  const auto typed_rows = parseCsv(typed_csv.str());
  EXPECT_EQ(typed_rows, rows);  // the same as through the file
  const std::vector<std::string> header = reports::csvHeader(results);
  for (const char* column :
       {"median_ns", "gflops", "gbps", "flops", "bytes", "cgma", "device_intensity", "device_fraction_of_roof"}) {
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
  json expected = results;
  expected["schema"] = 2;  // a schema-1 file is written back at the current schema, nothing else changed
  EXPECT_EQ(json::parse(in), expected);
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
  EXPECT_THROW(reports::writeReports(typed(json{{"schema", 3}, {"records", json::array()}}), out.path(), {"csv"}),
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
    std::vector<std::string> outputs = {reports::renderHtmlReport(typed(results)), csvText(results),
                                        terminalText(results)};
    std::ostringstream diff;
    reports::printDiff(rooflab::compareRuns(typed(results), typed(slower)), diff);
    outputs.push_back(diff.str());
#ifdef ROOFLAB_HAVE_CAIRO
    outputs.push_back(
        reports::renderPng(reports::layoutRooflineChart(reports::buildRooflineChart(typed(results), "matmul"))));
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
  for (std::size_t i = 0; i < in_c_locale.size(); ++i)
    EXPECT_TRUE(in_c_locale[i] == in_german_locale[i]) << "output " << i;
  EXPECT_EQ(imbued.str(), in_c_locale[2]);  // the terminal table
}