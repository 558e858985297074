// What reports/ takes from the JSON edge without holding JSON (analyzer/results_file.hpp), and the
// rates a record derives from its work and median time, which the file and every report share.
#include <gtest/gtest.h>

#include <regex>

#include <cmath>
#include <fstream>
#include <sstream>

#include "analyzer/json/results_file.hpp"
#include "analyzer/json/results_json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rooflab;

using rooflab::testing::fileText;
using rooflab::testing::firstDifference;

namespace {

const fs::path kGoldenH100 = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/h100-default/input.json";

}  // namespace

TEST(ResultsFile, WritesAGoldenInputBackByteForByte) {
  const std::string text = fileText(kGoldenH100);
  ASSERT_FALSE(text.empty());
  rooflab::testing::TempDir dir;
  writeResultsFile(dir.path() / "results.json", resultsDocumentFromJson(json::parse(text)));
  // Schema 1 in, the same file at schema 2 out.
  EXPECT_TRUE(fileText(dir.path() / "results.json") ==
              std::regex_replace(text, std::regex("\n  \"schema\": 1,\n"), "\n  \"schema\": 2,\n"));
}

TEST(ResultsFile, ConfigEchoIsTheConfigObjectOfTheFile) {
  const json input = json::parse(fileText(kGoldenH100));
  const ResultsDocument document = resultsDocumentFromJson(input);
  ASSERT_TRUE(document.config.has_value());
  EXPECT_EQ(configEchoText(*document.config), input["config"].dump(2));
}

TEST(ResultsFile, RatesAreThoseTheFileHolds) {
  const json input = json::parse(fileText(kGoldenH100));
  const ResultsDocument document = resultsDocumentFromJson(input);
  ASSERT_EQ(document.records.size(), input["records"].size());
  std::size_t timed = 0;
  for (std::size_t i = 0; i < document.records.size(); ++i) {
    const RunRecord& record = document.records[i];
    const json& timings = input["records"][i]["timings"];
    if (!timings.is_object()) {
      EXPECT_FALSE(record.medianKernelNs() || record.achievedGflops() || record.achievedGbps()) << record.label();
      continue;
    }
    ++timed;
    ASSERT_TRUE(record.medianKernelNs().has_value()) << record.label();
    EXPECT_EQ(*record.medianKernelNs(), timings["kernel_ns"]["median"].get<double>());
    // Exactly: the file's rates are written from these helpers.
    EXPECT_EQ(record.achievedGflops().value_or(-1), timings["gflops"].is_null() ? -1 : timings["gflops"].get<double>());
    EXPECT_EQ(record.achievedGbps().value_or(-1), timings["gbps"].is_null() ? -1 : timings["gbps"].get<double>());
  }
  EXPECT_GT(timed, 0u);
}

TEST(ResultsFile, NoRateWithoutAPositiveFiniteMedian) {
  RunRecord record;
  record.work.flops = 1e9;
  record.work.bytes = 4e9;
  EXPECT_FALSE(record.achievedGflops().has_value());  // no timings
  record.timings = EventTimings{};
  record.timings->kernel_ns.median = 0;
  EXPECT_FALSE(record.achievedGflops().has_value());
  record.timings->kernel_ns.median = std::nan("");
  EXPECT_FALSE(record.medianKernelNs().has_value());
  EXPECT_FALSE(record.achievedGbps().has_value());
  record.timings->kernel_ns.median = 1e6;  // 1 ms
  EXPECT_DOUBLE_EQ(record.achievedGflops().value_or(0), 1000.0);
  EXPECT_DOUBLE_EQ(record.achievedGbps().value_or(0), 4000.0);
  record.work.flops = std::nan("");  // unknown work: unknown rate, never NaN
  EXPECT_FALSE(record.achievedGflops().has_value());
}
