// A kernel's parameters read from its text: pointers and their address spaces, scalar types through
// macros and typedefs, and the cases it declines to read rather than guess.
#include <gtest/gtest.h>

#include "analyzer/manifest/kernel_signature.hpp"

using namespace rooflab;
using Space = KernelParameter::Space;

namespace {

std::vector<KernelParameter> read(const std::string& source, const std::string& kernel,
                                  const std::string& options = "") {
  const auto parameters = readKernelParameters(source, kernel, definesOfOptions(options));
  EXPECT_TRUE(parameters.has_value()) << source;
  return parameters.value_or(std::vector<KernelParameter>{});
}

}  // namespace

TEST(KernelSignature, ReadsPointersTheirSpacesAndScalarTypes) {
  const auto p = read("__kernel void k(__global const float* restrict a, local int* t, __constant float4 *w,\n"
                      "                unsigned int n, const float alpha, float x[]) { }",
                      "k");
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].name, "a");
  EXPECT_EQ(p[0].declaration, "__global const float* restrict a");
  EXPECT_TRUE(p[0].pointer);
  EXPECT_EQ(p[0].space, Space::global);
  EXPECT_EQ(p[0].type->name(), "float");
  EXPECT_EQ(p[1].space, Space::local);
  EXPECT_EQ(p[2].space, Space::constant);
  EXPECT_EQ(p[2].type->name(), "float4");
  EXPECT_FALSE(p[3].pointer);
  EXPECT_EQ(p[3].type->name(), "uint");
  EXPECT_EQ(p[4].type->name(), "float");
  EXPECT_TRUE(p[5].pointer);
}

TEST(KernelSignature, ExpandsBuildOptionDefinesBeforeTheSourcesMacrosAndTypedefs) {
  const std::string source =
      "#ifndef real\n#define real float\n#endif\n#define GPTR __global real*\ntypedef double acc_t;\n"
      "kernel void k(GPTR x, const real alpha, acc_t beta) { }";
  auto p = read(source, "k");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].pointer);
  EXPECT_EQ(p[0].space, Space::global);
  EXPECT_EQ(p[1].type->name(), "float");
  EXPECT_EQ(p[2].type->name(), "double");
  p = read(source, "k", " -D real=double -D VW=4");
  EXPECT_EQ(p[0].type->name(), "double");
  EXPECT_EQ(p[1].type->name(), "double");
}

TEST(KernelSignature, AMacroDefinedDifferentlyUnderBranchesLeavesTheTypeUnknownNotThePointer) {
  const auto p = read("#if P == 32\n#define real float\n#else\n#define real double\n#endif\n"
                      "kernel void k(global real* x, real alpha, MYSTERY beta) { }",
                      "k");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].pointer);
  EXPECT_FALSE(p[0].type.has_value());
  EXPECT_TRUE(p[1].known);
  EXPECT_FALSE(p[1].pointer);
  EXPECT_FALSE(p[1].type.has_value());
  EXPECT_FALSE(p[2].known);  // an unknown name may be a pointer type from a header not followed
}

TEST(KernelSignature, DeclinesWhatItCannotReadForCertain) {
  const std::map<std::string, std::string> none;
  EXPECT_FALSE(readKernelParameters("kernel void k(int a) {}\nkernel void k(int a, int b) {}", "k", none));
  EXPECT_FALSE(readKernelParameters("kernel void k(int a,\n#if X\n int b\n#endif\n) {}", "k", none));
  EXPECT_FALSE(readKernelParameters("kernel void k(PARAMS) {}", "k", none));
  EXPECT_FALSE(readKernelParameters("kernel void other(int a) {}", "k", none));
  EXPECT_TRUE(readKernelParameters("kernel void k(void) {}", "k", none)->empty());
  const auto image = read("kernel void k(read_only image2d_t img, sampler_t s) {}", "k");
  EXPECT_FALSE(image[0].known);
  EXPECT_FALSE(image[1].known);
}
