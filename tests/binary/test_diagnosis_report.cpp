// One bound per variant in what a user reads: `rooflab report` on saved runs shows the diagnosis
// (analyzer/diagnosis.hpp) and no second, contradictory bound.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <vector>

#include "test_support.hpp"

using rooflab::testing::TempDir;
namespace fs = std::filesystem;

// What a user sees: `rooflab report` on the saved runs names one bound per row of the variants table
// and of the terminal table, says it with a confidence, and writes the JSON back unchanged (the
// golden test compares it byte for byte).
namespace {

std::set<std::string> boundWords(const std::string& text) {
  static const std::regex word(
      R"((^|[^a-z-])(memory|compute|latency|balanced|overhead-dominated|undetermined)(-bound|-leaning)?(?![a-z]|-only))");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
    found.insert((*it)[2].str());
  return found;
}

// The text of an HTML fragment as a reader sees it: tags (with their attributes, tooltips included)
// dropped.
std::string visibleText(const std::string& html) {
  std::string text;
  bool in_tag = false;
  for (const char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text += c;
    if (c == '>') in_tag = false, text += ' ';
  }
  return text;
}

// The pieces of `text` between each `open` (up to its end '>') and the next `close`, by plain search:
// std::regex recursion over a whole table overflows the stack under the sanitizers.
std::vector<std::string> between(const std::string& text, const std::string& open, const std::string& close) {
  std::vector<std::string> pieces;
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
    const std::size_t body = text.find('>', at);
    const std::size_t end = body == std::string::npos ? body : text.find(close, body);
    if (end == std::string::npos) break;
    pieces.push_back(text.substr(body + 1, end - body - 1));
    at = end + close.size();
  }
  return pieces;
}

}  // namespace

TEST(DiagnosisReport, SavedRunsNameOneBoundPerRow) {
  for (const char* name : {"pocl-default", "h100-default"}) {
    SCOPED_TRACE(name);
    const fs::path input = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden" / name / "input.json";
    TempDir dir;
    const auto outcome =
        rooflab::testing::runRooflab("report '" + input.string() + "' --out out --formats html,json,csv", dir.path());
    ASSERT_EQ(outcome.exit_code, 0) << rooflab::testing::show(outcome);
    const std::string html = rooflab::testing::fileText(dir.path() / "out/report.html");
    EXPECT_EQ(html.find("Bound (roofline"), std::string::npos);
    EXPECT_EQ(html.find("<th>Mutation verdict</th>"), std::string::npos);
    std::size_t diagnosed_rows = 0;
    for (const std::string& body : between(html, "<table class=\"variants\"", "</table>")) {
      for (const std::string& row : between(body, "<tr", "</tr>")) {
        const std::string text = visibleText(row);
        const std::set<std::string> words = boundWords(text);
        EXPECT_LE(words.size(), 1u) << text;
        if (text.find(" confidence") != std::string::npos) ++diagnosed_rows;
      }
    }
    EXPECT_GT(diagnosed_rows, 20u);
    for (const std::string& line : {outcome.out}) {
      std::size_t start = 0;
      while (start < line.size()) {
        const std::size_t end = line.find('\n', start);
        const std::string one = line.substr(start, end - start);
        EXPECT_LE(boundWords(one).size(), 1u) << one;
        start = end == std::string::npos ? line.size() : end + 1;
      }
    }
    EXPECT_NE(outcome.out.find("confidence"), std::string::npos) << outcome.out;
    const std::string csv = rooflab::testing::fileText(dir.path() / "out/results.csv");
    EXPECT_NE(csv.find(",diagnosis_bound,diagnosis_confidence,diagnosis_evidence\r\n"), std::string::npos);
    const std::string json = rooflab::testing::fileText(dir.path() / "out/results.json");
    EXPECT_EQ(json.find("\"diagnosis\""), std::string::npos) << "a diagnosis derived when read is not written back";
  }
}
