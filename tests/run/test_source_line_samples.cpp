// An original's source view as the runner makes it (analyzer/run/source_line_samples.hpp): the files
// a user wrote, read with the headers they include, and the bridge's PC samples placed on their lines,
// whether the compiler's line info names the files or the program text rooflab gave it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/run/source_line_samples.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

counters::SampledLine sampled(std::string file, int line, std::int64_t samples,
                              std::map<std::string, std::int64_t> stalls = {}) {
  counters::SampledLine s;
  s.file = std::move(file);
  s.line = line;
  s.samples = samples;
  s.stalls = std::move(stalls);
  if (s.stalls.empty()) s.stalls["selected"] = samples;
  s.pcs = 1;
  return s;
}

std::vector<SourceFileText> twoFiles() {
  return {{"mm.cl", {"#include \"common.h\"", "kernel void mm() {", "  acc += a[k] * b[k];", "}"}},
          {"inc/common.h", {"#define TILE 16", "#define DOT(x, y) ((x) * (y))"}}};
}

TEST(SourceLineSamples, ReadsTheListedFilesAndTheHeadersTheyInclude) {
  TempDir family;
  family.write("mm.cl", "#include \"inc/common.h\"\nkernel void mm() {}\n");
  family.write("inc/common.h", "#define TILE 16\r\n");
  VariantSpec variant;
  variant.include_dir = family.path();
  variant.sources = {family.path() / "mm.cl"};
  const std::vector<SourceFileText> files = variantSourceFiles(variant);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "mm.cl");
  EXPECT_EQ(files[0].lines, (std::vector<std::string>{"#include \"inc/common.h\"", "kernel void mm() {}"}));
  EXPECT_EQ(files[1].path, "inc/common.h");
  EXPECT_EQ(files[1].lines, std::vector<std::string>{"#define TILE 16"});
}

// A listed file outside the family folder keeps the name its #line gives it, which the compiler's
// line info and the mutants' changed lines use too; a header there is named by its file name.
TEST(SourceLineSamples, AListedFileOutsideTheFamilyFolderKeepsItsLineDirectiveName) {
  TempDir dir;
  dir.write("shared/k.cl", "#include \"util.h\"\nkernel void k() {}\n");
  dir.write("shared/util.h", "#define TWICE(x) (2 * (x))\n");
  dir.write("fam/family.toml", "");
  VariantSpec variant;
  variant.include_dir = dir.path() / "fam";
  variant.sources = {dir.path() / "shared" / "k.cl"};
  const std::vector<SourceFileText> files = variantSourceFiles(variant);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "../shared/k.cl");
  EXPECT_EQ(files[1].path, "util.h");
}

TEST(SourceLineSamples, PlacesSamplesOnTheFilesTheLineInfoNames) {
  counters::PcSampling pcs;
  pcs.available = true;
  pcs.period_log2 = 13;
  pcs.total_samples = 40;
  pcs.lines = {sampled("mm.cl", 3, 20, {{"long_scoreboard", 15}, {"selected", 5}}),
               sampled("/tmp/rooflab-include-99/inc/common.h", 2, 8), sampled("", 0, 7),
               sampled("/usr/include/clc.h", 1, 5)};
  const LineSampling lines = lineSamplingFrom(pcs, twoFiles(), "");
  ASSERT_TRUE(lines.available);
  EXPECT_EQ(lines.sampling_period_log2, 13);
  EXPECT_EQ(lines.total_samples, 40);
  EXPECT_EQ(lines.unattributed_samples, 12);
  ASSERT_EQ(lines.lines.size(), 2u);
  EXPECT_EQ(lines.lines[0].where, (SourceLine{"mm.cl", 3}));
  EXPECT_EQ(lines.lines[0].samples, 20);
  ASSERT_EQ(lines.lines[0].stalls.size(), 2u);
  EXPECT_EQ(lines.lines[0].stalls[0].reason, "long_scoreboard");
  EXPECT_EQ(lines.lines[0].stalls[0].samples, 15);
  EXPECT_EQ(lines.lines[1].where, (SourceLine{"inc/common.h", 2}));
}

TEST(SourceLineSamples, PlacesLinesOfTheProgramTextThroughItsLineDirectives) {
  // The compiler named the text it was given: two prelude lines, then the file behind #line.
  const std::string program_text = "#define RL_MODE 0\nint rl_helper();\n\n#line 1 \"mm.cl\"\n#include \"common.h\"\n"
                                   "kernel void mm() {\n  acc += a[k] * b[k];\n}\n";
  counters::PcSampling pcs;
  pcs.available = true;
  pcs.lines = {sampled("/tmp/nvcl_program_1", 7, 30), sampled("/tmp/nvcl_program_1", 2, 3)};
  const LineSampling lines = lineSamplingFrom(pcs, twoFiles(), program_text);
  ASSERT_EQ(lines.lines.size(), 1u);
  EXPECT_EQ(lines.lines[0].where, (SourceLine{"mm.cl", 3}));
  EXPECT_EQ(lines.lines[0].samples, 30);
  EXPECT_EQ(lines.unattributed_samples, 3);  // a line of the prelude
}

TEST(SourceLineSamples, ReadsThePreprocessorsLineMarkersToo) {
  // An automatic mutant's text: clang -E output, its markers with flags after the name.
  const std::string program_text = "# 1 \"<built-in>\"\nint x;\n# 6 \"inc/common.h\" 1\n#define unused\n"
                                   "# 3 \"mm.cl\" 2\n  acc += a[k] * b[k];\n";
  counters::PcSampling pcs;
  pcs.available = true;
  pcs.lines = {sampled("/tmp/nvcl_program_2", 6, 9), sampled("/tmp/nvcl_program_2", 4, 2)};
  const LineSampling lines = lineSamplingFrom(pcs, twoFiles(), program_text);
  ASSERT_EQ(lines.lines.size(), 2u);
  EXPECT_EQ(lines.lines[0].where, (SourceLine{"mm.cl", 3}));
  EXPECT_EQ(lines.lines[1].where, (SourceLine{"inc/common.h", 6}));
}

TEST(SourceLineSamples, KeepsTheBridgesReasonWhenNothingWasSampled) {
  counters::PcSampling pcs;
  pcs.reason = "CUPTI PC sampling: cuptiPCSamplingEnable: CUPTI_ERROR_NOT_SUPPORTED (27)";
  const LineSampling lines = lineSamplingFrom(pcs, twoFiles(), "");
  EXPECT_FALSE(lines.available);
  EXPECT_EQ(lines.reason, pcs.reason);
  EXPECT_TRUE(lines.lines.empty());
}

}  // namespace
}  // namespace rooflab::testing
