// Local memory through the binary: a launch's `local:` arguments are counted once against the
// device's limit (CL_KERNEL_LOCAL_MEM_SIZE already includes the local arguments set on the kernel,
// per clGetKernelWorkGroupInfo), and a mutant's padding compares the original and the mutant by
// the same figure.
#include "binary/reliability_workspace.hpp"

namespace {

// Stages a through a __local argument the size of the `local:` argument (L bytes); the memory-only
// mutant also drops a local array of its own, so that it uses 4096 bytes less than the original.
const char* kStagedSource = R"(
kernel void staged(global const float* a, global const float* b, global float* c, local float* stage, int n) {
  const int i = get_global_id(0);
  const int l = get_local_id(0);
#if RL_IS_MEMORY_ONLY
  stage[l] = RL_LOAD(float, a, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(stage[l], RL_LOAD(float, b, i)));
#else
  local float tile[1024];
  tile[l] = RL_LOAD(float, a, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  stage[l] = tile[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(stage[l], RL_LOAD(float, b, i)));
#endif
}
)";

std::string stagedFamily(std::uint64_t local_arg_bytes) {
  return rooflab::testing::vecaddFamilyHeader("staged") +
         "[[variants]]\nname = \"stage\"\nsource = \"add.cl\"\n"
         "kernel = \"staged\"\nargs = [\"a\", \"b\", \"c\", \"local:" +
         std::to_string(local_arg_bytes) +
         "\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\nglobal_accesses = \"3*N\"\n";
}

// A kernel folder with the staged family alone, and a config that studies it.
struct StagedWorkspace {
  TempDir dir;
  StagedWorkspace(std::uint64_t local_arg_bytes, const std::string& config) {
    dir.write("kernels/staged/add.cl", kStagedSource);
    dir.write("kernels/staged/family.toml", stagedFamily(local_arg_bytes));
    dir.write("cfg.toml", config);
  }
  Outcome run() const { return runRooflab("run cfg.toml --quiet", dir.path()); }
  nlohmann::json results() const { return readJsonFile(dir.path() / "out" / "results.json"); }
};

std::uint64_t cpuLocalMemBytes() {
  for (const auto& d : discoverDevices())
    if (d.info.type == "CPU") return d.info.local_mem_bytes;
  return 0;
}

}  // namespace

// L between half and all of the device's local memory fits: the launch must not count it twice.
TEST(LocalMemory, AnArgumentOverHalfTheDevicesLocalMemoryRuns) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const std::uint64_t device_bytes = cpuLocalMemBytes();
  ASSERT_GT(device_bytes, 16384u);
  // 60% of the device's, less the 4 KiB local array of the kernel itself, rounded to whole floats.
  const std::uint64_t argument = (device_bytes * 6 / 10 - 4096) / 4 * 4;
  const StagedWorkspace w(argument, std::string(kRun) + study("staged"));
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
  const nlohmann::json record = recordOf(w.results(), "stage");
  ASSERT_TRUE(record.is_object()) << show(o);
  EXPECT_EQ(record["status"], "ok") << record["error"];
  EXPECT_EQ(record["verification"]["status"], "passed") << record["verification"].dump();
}

// A memory-only mutant that declares 4096 bytes less local memory than its original is compared
// with it by what each declares, whatever their `local:` arguments (both launches take the same
// ones), and padded by the difference where the device reports it.
TEST(LocalMemory, AMutantIsPaddedByTheLocalMemoryItDeclaresLessThanTheOriginal) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const std::string config =
      replaced(std::string(kRun) + study("staged"), "modes = [\"normal\"]", "modes = [\"normal\", \"memory-only\"]");
  const StagedWorkspace w(8192, config);
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
  int mutants = 0;
  const nlohmann::json results = w.results();
  for (const auto& r : results["records"]) {
    ASSERT_EQ(r["status"], "ok") << r["error"];
    if (r["mode"] != "memory-only") continue;
    ++mutants;
    const nlohmann::json& padding = r["occupancy_padding"];
    ASSERT_TRUE(padding.is_object()) << r.dump();
    const nlohmann::json& launch = padding["launches"][0];
    const std::uint64_t original = launch["original"]["local_bytes"], mutant = launch["mutant"]["local_bytes"];
    // The 8192-byte argument is the same for both launches: a figure that counted it for one and
    // not the other would make the smaller mutant look the larger, and leave it unpadded.
    EXPECT_LE(mutant, original) << "the mutant declares less local memory than its original\n" << padding.dump(1);
    EXPECT_TRUE(launch["matched"].get<bool>()) << padding.dump(1);
    // PoCL 5 reports no local memory for a kernel's local arrays: then both figures are 0, and
    // there is nothing to pad.
    if (original == 0) continue;
    EXPECT_EQ(original, mutant + 4096) << padding.dump(1);
    EXPECT_EQ(launch["pad_bytes"].get<std::uint64_t>(), 4096u) << padding.dump(1);
    EXPECT_TRUE(padding["padded"].get<bool>()) << padding.dump(1);
  }
  EXPECT_EQ(mutants, 1);
}
