// Occupancy padding of mutants (mutators/occupancy_padding.hpp) and the compute-only key beside it; two tests run on
// PoCL.
#include <gtest/gtest.h>

#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/batch/batch.hpp"
#include "mutators/mutant_key.hpp"
#include "mutators/occupancy_padding.hpp"
#include "test_support.hpp"

using namespace rooflab;

// ---- Occupancy padding -------------------------------------------------------------------------

TEST(OccupancyPadding, AddsTheLocalParameterToTheNamedKernelsOnly) {
  const std::string source = R"(// kernel void commented(int x) { }
__kernel void first(global float* a, int n) { a[0] = n; }
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void second (global float* a) { a[1] = 2; }
kernel void third(void) { }
kernel void fourth() { }
typedef int voidish;
kernel void fifth(voidish n) { }
const char* text = "kernel void fake(int y) {";
kernel void untouched(global float* a) { a[2] = 3; }
)";
  const std::string padded = rooflab::addOccupancyPadParameter(source, {"first", "second", "third", "fourth", "fifth"});
  EXPECT_NE(padded.find("__kernel void first(global float* a, int n, local uchar* rl_occupancy_pad) {"),
            std::string::npos)
      << padded;
  EXPECT_NE(padded.find("void second (global float* a, local uchar* rl_occupancy_pad) {"), std::string::npos) << padded;
  EXPECT_NE(padded.find("kernel void third(local uchar* rl_occupancy_pad) {"), std::string::npos) << padded;
  EXPECT_NE(padded.find("kernel void fourth(local uchar* rl_occupancy_pad) {"), std::string::npos) << padded;
  // Only a lone `void` is an empty list: a type whose name starts with "void" keeps its parameter.
  EXPECT_NE(padded.find("kernel void fifth(voidish n, local uchar* rl_occupancy_pad) {"), std::string::npos) << padded;
  EXPECT_NE(padded.find("kernel void untouched(global float* a) {"), std::string::npos) << padded;
  EXPECT_NE(padded.find("// kernel void commented(int x) { }"), std::string::npos);
  EXPECT_NE(padded.find("\"kernel void fake(int y) {\""), std::string::npos);
  EXPECT_THROW(rooflab::addOccupancyPadParameter(source, {"commented"}), std::invalid_argument);
  EXPECT_THROW(rooflab::addOccupancyPadParameter(source, {"fake"}), std::invalid_argument);
}

namespace {

// A kernel whose mutant of `padded_mode` ("memory-only" or "compute-only") drops the original's
// local tile and so uses less local memory: on a device without the PTX bridge rooflab pads it with
// a __local argument of the difference, and records it; the other mutant keeps the tile.
void expectPaddedOnPocl(const std::string& padded_mode) {
  rooflab::testing::TempDir dir;
  const std::string drops = padded_mode == "memory-only" ? "RL_IS_MEMORY_ONLY" : "RL_IS_COMPUTE_ONLY";
  dir.write("kernels/staged/k.cl", R"(
kernel void staged(global const float* a, global const float* b, global float* c, int n) {
  const int i = get_global_id(0);
#if )" + drops + R"(
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
#else
  local float tile[1024];
  const int l = get_local_id(0);
  tile[l] = RL_LOAD(float, a, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(tile[l], RL_LOAD(float, b, i)));
#endif
}
)");
  dir.write("kernels/staged/family.toml", rooflab::testing::vecaddFamilyHeader("staged") + R"([[variants]]
name = "tile"
source = "k.cl"
kernel = "staged"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
)");
  const std::string text =
      "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 1\nmodes = [\"normal\", \"memory-only\", \"compute-only\"]\n"
      "ceilings = \"datasheet\"\nkernels = [\"kernels\"]\nout = \"" +
      (dir.path() / "out").string() + "\"\nformats = [\"json\"]\n[[study]]\nfamily = \"staged\"\n";
  const rooflab::BatchConfig config = rooflab::parseBatchConfig(text, "cfg.toml", dir.path());
  rooflab::BatchOptions options;
  options.progress = false;
  const rooflab::BatchOutcome outcome = rooflab::runBatch(config, options);
  const nlohmann::json results = toJson(outcome.results);
  int seen = 0;
  for (const auto& r : results["records"]) {
    ASSERT_EQ(r["status"], "ok") << r["error"];
    const auto& padding = r["occupancy_padding"];
    if (r["mode"] == "normal") {
      EXPECT_TRUE(padding.is_null());
      EXPECT_EQ(r["verification"]["status"], "passed");
      continue;
    }
    ++seen;
    ASSERT_TRUE(padding.is_object()) << r.dump();
    EXPECT_NE(padding["method"].get<std::string>().find("local memory"), std::string::npos) << padding.dump();
    const auto& launch = padding["launches"][0];
    const std::size_t original = launch["original"]["local_bytes"];
    const std::size_t mutant = launch["mutant"]["local_bytes"];
    EXPECT_TRUE(launch["matched"].get<bool>()) << padding.dump();
    if (r["mode"] == padded_mode) {
      // PoCL 5 (Ubuntu 24.04) reports CL_KERNEL_LOCAL_MEM_SIZE 0 for a kernel's local arrays; Debian's
      // PoCL 3 reports them. Without that report there is nothing to compare.
      if (original == 0) GTEST_SKIP() << "this OpenCL CPU device reports no local memory for the kernel's local array";
      EXPECT_GE(original, 4096u) << padding.dump();
      EXPECT_LT(mutant, original) << padding.dump();
      EXPECT_EQ(launch["pad_bytes"].get<std::size_t>(), original - mutant) << padding.dump();
      EXPECT_TRUE(padding["padded"].get<bool>());
    } else {
      EXPECT_EQ(launch["pad_bytes"].get<std::size_t>(), 0u) << padding.dump();
      EXPECT_FALSE(padding["padded"].get<bool>());
    }
  }
  EXPECT_EQ(seen, 2);
}

}  // namespace

TEST(OccupancyPadding, AMutantWithLessLocalMemoryIsPaddedOnPocl) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  expectPaddedOnPocl("memory-only");
}

// A compute-only mutant's kernel takes its run-time key after its own arguments, and the pad after
// the key: both are set at each launch.
TEST(OccupancyPadding, AComputeOnlyMutantIsPaddedAfterItsKeyOnPocl) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  expectPaddedOnPocl("compute-only");
}

TEST(OccupancyPadding, TheKeyComesBeforeThePad) {
  const std::string source = "kernel void k(global float* a) { a[0] = 1.0f; }\nkernel void other(void) { }\n";
  const std::string keyed = rooflab::addMutantKeyParameter(source, {"k", "other"});
  const std::string both = rooflab::addOccupancyPadParameter(keyed, {"k"});
  EXPECT_NE(both.find("kernel void k(global float* a, const uint rl_mutant_key, local uchar* rl_occupancy_pad) {"),
            std::string::npos)
      << both;
  EXPECT_NE(both.find("kernel void other(const uint rl_mutant_key) { }"), std::string::npos) << both;
  EXPECT_THROW(rooflab::addMutantKeyParameter(source, {"missing"}), std::invalid_argument);
}
