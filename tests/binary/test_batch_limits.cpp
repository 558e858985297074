// The limits of a batch as a user meets them: a sweep too large for max_points is refused from its
// size, before a single point is expanded; a point that runs out of time says in which phase; memory
// and a signal from outside are named as what they are.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <string>

#include "analyzer/json/json_file_io.hpp"
#include "background_run.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {
namespace {

// AddressSanitizer reserves terabytes of address space for its shadow memory, so a binary built
// with it cannot start under `ulimit -v`: the tests that set one run in the normal build only.
#if defined(__SANITIZE_ADDRESS__)
#define ROOFLAB_SKIP_UNDER_ASAN() GTEST_SKIP() << "AddressSanitizer's shadow memory does not fit under ulimit -v"
#else
#define ROOFLAB_SKIP_UNDER_ASAN() static_cast<void>(0)
#endif

std::string valueList(int count, int first) {
  std::string list;
  for (int i = 0; i < count; ++i) list += (i ? ", " : "") + std::to_string(first + i);
  return list;
}

// Six million points (6 variants x 100^3 parameter values). Expanding and resolving them took over
// a minute and more than a gigabyte; counted from the sweep's shape, the refusal needs neither, so
// the run is held to 1 GB of address space here, which no planning of that sweep fits in.
TEST(BatchLimits, AMillionPointSweepIsRefusedFromItsSize) {
  ROOFLAB_SKIP_UNDER_ASAN();
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  dir.write("sweep.toml",
            std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"*\"]\nparams = { N = [" +
                valueList(100, 1024) + "], WG = [" + valueList(100, 1) + "], VPI = [" + valueList(100, 1) + "] }\n");
  const BinaryOutcome outcome = runRooflab("run sweep.toml", dir.path(), "ulimit -v 1000000; ");
  EXPECT_EQ(outcome.exit_code, 2) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "the batch has 6000000 points, more than [run] max_points = 10000"))
      << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "narrow the sweep or raise max_points")) << show(outcome);
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << "nothing may be written";
}

// A family of one variant, `add` over a, b and c, whose source is `source`.
void writeAddFamily(const TempDir& dir, const std::string& source) {
  dir.write("kernels/add/add.cl", source);
  dir.write("kernels/add/family.toml", vecaddFamilyHeader("add") + R"([[variants]]
name = "only"
source = "add.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
)");
}

std::string onlyStudy(const std::string& run_extra) {
  return replaced(kQuickCpuRun, "out = \"out\"\n", "out = \"out\"\n" + run_extra) +
         "[[study]]\nfamily = \"add\"\nvariants = [\"only\"]\n";
}

nlohmann::json onlyRecord(const TempDir& dir) {
  const nlohmann::json results = readJsonFile(dir.path() / "out" / "results.json");
  EXPECT_EQ(results["records"].size(), 1u);
  return results["records"].at(0);
}

// A kernel of 40,000 statements: PoCL compiles it for far longer than 3 s. The record must not call
// it a hang and nothing else.
TEST(BatchLimits, ALongCompileIsNamedAsTheCompilerNeverAsAHang) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  std::string source = "kernel void add(global const float* a, global const float* b, global float* c, int n) {\n"
                       "  int i = get_global_id(0);\n  if (i >= n) return;\n  float x = a[i], y = b[i];\n";
  for (int k = 0; k < 20000; ++k)
    source += "  x = x * y + " + std::to_string(k % 97) + ".5f; y = y * x - " + std::to_string(k % 89) + ".25f;\n";
  writeAddFamily(dir, source + "  c[i] = x + y;\n}\n");
  dir.write("big.toml", onlyStudy("variant_time_limit_s = 3\n"));
  const BinaryOutcome outcome = runRooflab("run big.toml", dir.path());
  EXPECT_EQ(outcome.exit_code, 1) << show(outcome);
  const nlohmann::json record = onlyRecord(dir);
  EXPECT_EQ(record["status"], "timed_out");
  const std::string error = record["error"].get<std::string>();
  // PoCL parses the source when the program is built and generates its code at the first launch:
  // the limit runs out in one or the other (the build, on a slow or instrumented build of rooflab),
  // and either way the record says the compiler is the one still at work, never the kernel.
  EXPECT_TRUE(contains(error, "variant_time_limit_s = 3 s")) << error;
  EXPECT_TRUE(contains(error, "still being compiled")) << error;
  EXPECT_FALSE(contains(error, "hangs")) << error;
}

const char* const kSpinningAdd =
    "kernel void add(global const float* a, global const float* b, global float* c, int n) {\n"
    "  int i = get_global_id(0);\n  volatile global float* out = c;\n"
    "  if (i < n) while (out[i] != 12345.0f) out[i] = a[i] * 0.0f + 1.0f;\n}\n";

