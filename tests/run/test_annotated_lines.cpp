// The lines an annotated mutant changes (analyzer/run/annotated_lines.hpp): where the variant's
// files use prelude.cl's annotations, with what each does in the mode, and the code an `#if` on the
// mode drops.
#include <gtest/gtest.h>

#include "analyzer/run/annotated_lines.hpp"
#include "analyzer/run/source_line_samples.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

using Kind = MutantLineChangeKind;

const char* kAnnotatedLinesKernel = R"(// RL_LOAD in a comment is no annotation
#define STORE2(p, i, v) RL_STORE(float, p, i, v)
kernel void k(global const float* a, global float* c) {
  int i = get_global_id(0);
  float x = RL_LOAD(float, a, i);
  float y = RL_MUL(x, x); /* RL_STORE
     RL_LOAD4 */
#if RL_IS_MEMORY_ONLY
  y = rl_fold(y, x);
#else
  y = RL_FMA(y, x, 1.0f);
#endif
#ifdef USE_EXTRA
  y = RL_ADD(y, 2.0f);
#endif
#if RL_MODE != RL_COMPUTE_ONLY
  y += 1.0f;
#endif
  STORE2(c, i, y);
}
)";

SourceFileText annotatedFileText(const std::string& path, const std::string& text) {
  SourceFileText file{path, {}};
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) file.lines.push_back(line);
  return file;
}

std::string annotatedLinesText(const std::vector<MutantLineChange>& lines) {
  std::string out;
  for (const MutantLineChange& l : lines) {
    out += l.where.file + ":" + std::to_string(l.where.line);
    for (Kind k : l.kinds) out += " " + toString(k);
    out += "\n";
  }
  return out;
}

}  // namespace

TEST(AnnotatedLines, ComputeOnlyMakesUpLoadsGuardsStoresAndDropsWhatItsIfLeavesOut) {
  const auto lines = annotatedLineChanges({annotatedFileText("k.cl", kAnnotatedLinesKernel)}, RunMode::compute_only);
  // The store is named where the user's macro wraps it; the region under `#ifdef USE_EXTRA` is the
  // same in both programs; the line under `RL_MODE != RL_COMPUTE_ONLY` is the original's only.
  EXPECT_EQ(annotatedLinesText(lines), "k.cl:2 guarded\n"
                                       "k.cl:5 made-up\n"
                                       "k.cl:17 removed\n");
}

TEST(AnnotatedLines, MemoryOnlyFoldsArithmeticAndDropsTheBranchItDoesNotCompile) {
  const auto lines = annotatedLineChanges({annotatedFileText("k.cl", kAnnotatedLinesKernel)}, RunMode::memory_only);
  EXPECT_EQ(annotatedLinesText(lines), "k.cl:6 folded\n"
                                       "k.cl:11 removed\n"
                                       "k.cl:14 folded\n");
}

TEST(AnnotatedLines, OtherModesChangeNothing) {
  EXPECT_TRUE(annotatedLineChanges({annotatedFileText("k.cl", kAnnotatedLinesKernel)}, RunMode::normal).empty());
}

TEST(AnnotatedLines, TheVariantsFilesAndTheHeadersTheyIncludeAreRead) {
  rooflab::testing::TempDir dir;
  const std::filesystem::path k = dir.write("fam/src/k.cl", "#include \"common.h\"\nfloat f;\n");
  dir.write("fam/common.h", "// #include \"missing.h\"\n#include \"src/k.cl\"\nfloat g = RL_LOAD(float, p, 0);\n");
  VariantSpec variant;
  variant.sources = {k};
  variant.include_dir = dir.path() / "fam";
  const std::vector<SourceFileText> files = variantSourceFiles(variant);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "src/k.cl");
  EXPECT_EQ(files[0].lines, (std::vector<std::string>{"#include \"common.h\"", "float f;"}));
  EXPECT_EQ(files[1].path, "common.h");
  EXPECT_EQ(annotatedLinesText(annotatedLineChanges(files, RunMode::compute_only)), "common.h:3 made-up\n");
}
