// Shared by the renderer tests (tests/reports/test_report_*.cpp): the results fixtures, a scratch folder,
// and CSV and terminal text of a results document.
#pragma once
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

#include "test_support.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/text/csv_report.hpp"
#include "analyzer/diagnose/run_comparison.hpp"
#include "reports/text/diff_report.hpp"
#include "reports/text/diff_text.hpp"
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

const fs::path kFixtureDir = ROOFLAB_SOURCE_DIR "/tests/fixtures/results";
const char* const kCpuFixture = "cpu-pocl-small.json";
const char* const kGpuFixture = "gpu-h100-modes.json";

// Reporters take typed results. The tests read and doctor JSON, and hand it to them through the
// JSON edge, as `rooflab report` does with a file.
rooflab::ResultsDocument typed(const json& results) { return rooflab::resultsDocumentFromJson(results); }

// A results document as this rooflab writes it. The fixtures come from an older rooflab (fields added
// since, rates computed in another order of operations: tests/json/test_results_json.cpp), so a test that
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
    path_ = fs::temp_directory_path() / ("rooflab-reports-" + std::string(test->test_suite_name()) + "-" +
                                         test->name() + "-" + std::to_string(::getpid()));
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
