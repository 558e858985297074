// The shape the typed-results rework gave the code, kept by a test so that it does not drift back:
// small files and short functions in analyzer/, mutators/ and reports/, and results that are typed
// data (JSON only at the edge in analyzer/json/ and its readers and writers).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = ROOFLAB_SOURCE_DIR;

std::vector<std::string> linesOf(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<fs::path> sourcesUnder(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file() && (entry.path().extension() == ".cpp" || entry.path().extension() == ".hpp"))
      files.push_back(entry.path());
  return files;
}

struct FunctionSpan {
  std::string signature;
  std::size_t first_line = 0;
  std::size_t lines = 0;
};

// Function definitions at namespace level, in the project's clang-format layout: the signature starts
// in column 0 and the body closes with a '}' alone in column 0. A definition on one line ends with its
// '}' and is short; a ` = ` before the first '(' makes a variable (a constant, a raw string), whose
// '(' may be in a comment or the string.
std::vector<FunctionSpan> functionsIn(const std::vector<std::string>& lines) {
  static const std::regex start(R"(^[A-Za-z~].*\()");
  static const std::regex not_function(R"(^(namespace|struct|class|enum|union|extern|using|typedef|return)\b)");
  static const std::regex initialised(R"(^[^(]*\s=\s)");
  auto endsWith = [](const std::string& s, char c) {
    const auto last = s.find_last_not_of(" \t");
    return last != std::string::npos && s[last] == c;
  };
  // A declaration's trailing comment ("int f();  // why") would hide its ';'.
  auto code = [](const std::string& line) {
    const auto comment = line.find("  //");
    return comment == std::string::npos ? line : line.substr(0, comment);
  };
  std::vector<FunctionSpan> spans;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_search(lines[i], start) || std::regex_search(lines[i], not_function) ||
        endsWith(code(lines[i]), ';') || std::regex_search(lines[i], initialised))
      continue;
    std::size_t open = i;
    while (open < lines.size() && !endsWith(lines[open], '{') && !endsWith(lines[open], ';') &&
           !endsWith(lines[open], '}'))
      ++open;
    if (open == lines.size() || !endsWith(lines[open], '{')) continue;
    std::size_t close = open;
    while (close < lines.size() && lines[close] != "}") ++close;
    spans.push_back({lines[i], i + 1, close - i + 1});
    i = close;
  }
  return spans;
}

}  // namespace

TEST(CodeShape, NoSourceFileOfAnalyzerMutatorsOrReportsIsOver500Lines) {
  for (const char* folder : {"analyzer", "mutators", "reports"}) {
    const std::vector<fs::path> files = sourcesUnder(kSource / folder);
    EXPECT_FALSE(files.empty()) << folder << "/ has no .cpp or .hpp file: the check would see nothing";
    for (const fs::path& file : files) EXPECT_LE(linesOf(file).size(), 500u) << fs::relative(file, kSource).string();
  }
}

TEST(CodeShape, NoFunctionOfAnalyzerMutatorsOrReportsIsOver80Lines) {
  std::size_t checked = 0;
  for (const char* folder : {"analyzer", "mutators", "reports"})
    for (const fs::path& file : sourcesUnder(kSource / folder)) {
      const std::string name = fs::relative(file, kSource).generic_string();
      for (const FunctionSpan& f : functionsIn(linesOf(file))) {
        ++checked;
        EXPECT_LE(f.lines, 80u) << name << ":" << f.first_line << ": " << f.signature;
      }
    }
  EXPECT_GT(checked, 1000u) << "the function finder no longer recognises the code's layout";
}

TEST(CodeShape, TheFunctionFinderSeesMultiLineSignatures) {
  const std::vector<std::string> code = {
      "namespace x {",           "int f(int a,", "      int b) {", "  return a;", "}", "struct S {",
      "  int g() { return 1; }", "};",           "void h();",      "void k() {",  "}", "}  // namespace x"};
  const auto spans = functionsIn(code);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].lines, 4u);
  EXPECT_EQ(spans[1].lines, 2u);
}

