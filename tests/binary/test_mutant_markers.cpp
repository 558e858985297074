// Mutant markers on request: `rooflab report --show-mutants` draws each original's
// compute-only and memory-only mutants on its roofline, with their legend; without the flag the
// charts are as before. Checked through the binary on the saved H100 run (every mode, counters).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::testing::TempDir;

namespace {

const fs::path kInput = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/h100-default/input.json";

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// Mutant records that are ok and whose original (same family, variant, params) is ok and placed.
std::size_t okMutantsOfOkOriginals(const nlohmann::json& results, const std::string& mode) {
  std::size_t count = 0;
  for (const nlohmann::json& mutant : results["records"]) {
    if (mutant["mode"] != mode || mutant["status"] != "ok") continue;
    for (const nlohmann::json& original : results["records"]) {
      if (original["mode"] == "normal" && original["status"] == "ok" && original["family"] == mutant["family"] &&
          original["variant"] == mutant["variant"] && original["params"] == mutant["params"]) {
        ++count;
        break;
      }
    }
  }
  return count;
}

std::string reportHtml(const TempDir& dir, const std::string& extra) {
  const fs::path out = dir.path() / ("out" + std::to_string(extra.size()));
  const std::string command = std::string(ROOFLAB_BINARY) + " report '" + kInput.string() + "' --formats html --out '" +
                              out.string() + "' " + extra + " > '" + (dir.path() / "log").string() + "' 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << rooflab::testing::fileText(dir.path() / "log");
  return rooflab::testing::fileText(out / "report.html");
}

}  // namespace

TEST(MutantMarkers, ShowMutantsDrawsEveryOkMutantWithItsLegend) {
  TempDir dir;
  const nlohmann::json results = nlohmann::json::parse(rooflab::testing::fileText(kInput));
  const std::size_t compute_only = okMutantsOfOkOriginals(results, "compute-only");
  const std::size_t memory_only = okMutantsOfOkOriginals(results, "memory-only");
  ASSERT_GT(compute_only, 10u);
  ASSERT_GT(memory_only, 10u);

  const std::string html = reportHtml(dir, "--show-mutants");
  // One tooltip per mutant marker: "family / variant (compute-only mutant)".
  EXPECT_EQ(occurrences(html, "(compute-only mutant)"), compute_only);
  EXPECT_EQ(occurrences(html, "(memory-only mutant)"), memory_only);
  EXPECT_NE(html.find(">Mutants (dotted to their variant)<"), std::string::npos);
  EXPECT_NE(html.find(">compute-only mutant<"), std::string::npos);
  EXPECT_NE(html.find(">memory-only mutant<"), std::string::npos);
}

TEST(MutantMarkers, WithoutTheFlagNoMutantIsDrawn) {
  TempDir dir;
  const std::string html = reportHtml(dir, "");
  EXPECT_EQ(occurrences(html, "(compute-only mutant)"), 0u);
  EXPECT_EQ(occurrences(html, "(memory-only mutant)"), 0u);
  EXPECT_EQ(html.find("Mutants (dotted to their variant)"), std::string::npos);
}
