// The lines an automatic mutant changes (AutoMutant::line_changes): each rewrite's kind at the line
// of the user's file it begins on, a header named relative to the family folder.
#include <gtest/gtest.h>

#include "analyzer/manifest/kernel_source.hpp"
#include "binary/auto_mutation_support.hpp"
#include "mutators/auto_mutation.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

using Kind = MutantLineChangeKind;

// Line 5 loads through an index (kept: it decides an address) a value (made up); line 6 calls the
// header's helper, which multiplies (line 2 of the header); line 7 stores.
const char* kLinesKernel = R"(#include "inc/helpers.h"
kernel void scale(global const float* a, global const int* idx, global float* c, float s, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float v = a[idx[i]];
  float w = twice(v) * s;
  c[i] = w + 1.0f;
}
)";
const char* kLinesHeader = R"(inline float twice(float x) {
  return x * 2.0f;
}
)";

AutoMutant mutateLinesFamily(const rooflab::testing::TempDir& dir, AutoMutantKind kind) {
  const std::filesystem::path folder = dir.path() / "fam", file = folder / "src" / "k.cl";
  AutoMutationRequest request;
  request.source_text = joinSourceFiles({file}, folder);
  request.source_path = file.string();
  request.source_folder = folder.string();
  request.build_options = {"-I", folder.string()};  // as the runner's options put the family folder
  request.kernels = {"scale"};
  request.kind = kind;
  return mutateAutomatically(request);
}

std::string autoLinesText(const std::vector<MutantLineChange>& lines) {
  std::string out;
  for (const MutantLineChange& l : lines) {
    out += l.where.file + ":" + std::to_string(l.where.line);
    for (Kind k : l.kinds) out += " " + toString(k);
    out += "\n";
  }
  return out;
}

}  // namespace

TEST(AutoMutationLines, ComputeOnlyNamesTheKeptMadeUpAndGuardedLines) {
  ROOFLAB_REQUIRE_LIBCLANG();
  rooflab::testing::TempDir dir;
  dir.write("fam/src/k.cl", kLinesKernel);
  dir.write("fam/inc/helpers.h", kLinesHeader);
  const AutoMutant mutant = mutateLinesFamily(dir, AutoMutantKind::compute_only);
  ASSERT_TRUE(mutant.source) << mutant.reason;
  // The helper gains the key as a parameter: no change of the user's code, no line.
  EXPECT_EQ(autoLinesText(mutant.line_changes), "src/k.cl:5 kept made-up\n"
                                                "src/k.cl:7 guarded\n");
}

TEST(AutoMutationLines, MemoryOnlyNamesTheFoldedLinesOfTheKernelAndItsHeader) {
  ROOFLAB_REQUIRE_LIBCLANG();
  rooflab::testing::TempDir dir;
  dir.write("fam/src/k.cl", kLinesKernel);
  dir.write("fam/inc/helpers.h", kLinesHeader);
  const AutoMutant mutant = mutateLinesFamily(dir, AutoMutantKind::memory_only);
  ASSERT_TRUE(mutant.source) << mutant.reason;
  EXPECT_EQ(autoLinesText(mutant.line_changes), "inc/helpers.h:2 folded\n"
                                                "src/k.cl:6 folded\n"
                                                "src/k.cl:7 folded\n");
}

TEST(AutoMutationLines, NoMutantNoLines) {
  ROOFLAB_REQUIRE_LIBCLANG();
  rooflab::testing::TempDir dir;
  // Every load decides an address: no compute-only mutant.
  dir.write("fam/src/k.cl", "kernel void scale(global const int* a, global int* c) {\n  c[a[0]] = 1;\n}\n");
  const AutoMutant mutant = mutateLinesFamily(dir, AutoMutantKind::compute_only);
  EXPECT_FALSE(mutant.source);
  EXPECT_TRUE(mutant.line_changes.empty());
}