// A one-line definition or a constant must not open a span that runs on to the next function's end.
TEST(CodeShape, TheFunctionFinderSkipsOneLineFunctionsAndConstants) {
  const std::vector<std::string> code = {"inline int one() { return 1; }",
                                         "constexpr double kRate = 0.5;  // per (log time)^2",
                                         "constexpr std::string_view kScript = R\"js(",
                                         "  function f() {",
                                         "  }",
                                         ")js\";",
                                         "Foo& operator=(const Foo& other) {",
                                         "  return *this;",
                                         "}",
                                         "int two(int a = 2) {",
                                         "  return a;",
                                         "}"};
  const auto spans = functionsIn(code);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].first_line, 7u);
  EXPECT_EQ(spans[1].first_line, 10u);
  EXPECT_EQ(spans[1].lines, 3u);
}

// Records and results are typed; reporters never see a JSON node.
TEST(CodeShape, RecordTypesAndReportersHoldNoJson) {
  std::vector<fs::path> typed = {
      kSource / "analyzer/data/run_record.hpp",           kSource / "analyzer/data/results_document.hpp",
      kSource / "analyzer/data/counter_set.hpp",          kSource / "analyzer/roofline/roofline.hpp",
      kSource / "analyzer/diagnose/mutation_verdict.hpp", kSource / "mutators/occupancy_match.hpp"};
  for (const fs::path& file : sourcesUnder(kSource / "reports")) typed.push_back(file);
  for (const fs::path& file : typed) {
    ASSERT_TRUE(fs::exists(file)) << file;
    std::size_t number = 0;
    for (const std::string& line : linesOf(file)) {
      ++number;
      if (line.rfind("//", 0) == 0 ||
          line.find_first_not_of(' ') != std::string::npos && line.compare(line.find_first_not_of(' '), 2, "//") == 0)
        continue;
      EXPECT_EQ(line.find("nlohmann"), std::string::npos) << fs::relative(file, kSource).string() << ":" << number;
    }
  }
}

// The analysis concludes data (enums and figures); reports/ writes its sentences and numbers. The
// analysis's folders, the types of its findings and the batch's cost and estimate format no number
// for a reader: no fixed or significant-digit text, no output streams. Names built from a value (a point's parameters
// as "N=1024") use formatNumber, which stays allowed.
TEST(CodeShape, TheAnalysisFormatsNoNumberForAReader) {
  std::vector<fs::path> analysis = {
      kSource / "analyzer/roofline/roofline.cpp", kSource / "analyzer/device/host_condition.cpp",
      kSource / "analyzer/batch/batch_cost.cpp",  kSource / "analyzer/batch/batch_estimate.cpp",
      kSource / "analyzer/data/run_cost.hpp",     kSource / "analyzer/plan/size_rules.cpp",
      kSource / "analyzer/batch/host_watch.cpp",  kSource / "analyzer/data/size_choice.hpp",
      kSource / "analyzer/data/tuning.hpp"};
  for (const char* folder : {"analyzer/diagnose", "analyzer/place"})
    for (const fs::path& file : sourcesUnder(kSource / folder)) analysis.push_back(file);
  for (const fs::path& file : sourcesUnder(kSource / "analyzer/ceilings")) analysis.push_back(file);
  for (const char* finding : {"diagnosis", "mutation_verdict", "roofline", "what_if", "end_to_end", "host_condition",
                              "ceilings_report", "link_ceilings"})
    for (const char* extension : {".hpp", ".cpp"})
      if (fs::exists(kSource / "analyzer/data" / (std::string(finding) + extension)))
        analysis.push_back(kSource / "analyzer/data" / (std::string(finding) + extension));
  const char* formatters[] = {"formatFixed",   "formatSignificant", "to_chars",    "snprintf",
                              "ostringstream", "std::to_string",    "percentText", "oneDecimal"};
  for (const fs::path& file : analysis) {
    ASSERT_TRUE(fs::exists(file)) << file;
    std::size_t number = 0;
    for (const std::string& line : linesOf(file)) {
      ++number;
      const std::size_t start = line.find_first_not_of(' ');
      if (start == std::string::npos || line.compare(start, 2, "//") == 0) continue;
      for (const char* formatter : formatters)
        EXPECT_EQ(line.find(formatter), std::string::npos)
            << fs::relative(file, kSource).string() << ":" << number << " formats a number (" << formatter << ")";
    }
  }
}
