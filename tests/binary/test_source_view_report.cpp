// The source view as a user reads it: `rooflab report` on a saved run whose original kept its program,
// its warp samples per line and its mutants' changed lines shows the hot lines with their stall
// reasons in words, the source with a bar per sampled line and the mutants' changes beside each line;
// on a run without samples, the reason and the mutants' changes (tests/fixtures/results/README.md).
#include <gtest/gtest.h>

#include "test_support.hpp"

using rooflab::testing::contains;
using rooflab::testing::TempDir;
namespace fs = std::filesystem;

namespace {

struct Rendered {
  rooflab::testing::BinaryOutcome outcome;
  std::string html;
  std::string csv;
  std::string json;
};

Rendered renderFixture(const TempDir& dir, const std::string& name) {
  const fs::path input = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/results" / name;
  Rendered r;
  r.outcome =
      rooflab::testing::runRooflab("report '" + input.string() + "' --out out --formats html,json,csv", dir.path());
  r.html = rooflab::testing::fileText(dir.path() / "out/report.html");
  r.csv = rooflab::testing::fileText(dir.path() / "out/results.csv");
  r.json = rooflab::testing::fileText(dir.path() / "out/results.json");
  return r;
}

// The page's "Source lines" section, up to the end of its family's section.
std::string sourceSection(const std::string& html) {
  const std::size_t start = html.find("<h3>Source lines</h3>");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find("</section>", start) - start);
}

// The source table's row of one line of matmul.cl.
std::string sourceRow(const std::string& section, int line) {
  const std::string id = "-matmul-cl-L" + std::to_string(line) + "\"><td class=\"lineno\">";
  const std::size_t start = section.find(id);
  if (start == std::string::npos) return "";
  return section.substr(start, section.find("</tr>", start) - start);
}

}  // namespace

TEST(SourceViewReport, ASampledRunShowsItsHotLinesStallWordsBarsAndTheMutantsChanges) {
  TempDir dir;
  const Rendered r = renderFixture(dir, "source-view-sampled.json");
  ASSERT_EQ(r.outcome.exit_code, 0) << rooflab::testing::show(r.outcome);
  const std::string section = sourceSection(r.html);
  ASSERT_FALSE(section.empty()) << "no source view";
  // The hottest lines first, the hottest with its reasons and what the most sampled one means.
  const std::size_t hot_table = section.find("<table class=\"hot-lines\">");
  ASSERT_NE(hot_table, std::string::npos);
  EXPECT_LT(hot_table, section.find("<table class=\"source\">"));
  EXPECT_TRUE(contains(section, ">matmul.cl:35</a></td><td class=\"num\">72.0%</td><td class=\"num\">9</td>"))
      << section.substr(hot_table, 1500);
  EXPECT_TRUE(contains(section, "long scoreboard</span> 78.0%"));
  EXPECT_TRUE(contains(section, "LG throttle</span> 11.0%"));
  EXPECT_TRUE(contains(section, "The warp needs the result of a global, private (spilled) or image load"));
  EXPECT_TRUE(contains(section, "drain</span>"));
  EXPECT_TRUE(contains(section, "44.9 k warp samples (one per SM every 2^5 cycles)"));
  // The diagnosis names the hot line, in the section and in the variants table.
  const std::string hot_line = "hot line: matmul.cl:35, 72% of samples, long scoreboard: waiting on global loads";
  EXPECT_TRUE(contains(section, "Diagnosis, " + hot_line));
  EXPECT_TRUE(contains(r.html.substr(0, r.html.find("<h3>Source lines</h3>")), hot_line));
  // A bar per sampled line: the hottest full width, each coloured by its most sampled reason's group.
  const std::string line35 = sourceRow(section, 35);
  EXPECT_TRUE(contains(line35, "class=\"line-bar stall-memory\" style=\"width:100.0%\"")) << line35;
  EXPECT_TRUE(contains(line35, "k &lt; n; ++k")) << "the source is escaped: " << line35;
  EXPECT_TRUE(contains(
      line35, "compute-only: made-up</span><span class=\"line-change change-memory-only\">memory-only: folded"))
      << line35;
  const std::string line36 = sourceRow(section, 36);
  EXPECT_TRUE(contains(line36, "class=\"line-bar stall-memory\" style=\"width:13.9%\"")) << line36;
  EXPECT_TRUE(contains(line36, "compute-only: guarded")) << line36;
  EXPECT_TRUE(contains(sourceRow(section, 32), "class=\"line-bar stall-dependency\"")) << sourceRow(section, 32);
  EXPECT_FALSE(contains(sourceRow(section, 34), "line-bar")) << "no samples, no bar";
  EXPECT_FALSE(contains(r.html, "k < n; ++k"));
  // The terminal's summary, the CSV's evidence and the JSON written back keep them too.
  EXPECT_TRUE(contains(r.outcome.out, "hottest lines of matmul/naive N=1024")) << r.outcome.out;
  EXPECT_TRUE(contains(r.outcome.out, "matmul.cl:35  72%  long scoreboard: waiting on global loads")) << r.outcome.out;
  EXPECT_TRUE(contains(r.outcome.out, "diagnosis, " + hot_line)) << r.outcome.out;
  EXPECT_TRUE(contains(r.csv, hot_line));
  EXPECT_TRUE(contains(r.json, "\"line_sampling\": {"));
  EXPECT_TRUE(contains(r.json, "\"mutant_line_changes\": ["));
}

TEST(SourceViewReport, AnUnsampledRunShowsTheReasonAndTheMutantsChangesWithoutFigures) {
  TempDir dir;
  const Rendered r = renderFixture(dir, "source-view-unsampled.json");
  ASSERT_EQ(r.outcome.exit_code, 0) << rooflab::testing::show(r.outcome);
  const std::string section = sourceSection(r.html);
  ASSERT_FALSE(section.empty()) << "no source view";
  EXPECT_TRUE(contains(section, "No per-line samples: per-line sampling needs an NVIDIA GPU (CUPTI&#39;s PC sampling); "
                                "this device is PoCL&#39;s CPU device."))
      << section.substr(0, 1500);
  EXPECT_FALSE(contains(section, "hot-lines"));
  EXPECT_FALSE(contains(section, "line-bar"));
  EXPECT_FALSE(contains(section, "% of samples"));
  EXPECT_FALSE(contains(r.html, "hot line:"));
  EXPECT_TRUE(contains(section, "compute-only at 2 lines, memory-only at 1 line"));
  const std::string line35 = sourceRow(section, 35);
  EXPECT_TRUE(contains(line35, "k &lt; n; ++k")) << line35;
  EXPECT_TRUE(contains(line35, "compute-only: made-up")) << line35;
  EXPECT_TRUE(contains(line35, "memory-only: folded")) << line35;
  EXPECT_TRUE(contains(sourceRow(section, 36), "compute-only: guarded"));
  EXPECT_FALSE(contains(r.outcome.out, "hottest lines")) << r.outcome.out;
}
