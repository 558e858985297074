// `rooflab report` on saved runs writes exactly what it wrote before results became typed data: the
// JSON and CSV byte for byte (the JSON at the current schema number), the HTML up to its timestamps
// (tests/fixtures/report-golden/README.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "test_support.hpp"

using rooflab::testing::TempDir;
namespace fs = std::filesystem;

using rooflab::testing::fileText;
using rooflab::testing::firstDifference;

namespace {

std::string withoutTimestamps(const std::string& html) {
  static const std::regex iso8601(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
  return std::regex_replace(html, iso8601, "<timestamp>");
}

void expectReportUnchanged(const std::string& name) {
  const fs::path golden = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden" / name;
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const std::string command = std::string(ROOFLAB_BINARY) + " report " + (golden / "input.json").string() + " --out " +
                              out.string() + " --formats html,json,csv > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << fileText(dir.path() / "log");

  // The inputs are schema 1: re-written, they are the same file at schema 2, each saved sentence under
  // its schema-1 key.
  const std::string json_expected =
      std::regex_replace(fileText(golden / "input.json"), std::regex("\n  \"schema\": 1,\n"), "\n  \"schema\": 2,\n");
  const std::string json_actual = fileText(out / "results.json");
  EXPECT_TRUE(json_expected == json_actual) << "results.json: " << firstDifference(json_expected, json_actual);
  const std::string csv_expected = fileText(golden / "expected-results.csv"),
                    csv_actual = fileText(out / "results.csv");
  EXPECT_TRUE(csv_expected == csv_actual) << "results.csv: " << firstDifference(csv_expected, csv_actual);
  const std::string html_expected = withoutTimestamps(fileText(golden / "expected-report.html"));
  const std::string html_actual = withoutTimestamps(fileText(out / "report.html"));
  EXPECT_TRUE(html_expected == html_actual) << "report.html: " << firstDifference(html_expected, html_actual);
}

}  // namespace

TEST(ReportGolden, PoclDefaultRunRendersAsBefore) { expectReportUnchanged("pocl-default"); }

TEST(ReportGolden, H100DefaultRunWithCountersRendersAsBefore) { expectReportUnchanged("h100-default"); }