// `kill <worker>` from another terminal, or a job scheduler's SIGTERM: the record names the signal and
// its sender, not the kernel, and the batch goes on.
TEST(BatchLimits, ASigtermSentToTheWorkerFromOutsideIsNamedWithItsSender) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeAddFamily(dir, kSpinningAdd);
  dir.write("spin.toml", onlyStudy("variant_time_limit_s = 600\n"));
  BackgroundRun run("'" + std::string(ROOFLAB_BINARY) + "' run spin.toml", dir.path(), dir.path() / "log");
  std::vector<pid_t> workers;
  ASSERT_TRUE(run.waitUntil([&] { return !(workers = childrenOf(run.pid())).empty(); }, 60)) << run.text();
  ASSERT_TRUE(run.waitForOutput("rooflab: 1 points", 60)) << run.text();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the kernel spins
  for (pid_t worker : workers) ::kill(worker, SIGTERM);
  EXPECT_EQ(run.wait(60), 1) << run.text();
  const nlohmann::json record = onlyRecord(dir);
  EXPECT_EQ(record["status"], "crashed");
  const std::string error = record["error"].get<std::string>();
  EXPECT_TRUE(contains(error, "SIGTERM sent from outside the batch by process ")) << error;
  EXPECT_TRUE(contains(error, "not a fault of the kernel")) << error;
}

// Under `ulimit -v` too small for the OpenCL driver, the run says memory, not a missing driver.
TEST(BatchLimits, NoDeviceUnderAnAddressSpaceLimitNamesTheLimit) {
  ROOFLAB_SKIP_UNDER_ASAN();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeAddFamily(dir, kSpinningAdd);
  dir.write("small.toml", onlyStudy(""));
  const BinaryOutcome outcome = runRooflab("run small.toml", dir.path(), "ulimit -v 200000; ");
  EXPECT_EQ(outcome.exit_code, 3) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "no OpenCL device found: this process may use at most 195 MiB of address space "
                                    "(ulimit -v), and an OpenCL driver may not load within it"))
      << show(outcome);
}

// A buffer the host cannot hold under the address-space limit: the record says memory ran out and
// names the limit, not a bare "std::bad_alloc".
TEST(BatchLimits, AHostBufferBeyondTheAddressSpaceLimitSaysMemoryRanOut) {
  ROOFLAB_SKIP_UNDER_ASAN();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeAddFamily(dir, kSpinningAdd);
  dir.write("huge.toml", onlyStudy("") + "params = { N = [536870912] }\n");  // 2 GiB per buffer
  const BinaryOutcome outcome = runRooflab("run huge.toml", dir.path(), "ulimit -v 1500000; ");
  EXPECT_EQ(outcome.exit_code, 1) << show(outcome);
  const nlohmann::json record = onlyRecord(dir);
  EXPECT_EQ(record["status"], "error");
  const std::string error = record["error"].get<std::string>();
  EXPECT_TRUE(contains(error, "the host ran out of memory")) << error;
  EXPECT_TRUE(contains(error, "at most 1464 MiB of address space (ulimit -v)")) << error;
}

// Inputs that nearly fill the address-space limit: the worker is slow to generate them, then the
// driver's own allocation fails. Whether the limit runs out first or the worker dies, the record says
// memory, never the compiler or a hanging kernel.
TEST(BatchLimits, InputsThatFillTheAddressSpaceLimitAreNamedAsMemoryNotTheCompiler) {
  ROOFLAB_SKIP_UNDER_ASAN();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  writeAddFamily(dir, "kernel void add(global const float* a, global const float* b, global float* c, int n) {\n"
                      "  int i = get_global_id(0);\n  if (i < n) c[i] = a[i] + b[i];\n}\n");
  // Three buffers of 480 MB: the host copies alone come near a 1464 MiB limit.
  dir.write("near.toml", onlyStudy("variant_time_limit_s = 2\n") + "params = { N = [120000000] }\n");
  const BinaryOutcome outcome = runRooflab("run near.toml", dir.path(), "ulimit -v 1500000; ");
  EXPECT_EQ(outcome.exit_code, 1) << show(outcome);
  const nlohmann::json record = onlyRecord(dir);
  EXPECT_NE(record["status"], "ok");
  const std::string error = record["error"].get<std::string>();
  EXPECT_TRUE(contains(error, "at most 1464 MiB of address space (ulimit -v)")) << error;
  EXPECT_FALSE(contains(error, "compiled")) << error;
  EXPECT_FALSE(contains(error, "hangs")) << error;
}

}  // namespace
}  // namespace rooflab::testing
