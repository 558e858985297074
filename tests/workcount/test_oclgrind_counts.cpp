// Work counted by oclgrind: its histograms read back, the flops and accesses rule, the scaling, the
// family.toml lines; and a real launch of vecadd under oclgrind counted exactly.
#include <gtest/gtest.h>

#include "analyzer/workcount/oclgrind_counts.hpp"
#include "test_support.hpp"

namespace rooflab {
namespace {

// What oclgrind 21.10 printed for a kernel with float4 arithmetic, fma, mad, sqrt, vload4/vstore4 and
// local memory, then a second launch, with the program's own line between.
constexpr const char* kOutput = R"(Instructions executed for kernel 'mixed':
            4096 - getelementptr
            3072 - load global (12288 bytes)
            2048 - call _Z6vload4mPU3AS1Kf()
            2048 - store global (8192 bytes)
            1024 - call _Z13get_global_idj()
            1024 - call _Z3fmafff()
            1024 - call _Z3madfff()
            1024 - call _Z4sqrtf()
            1024 - call _Z7vstore4Dv4_fmPU3AS1f()
            1024 - call llvm.fmuladd.v4f32()
            1024 - fadd
            1024 - fdiv
            1024 - load local (4096 bytes)
            1024 - store local (4096 bytes)

c[10]=1.00476
Instructions executed for kernel 'vecadd':
             128 - fadd
             256 - load global (1024 bytes)
             128 - store global (512 bytes)
)";

TEST(OclgrindCounts, ReadsEveryLaunchsHistogram) {
  const std::vector<LaunchInstructionCounts> launches = parseOclgrindInstCounts(kOutput);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "mixed");
  ASSERT_EQ(launches[0].instructions.size(), 14u);
  EXPECT_EQ(launches[0].instructions[1].instruction, "load global");
  EXPECT_EQ(launches[0].instructions[1].count, 3072u);
  EXPECT_EQ(launches[0].instructions[1].bytes, 12288u);
  EXPECT_EQ(launches[0].instructions[2].instruction, "call _Z6vload4mPU3AS1Kf()");
  EXPECT_EQ(launches[1].kernel, "vecadd");
  EXPECT_EQ(launches[1].instructions.size(), 3u);
}

TEST(OclgrindCounts, CountsFlopsAndGlobalAccessesByTheRule) {
  const MeasuredWork work = measuredWork(parseOclgrindInstCounts(kOutput)[0], 16, 16);
  // fadd + fdiv: 1 each; fma, mad: 2; llvm.fmuladd.v4f32: 2 x 4 lanes; sqrt not counted (and said),
  // get_global_id not a float call.
  EXPECT_DOUBLE_EQ(work.counted_flops, 1024 + 1024 + 2 * 1024 + 2 * 1024 + 8 * 1024);
  // Scalar loads 3072, vload4 calls 2048 x 4 elements; stores 2048 + vstore4 1024 x 4. Local memory apart.
  EXPECT_EQ(work.counted_global_loads, 3072u + 2048u * 4);
  EXPECT_EQ(work.counted_global_stores, 2048u + 1024u * 4);
  EXPECT_EQ(work.counted_global_load_bytes, 12288u + 2048u * 16);
  EXPECT_EQ(work.counted_global_store_bytes, 8192u + 1024u * 16);
  ASSERT_EQ(work.uncounted_calls.size(), 1u);
  EXPECT_EQ(work.uncounted_calls[0].instruction, "call _Z4sqrtf()");
  EXPECT_DOUBLE_EQ(work.flops, work.counted_flops);
}

TEST(OclgrindCounts, ScalesFromTheWorkGroupsThatRan) {
  const MeasuredWork work = measuredWork(parseOclgrindInstCounts(kOutput)[1], 2, 8);
  EXPECT_DOUBLE_EQ(work.flops, 128 * 4);
  EXPECT_DOUBLE_EQ(work.global_accesses, (256 + 128) * 4);
  EXPECT_DOUBLE_EQ(work.bytes, (1024 + 512) * 4);
  EXPECT_EQ(familyWorkToml(work), "# counted by oclgrind --inst-counts, scaled from 2 of 8 work-groups\n"
                                  "flops = \"512\"\nglobal_accesses = \"1536\"\nbytes = \"6144\"\n");
}

// vecadd over N = 4096 floats in 64 work-groups of 64, run under oclgrind: 8 of them counted, then
// scaled, give exactly N adds, 2N loads and N stores.
TEST(OclgrindCounts, VecaddUnderOclgrindCountsNAddsTwoNLoadsNStores) {
  if (!findOclgrind()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh installs it)";
  const OclgrindRun run = runUnderOclgrind({ROOFLAB_OCLGRIND_VECADD, "4096", "8"}, 60);
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<LaunchInstructionCounts> launches = parseOclgrindInstCounts(run.output);
  ASSERT_EQ(launches.size(), 1u) << run.output;
  const MeasuredWork work = measuredWork(launches[0], 8, 64);
  EXPECT_EQ(work.counted_flops, 8 * 64);
  EXPECT_EQ(work.counted_global_loads, 2u * 8 * 64);
  EXPECT_EQ(work.counted_global_stores, 8u * 64);
  EXPECT_DOUBLE_EQ(work.flops, 4096);
  EXPECT_DOUBLE_EQ(work.global_accesses, 3 * 4096);
  EXPECT_DOUBLE_EQ(work.bytes, 3 * 4096 * 4);
  EXPECT_TRUE(work.uncounted_calls.empty());
}

// The built-in vecadd family's first point, its launch cut to 8 of its 256 work-groups and run once by
// this rooflab under oclgrind: the lines its family.toml would get equal its manifest's formulas.
TEST(OclgrindCounts, CountsAFamilyPointThroughTheBinary) {
  if (!findOclgrind()) GTEST_SKIP() << "oclgrind is not installed (scripts/setup-debian.sh installs it)";
  testing::TempDir dir;
  dir.write("c.toml", "[run]\nmodes = [\"normal\"]\ncounters = \"off\"\n[[study]]\nfamily = \"vecadd\"\n"
                      "variants = [\"global\"]\nparams = { N = [65536] }\n");
  const testing::BinaryOutcome counted = testing::runRooflab("__count-work c.toml 0 8", dir.path());
  ASSERT_EQ(counted.exit_code, 0) << testing::show(counted);
  EXPECT_EQ(counted.out, "# kernel vecadd_global\n"
                         "# counted by oclgrind --inst-counts, scaled from 8 of 256 work-groups\n"
                         "flops = \"65536\"\nglobal_accesses = \"196608\"\nbytes = \"786432\"\n");
  const testing::BinaryOutcome missing = testing::runRooflab("__count-work c.toml 3 8", dir.path());
  EXPECT_EQ(missing.exit_code, 2) << testing::show(missing);
  EXPECT_TRUE(testing::contains(missing.err, "no point 3 (the batch plans 1)")) << testing::show(missing);
}

}  // namespace
}  // namespace rooflab
