// A manifest's kernel arguments against the kernel's declared parameters, each mistake an error that
// names the argument, its position and what the kernel declares.
#include <gtest/gtest.h>

#include "analyzer/plan/argument_check.hpp"

using namespace rooflab;

namespace {

const char* kSource = "kernel void k(global const float* a, global int* b, local float* tile, int n, float alpha) {}";

FamilyManifest family() {
  FamilyManifest f;
  f.buffers = {BufferSpec{"a", ElementType{ScalarKind::f32, 1}, {}, {}, {}, {}},
               BufferSpec{"b", ElementType{ScalarKind::f32, 1}, {}, {}, {}, {}}};
  return f;
}

KernelArgSpec buffer(const std::string& name) {
  KernelArgSpec arg;
  arg.kind = KernelArgSpec::Kind::buffer;
  arg.buffer = arg.text = name;
  return arg;
}
KernelArgSpec scalar(const std::string& text, ScalarKind type = ScalarKind::i32, const std::string& prefix = "") {
  KernelArgSpec arg;
  arg.kind = KernelArgSpec::Kind::scalar;
  arg.scalar_type = type;
  arg.value.text = text;
  arg.text = prefix + text;
  return arg;
}
KernelArgSpec local(const std::string& bytes) {
  KernelArgSpec arg = scalar(bytes, ScalarKind::i32, "local:");
  arg.kind = KernelArgSpec::Kind::local_bytes;
  return arg;
}

ArgumentProblems check(std::vector<KernelArgSpec> args) {
  VariantSpec v;
  v.name = "v";
  LaunchSpec launch;
  launch.kernel = "k";
  launch.args = std::move(args);
  launch.args_key = "variants[0].args";
  launch.args_where = SourceLocation{"family.toml", 7};
  v.launches = {launch};
  return checkLaunchArguments(family(), v, "", kSource);
}

}  // namespace

TEST(ArgumentCheck, RightArgumentsPassAndAnotherElementTypeIsAWarning) {
  const ArgumentProblems p =
      check({buffer("a"), buffer("b"), local("1024"), scalar("N"), scalar("F", ScalarKind::f32, "float:")});
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_EQ(p.warnings[0], "family.toml:7: variants[0].args[1]: variant 'v': argument 1 'b' (parameter 'b' of kernel "
                           "'k') is a buffer of float, but the kernel declares `global int* b` (int elements): the "
                           "kernel reads its bytes as int");
}

TEST(ArgumentCheck, EachMistakeNamesTheArgumentAndTheDeclaration) {
  const ArgumentProblems p = check({scalar("N"), buffer("b"), buffer("a"), local("64"), scalar("F")});
  ASSERT_EQ(p.errors.size(), 4u);
  EXPECT_EQ(p.errors[0],
            "family.toml:7: variants[0].args[0]: variant 'v': argument 0 'N' (parameter 'a' of kernel 'k') "
            "is a scalar, but the kernel declares `global const float* a` (a __global pointer): give a buffer");
  EXPECT_EQ(p.errors[1], "family.toml:7: variants[0].args[2]: variant 'v': argument 2 'a' (parameter 'tile' of kernel "
                         "'k') is a buffer, but the kernel declares `local float* tile` (a __local pointer): give "
                         "local:<bytes>");
  EXPECT_EQ(p.errors[2], "family.toml:7: variants[0].args[3]: variant 'v': argument 3 'local:64' (parameter 'n' of "
                         "kernel 'k') is a __local size, but the kernel declares `int n` (a scalar): give a value");
  EXPECT_EQ(p.errors[3], "family.toml:7: variants[0].args[4]: variant 'v': argument 4 'F' (parameter 'alpha' of kernel "
                         "'k') is int (4 bytes), but the kernel declares `float alpha` (4 bytes): write 'float:F'");
}

TEST(ArgumentCheck, TooFewAndTooManyArgumentsNameTheParameterOrTheArgument) {
  ArgumentProblems p = check({buffer("a"), buffer("b"), local("64")});
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_EQ(p.errors[0], "family.toml:7: variants[0].args: variant 'v': kernel 'k' declares 5 parameters and 3 "
                         "arguments are given: parameter 3, `int n`, has none");
  p = check({buffer("a"), buffer("b"), local("64"), scalar("N"), scalar("F", ScalarKind::f32, "float:"), scalar("7")});
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0], "family.toml:7: variants[0].args[5]: variant 'v': argument 5 '7' has no parameter: kernel 'k' "
                         "declares 5 (remove it)");
}

TEST(ArgumentCheck, ALocalSizeForAGlobalPointerAndALongForAnIntAreErrors) {
  const ArgumentProblems p = check({local("64"), buffer("b"), local("64"), scalar("N", ScalarKind::i64, "long:"),
                                    scalar("F", ScalarKind::f64, "double:")});
  ASSERT_EQ(p.errors.size(), 3u);
  EXPECT_NE(
      p.errors[0].find(
          "is a __local size, but the kernel declares `global const float* a` (a __global pointer): give a buffer"),
      std::string::npos);
  EXPECT_NE(p.errors[1].find("is long (8 bytes), but the kernel declares `int n` (4 bytes): write 'int:N'"),
            std::string::npos);
  EXPECT_NE(p.errors[2].find("is double (8 bytes), but the kernel declares `float alpha` (4 bytes): write 'float:F'"),
            std::string::npos);
}
