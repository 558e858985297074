// The course's profiler readings in the reports: a hand-built results document whose
// originals carry the readings in counters.derived, rendered to HTML and CSV as `rooflab report` does.
// No device needed; the readings' formulas are tested in tests/counters/test_counters.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/counters/counters.hpp"
#include "analyzer/data/counter_metrics.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/html/html_text.hpp"

namespace reports = rooflab::reports;
using nlohmann::json;

namespace {

const std::filesystem::path kGpuFixture = ROOFLAB_SOURCE_DIR "/tests/fixtures/results/gpu-h100-modes.json";

json loadGpuFixture() {
  std::ifstream in(kGpuFixture);
  if (!in) throw std::runtime_error("missing fixture " + kGpuFixture.string());
  return json::parse(in);
}

// The GPU fixture (from before the readings existed) with readings added to matmul's N=1024
// originals: naive reads A down its columns (low load efficiency), tiled16 has 2-way conflicts, and
// tiled32_wpt8's branch counter was missing on the device.
json withReadings() {
  json results = loadGpuFixture();
  for (json& record : results["records"]) {
    if (record["family"] != "matmul" || record["mode"] != "normal" || record["params"]["N"] != 1024) continue;
    json& derived = record["counters"]["derived"];
    json& reasons = record["counters"]["derived_reasons"];
    derived["branch_divergence_pct"] = 0.0;
    derived["instruction_replay_overhead"] = 0.0125;
    derived["global_load_efficiency_pct"] = 12.5;
    derived["global_store_efficiency_pct"] = 100.0;
    derived["l1_hit_rate_pct"] = 87.5;
    derived["l2_hit_rate_pct"] = 93.75;
    derived["shared_bank_conflicts_per_access"] = nullptr;
    reasons["shared_bank_conflicts_per_access"] = "no shared-memory accesses";
    derived["warp_instructions_per_dram_transaction"] = 41.5;
    if (record["variant"] == "tiled16") {
      derived["global_load_efficiency_pct"] = 100.0;
      derived["shared_bank_conflicts_per_access"] = 1.0;
      reasons.erase("shared_bank_conflicts_per_access");
    }
    if (record["variant"] == "tiled32_wpt8") {
      derived["branch_divergence_pct"] = nullptr;
      reasons["branch_divergence_pct"] =
          "smsp__sass_branch_targets.sum was not collected: not available on GH100: <invalid metric>";
    }
  }
  return results;
}

std::size_t countOccurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// The table row of `variant` in the readings table: from its first cell to the row's end.
std::string readingsRow(const std::string& html, const std::string& variant) {
  const auto table = html.find("<table class=\"readings\">");
  if (table == std::string::npos) return "";
  const auto row = html.find("<tr><td>" + variant + "</td>", table);
  if (row == std::string::npos) return "";
  return html.substr(row, html.find("</tr>", row) - row);
}

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.push_back(std::exchange(field, ""));
    else field += c;
  }
  fields.push_back(field);
  return fields;
}

}  // namespace

TEST(ProfilerReadings, HtmlShowsEachOriginalsReadingsAndExplainsThemOnce) {
  const std::string html = reports::renderHtmlReport(rooflab::resultsDocumentFromJson(withReadings()));
  EXPECT_EQ(countOccurrences(html, "<h3>Profiler readings</h3>"), 1u);  // matmul only
  EXPECT_EQ(countOccurrences(html, "<section id=\"profiler-readings\">"), 1u);

  const std::string naive = readingsRow(html, "naive");
  ASSERT_FALSE(naive.empty());
  EXPECT_NE(naive.find(">12.5%<"), std::string::npos) << naive;
  EXPECT_NE(naive.find(">87.5%<"), std::string::npos) << naive;
  EXPECT_NE(naive.find(">41.5<"), std::string::npos) << naive;
  EXPECT_NE(naive.find(">0.0125<"), std::string::npos) << naive;
  EXPECT_NE(naive.find("title=\"no shared-memory accesses\">–<"), std::string::npos) << naive;
  EXPECT_NE(readingsRow(html, "tiled16").find(">1.00<"), std::string::npos);
  EXPECT_NE(readingsRow(html, "tiled32_wpt8").find("not available on GH100: &lt;invalid metric&gt;"),
            std::string::npos);
  // One row per original with readings: the N=2048 originals and the mutants carry none.
  const auto table = html.find("<table class=\"readings\">");
  const std::string readings_table = html.substr(table, html.find("</table>", table) - table);
  EXPECT_EQ(countOccurrences(readings_table, "<tr><td>"), 3u);

  // Each reading is explained once in the report, not per variant.
  for (const rooflab::counters::CounterMetric& metric : rooflab::counters::derivedCounterTable()) {
    const std::string key = metric.raw_name;
    const auto& keys = rooflab::counters::profilerReadingKeys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) continue;
    EXPECT_EQ(countOccurrences(html, "<dd>" + reports::escapeHtml(metric.description) + "</dd>"), 1u) << key;
  }
}

TEST(ProfilerReadings, CsvHasOneColumnPerReadingAndOldResultsDoNot) {
  std::ostringstream csv;
  reports::writeCsv(rooflab::resultsDocumentFromJson(withReadings()), csv);
  std::istringstream lines(csv.str());
  std::string line;
  std::getline(lines, line, '\n');
  const std::vector<std::string> header = splitCsvLine(line.substr(0, line.size() - 1));
  auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  for (const std::string& key : rooflab::counters::profilerReadingKeys()) ASSERT_LT(column(key), header.size()) << key;
  EXPECT_EQ(header.back(), "error");

  std::size_t rows_with_readings = 0;
  while (std::getline(lines, line, '\n')) {
    const std::vector<std::string> row = splitCsvLine(line.substr(0, line.size() - 1));
    ASSERT_EQ(row.size(), header.size()) << line;
    if (row[column("global_load_efficiency_pct")].empty()) continue;
    ++rows_with_readings;
    EXPECT_EQ(row[column("family")], "matmul");
    EXPECT_EQ(row[column("mode")], "normal");
    EXPECT_EQ(row[column("shared_bank_conflicts_per_access")], row[column("variant")] == "tiled16" ? "1" : "");
    if (row[column("variant")] == "naive") {
      EXPECT_EQ(row[column("global_load_efficiency_pct")], "12.5");
      EXPECT_EQ(row[column("l2_hit_rate_pct")], "93.75");
      EXPECT_EQ(row[column("warp_instructions_per_dram_transaction")], "41.5");
    }
  }
  EXPECT_EQ(rows_with_readings, 3u);

  std::ostringstream old_csv;
  reports::writeCsv(rooflab::resultsDocumentFromJson(loadGpuFixture()), old_csv);
  EXPECT_EQ(old_csv.str().find("branch_divergence_pct"), std::string::npos);
}

TEST(ProfilerReadings, ReadingsRoundTripThroughTheResultsJson) {
  const rooflab::ResultsDocument document = rooflab::resultsDocumentFromJson(withReadings());
  const json written = rooflab::toJson(document);
  bool seen = false;
  for (const json& record : written["records"]) {
    if (record["variant"] != "naive" || record["mode"] != "normal" || record["params"]["N"] != 1024) continue;
    seen = true;
    EXPECT_EQ(record["counters"]["derived"]["global_load_efficiency_pct"], 12.5);
    EXPECT_TRUE(record["counters"]["derived"]["shared_bank_conflicts_per_access"].is_null());
    EXPECT_EQ(record["counters"]["derived_reasons"]["shared_bank_conflicts_per_access"], "no shared-memory accesses");
  }
  EXPECT_TRUE(seen);
}
