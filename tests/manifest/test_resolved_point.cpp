// A study point resolved once: every value the runner, the verifier and the bridge read.
#include <gtest/gtest.h>

#include <cstring>

#include "analyzer/manifest/manifest.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::TempDir;

namespace {

const char* kResolvedKernel = R"(
kernel void scale(global const float* x, global float* y, int n, float f) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, y, i, RL_MUL(RL_LOAD(float, x, i), f));
}
kernel void twice(global float* y, int n, local float* tile) { int i = get_global_id(0); if (i < n) y[i] *= 2; }
)";

const char* kFamily = R"(name = "scale"
[params]
N = 1024
F = 2.5
[work]
flops = "N"
bytes = "8*N"
[[buffers]]
name = "x"
type = "float"
count = "N"
[[buffers]]
name = "y"
type = "float"
count = "N"
access = "write"
[check]
reference = "variant:plain"
tolerance = 1e-6
[[variants]]
name = "plain"
source = "k.cl"
kernel = "scale"
args = ["x", "y", "N", "float:F"]
global = ["N"]
local = ["64"]
defines = { HALF = "N/2" }
build_options = "-cl-fast-relaxed-math"
global_accesses = "2*N"
[[variants]]
name = "two_pass"
source = "k.cl"
tolerance = 1e-3
bytes = "12*N"
scratch = [ { name = "tmp", type = "double", count = "N/4" } ]
launches = [
  { kernel = "scale", args = ["x", "y", "N", "float:F"], global = ["N"] },
  { kernel = "twice", args = ["y", "N", "local:4*32"], global = ["N"], local = ["32"] },
]
)";

class ResolvedPointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("scale/k.cl", kResolvedKernel);
    family_ = loadFamilyManifest(dir_.write("scale/family.toml", kFamily));
  }
  RunPoint point(const std::string& variant, double n) const {
    ParamValues params = family_.params;
    params["N"] = n;
    return RunPoint{&family_, family_.findVariant(variant), params, RunMode::normal};
  }
  TempDir dir_;
  FamilyManifest family_;
};

template <class T>
T decoded(const std::vector<std::byte>& bytes) {
  EXPECT_EQ(bytes.size(), sizeof(T));
  T value{};
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

}  // namespace

TEST_F(ResolvedPointTest, EvaluatesSizesGeometryArgumentsAndWork) {
  const ResolvedPoint r = resolvePoint(point("two_pass", 256));
  ASSERT_EQ(r.buffers.size(), 3u);
  EXPECT_EQ(r.buffers[0].spec->name, "x");
  EXPECT_EQ(r.buffers[0].count, 256u);
  EXPECT_EQ(r.buffers[0].bytes, 1024u);
  EXPECT_FALSE(r.buffers[1].scratch);
  EXPECT_EQ(r.buffers[2].spec->name, "tmp");
  EXPECT_TRUE(r.buffers[2].scratch);
  EXPECT_EQ(r.buffers[2].count, 64u);
  EXPECT_EQ(r.buffers[2].bytes, 512u);
  EXPECT_EQ(r.findBuffer("tmp"), &r.buffers[2]);
  EXPECT_EQ(r.findBuffer("nope"), nullptr);

  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_EQ(r.launches[0].geometry.kernel, "scale");
  EXPECT_EQ(r.launches[0].geometry.global, std::vector<std::int64_t>{256});
  EXPECT_TRUE(r.launches[0].geometry.local.empty());
  ASSERT_EQ(r.launches[0].args.size(), 4u);
  EXPECT_EQ(r.launches[0].args[0].buffer, "x");
  EXPECT_EQ(decoded<std::int32_t>(r.launches[0].args[2].scalar_bytes), 256);
  EXPECT_EQ(decoded<float>(r.launches[0].args[3].scalar_bytes), 2.5f);
  EXPECT_EQ(r.launches[1].geometry.local, std::vector<std::int64_t>{32});
  EXPECT_EQ(r.launches[1].args[2].kind, KernelArgSpec::Kind::local_bytes);
  EXPECT_EQ(r.launches[1].args[2].local_bytes, 128u);

  EXPECT_EQ(r.work.flops, 256);       // the family's
  EXPECT_EQ(r.work.bytes, 12 * 256);  // the variant's own
  EXPECT_FALSE(r.work.global_accesses.has_value());
  EXPECT_EQ(r.tolerance, 1e-3);
  EXPECT_EQ(r.program_options, "");
}

TEST_F(ResolvedPointTest, DefinesAndBuildOptionsBecomeCompilerOptions) {
  const ResolvedPoint r = resolvePoint(point("plain", 512));
  EXPECT_EQ(r.program_options, " -D HALF=256 -cl-fast-relaxed-math");
  EXPECT_EQ(r.tolerance, 1e-6);
  EXPECT_EQ(r.work.global_accesses, 1024);
}

TEST_F(ResolvedPointTest, AScalarThatDoesNotFitItsTypeFailsTheVariantNotTheManifest) {
  const RunPoint big = point("plain", 4294967296.0);  // 2^32: a valid size, but not an int
  EXPECT_NO_THROW(validateForParams(family_, *big.variant, big.params));
  try {
    resolvePoint(big);
    FAIL() << "resolvePoint accepted N = 2^32 for an int argument";
  } catch (const VariantError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit its integer type"), std::string::npos) << e.what();
  }
}

TEST_F(ResolvedPointTest, APlannedPointKeepsWhyItCouldNotBeResolved) {
  const PlannedPoint bad = planPoint(point("plain", 100));  // 100 is not a multiple of 64
  EXPECT_FALSE(bad.resolved.has_value());
  EXPECT_NE(bad.resolve_error.find("family.toml"), std::string::npos) << bad.resolve_error;
  EXPECT_NE(bad.resolve_error.find("not a multiple of local size 64"), std::string::npos) << bad.resolve_error;
  EXPECT_EQ(bad.run_point.params.at("N"), 100);

  const PlannedPoint good = planPoint(point("plain", 128));
  ASSERT_TRUE(good.resolved.has_value());
  EXPECT_TRUE(good.resolve_error.empty());
  EXPECT_EQ(good.resolved->run_point.variant, good.run_point.variant);
}
