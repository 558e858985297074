// A family as `rooflab capture` writes one (docs/manifest.md, "Repeated launches" and "Data from
// files, the application's own outputs, work not known"), run through the binary: inputs from files,
// the application's outputs as the reference, a 50-step stencil as one repeated entry with its
// buffers exchanged, and work nobody measured, which runs and verifies but stays off the roofline.
#include <cmath>
#include <cstring>

#include "binary/reliability_workspace.hpp"

namespace {

constexpr int kN = 1024;
constexpr int kSteps = 50;

const char* kCapturedSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
// One step of a 3-point average with a source term that grows with the step.
kernel void smooth(global const float* in, global float* out, int n, float source) {
  int k = get_global_id(0);
  if (k >= n) return;
  const float left = in[k > 0 ? k - 1 : k];
  const float right = in[k + 1 < n ? k + 1 : k];
  out[k] = (left + in[k] + right) / 3.0f + source;
}
)";

const char* kCapturedFamily = R"(name = "captured"
[params]
N = 1024
STEPS = 50
[work]
flops = "unmeasured"
bytes = "12*N"
[[buffers]]
name = "a"
type = "float"
count = "N"
init = "file:data/a.bin"
[[buffers]]
name = "b"
type = "float"
count = "N"
init = "file:data/b.bin"
[[buffers]]
name = "c"
type = "float"
count = "N"
access = "write"
expect = "file:data/c.bin"
[[buffers]]
name = "u"
type = "float"
count = "N"
access = "read_write"
init = "file:data/u.bin"
expect = "file:data/u_final.bin"
[[buffers]]
name = "v"
type = "float"
count = "N"
access = "write"
[check]
reference = "outputs"
tolerance = 1e-5
[[variants]]
name = "replay"
source = "k.cl"
launches = [
  { kernel = "add", args = ["a", "b", "c", "N"], global = ["N"], local = ["64"] },
  { kernel = "smooth", args = ["u", "v", "N", "float:0.001*step"], global = ["N"], local = ["64"], repeat = "STEPS", index = "step", pingpong = [["u", "v"]] },
]
)";

std::string bytesOf(const std::vector<float>& values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The application's data and what it computed, on the host: c = a + b, and u after kSteps steps
// (an even count, so the last step wrote u).
struct CapturedData {
  std::vector<float> a, b, c, u, u_final;
  CapturedData() : a(kN), b(kN), c(kN), u(kN) {
    for (int i = 0; i < kN; ++i) {
      a[i] = 0.25f * static_cast<float>(i % 17);
      b[i] = 1.0f - 0.125f * static_cast<float>(i % 5);
      c[i] = a[i] + b[i];
      u[i] = std::sin(0.05f * static_cast<float>(i));
    }
    std::vector<float> in = u, out(kN);
    for (int step = 0; step < kSteps; ++step) {
      const float source = static_cast<float>(0.001 * step);
      for (int k = 0; k < kN; ++k) {
        const float left = in[k > 0 ? k - 1 : k], right = in[k + 1 < kN ? k + 1 : k];
        out[k] = (left + in[k] + right) / 3.0f + source;
      }
      std::swap(in, out);
    }
    u_final = in;
  }
};

struct CapturedWorkspace {
  TempDir dir;
  explicit CapturedWorkspace(const CapturedData& data = CapturedData()) {
    dir.write("kernels/captured/k.cl", kCapturedSource);
    dir.write("kernels/captured/family.toml", kCapturedFamily);
    dir.write("kernels/captured/data/a.bin", bytesOf(data.a));
    dir.write("kernels/captured/data/b.bin", bytesOf(data.b));
    dir.write("kernels/captured/data/c.bin", bytesOf(data.c));
    dir.write("kernels/captured/data/u.bin", bytesOf(data.u));
    dir.write("kernels/captured/data/u_final.bin", bytesOf(data.u_final));
    dir.write("cfg.toml", std::string(kRun) + "[[study]]\nfamily = \"captured\"\n");
  }
  Outcome run() const { return runRooflab("run cfg.toml", dir.path()); }
  nlohmann::json record() const { return recordOf(readJsonFile(dir.path() / "out" / "results.json"), "replay"); }
};

}  // namespace

TEST(CapturedFamily, RunsVerifiesAgainstItsOwnOutputsAndStaysUnplaced) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const CapturedWorkspace w;
  const Outcome o = w.run();
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const nlohmann::json record = w.record();
  ASSERT_TRUE(record.is_object()) << show(o);
  EXPECT_EQ(record["status"], "ok") << record.dump(1);
  EXPECT_EQ(record["verification"]["status"], "passed") << record["verification"].dump(1);
  EXPECT_EQ(record["verification"]["reference"], "outputs");
  // One entry per launch in the record's geometry, each repetition enqueued: 1 + 50 launches timed.
  EXPECT_EQ(record["geometry"]["launches"].size(), 2u);
  EXPECT_TRUE(record["work"]["flops"].is_null()) << record["work"].dump();
  EXPECT_EQ(record["work"]["unmeasured"], nlohmann::json::array({"flops"})) << record["work"].dump();
  bool unplaced = false;
  for (const auto& [key, placement] : record["roofline"].items())
    if (placement.contains("unplaced")) {
      unplaced = true;
      EXPECT_EQ(placement["unplaced"], "work not measured") << key;
      EXPECT_TRUE(placement["intensity"].is_null()) << key;
      EXPECT_TRUE(placement["achieved_gflops"].is_null()) << key;
      EXPECT_EQ(placement["bound"], "unknown") << key;
    }
  EXPECT_TRUE(unplaced) << record["roofline"].dump(1);
  EXPECT_TRUE(contains(o.out, "unplaced: work not measured")) << show(o);
  EXPECT_TRUE(contains(o.out, "passed")) << show(o);
}

TEST(CapturedFamily, AWrongExpectedOutputFailsVerificationNamingTheBuffer) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  CapturedData data;
  for (float& value : data.u_final) value += 0.5f;  // the stencil's result, wrong
  const CapturedWorkspace w(data);
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const nlohmann::json verification = w.record()["verification"];
  EXPECT_EQ(verification["status"], "failed") << verification.dump(1);
  const std::string detail = verification["detail"].is_string() ? verification["detail"].get<std::string>() : "";
  EXPECT_TRUE(contains(detail, "u:")) << verification.dump(1);
  EXPECT_FALSE(contains(detail, "c:")) << verification.dump(1);  // c's file is right
  EXPECT_TRUE(contains(o.out, "FAILED")) << show(o);
}

TEST(CapturedFamily, ADataFileOfTheWrongSizeIsAnInputError) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  CapturedData data;
  data.b.resize(kN - 3);
  const CapturedWorkspace w(data);
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "family.toml:17: buffers[1].init: 'file:data/b.bin' (")) << show(o);
  EXPECT_TRUE(contains(o.err, "holds 4084 bytes, but buffer 'b' needs 4096 (1024 x float) at N=1024")) << show(o);
  EXPECT_FALSE(std::filesystem::exists(w.dir.path() / "out" / "results.json")) << show(o);
}
