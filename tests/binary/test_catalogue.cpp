// The kernel catalogue (kernels/): every variant of every family builds, runs and verifies on the
// CPU OpenCL device (PoCL) at small sizes, the broken vecadd examples are flagged, and the
// compute-only and memory-only mutants of every variant build and run. The runs go through the
// rooflab binary, as a user would, and the checks read its results JSON. The C++ references are
// checked against definitions written out independently.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/json/json_file_io.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/verify/references.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::TempDir;

namespace {

const std::filesystem::path kKernelsDir = std::filesystem::path(ROOFLAB_SOURCE_DIR) / "kernels";

bool isBroken(const std::string& variant) { return variant.rfind("broken_", 0) == 0; }

std::vector<std::string> variantNames(const std::string& family) {
  const FamilyManifest manifest = loadFamilyManifest(kKernelsDir / family / "family.toml");
  std::vector<std::string> names;
  for (const auto& v : manifest.variants) names.push_back(v.name);
  return names;
}

struct BatchRun {
  int exit_code = -1;
  std::string log;
  nlohmann::json results;
};

// Runs `rooflab run` on a config made of `studies` (TOML [[study]] tables) with one timed
// repetition and no warm-up: these tests are about correctness, not speed.
BatchRun runRooflab(const TempDir& dir, const std::string& modes, const std::string& studies) {
  const std::string config = "[run]\nrepetitions = 1\nwarmup = 0\ncounters = \"off\"\nmodes = " + modes +
                             "\nkernels = [\"" + kKernelsDir.string() + "\"]\n\n" + studies;
  const auto config_path = dir.write("catalogue.toml", config);
  const auto out = dir.path() / "out";
  const auto log_path = dir.path() / "log";
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + config_path.string() +
                              " --device cpu --quiet --formats json --out " + out.string() + " > " + log_path.string() +
                              " 2>&1";
  BatchRun run;
  const int status = std::system(command.c_str());
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream log(log_path);
  run.log.assign(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
  if (std::filesystem::exists(out / "results.json")) run.results = readJsonFile(out / "results.json");
  return run;
}

std::string label(const nlohmann::json& r) {
  return r["family"].get<std::string>() + "/" + r["variant"].get<std::string>() + " " + r["params"].dump() + " " +
         r["mode"].get<std::string>();
}

// Checks that the batch holds exactly `points` records of every variant of `family` in `mode`
// (one per parameter point), each run without error, and returns them by variant.
std::map<std::string, std::vector<nlohmann::json>> recordsByVariant(const BatchRun& run, const std::string& family,
                                                                    const std::string& mode, std::size_t points) {
  std::map<std::string, std::vector<nlohmann::json>> by_variant;
  for (const auto& r : run.results["records"])
    if (r["family"] == family && r["mode"] == mode) by_variant[r["variant"].get<std::string>()].push_back(r);
  for (const auto& name : variantNames(family)) {
    EXPECT_EQ(by_variant[name].size(), points) << family << "/" << name << " " << mode << ": wrong number of records";
    for (const auto& r : by_variant[name])
      EXPECT_EQ(r["status"], "ok") << label(r) << ": " << r["error"].dump() << "\n" << run.log;
  }
  return by_variant;
}

// Every variant of `family` in normal mode: passed, except the broken examples, which must fail.
void expectVerified(const BatchRun& run, const std::string& family, std::size_t points) {
  ASSERT_EQ(run.results["status"], "complete") << run.log;
  EXPECT_TRUE(run.results["input_errors"].empty()) << run.results["input_errors"].dump();
  for (const auto& [variant, records] : recordsByVariant(run, family, "normal", points))
    for (const auto& r : records) {
      const auto& v = r["verification"];
      if (isBroken(variant)) {
        EXPECT_EQ(v["status"], "failed") << label(r) << ": a broken example verified";
      } else {
        EXPECT_EQ(v["status"], "passed") << label(r) << ": rel. L2 error " << v["rel_l2_error"].dump() << ", "
                                         << v["detail"].dump();
      }
    }
}

class Catalogue : public ::testing::Test {
 protected:
  void SetUp() override { ROOFLAB_REQUIRE_CPU_DEVICE(); }
  TempDir dir_;
};

TEST_F(Catalogue, MatmulVerifiesInBothLayouts) {
  const BatchRun run = runRooflab(dir_, R"(["normal"])", R"(
[[study]]
family = "matmul"
params = { N = [64], COL_MAJOR = [0, 1] }
)");
  EXPECT_EQ(run.exit_code, 0) << run.log;
  expectVerified(run, "matmul", 2);
}

TEST_F(Catalogue, ReduceVerifiesForPowerOfTwoAndOtherSizes) {
  // 2^12; 12288 = 3 x 2^12, a multiple of the work-group but not a power of two; 5000, a multiple
  // of nothing relevant (the kernels guard their loads).
  const BatchRun run = runRooflab(dir_, R"(["normal"])", R"(
[[study]]
family = "reduce"
params = { N = [4096, 12288, 5000] }
)");
  EXPECT_EQ(run.exit_code, 0) << run.log;
  expectVerified(run, "reduce", 3);
}

TEST_F(Catalogue, NbodyVerifies) {
  const BatchRun run = runRooflab(dir_, R"(["normal"])", R"(
[[study]]
family = "nbody"
params = { N = [256] }
)");
  EXPECT_EQ(run.exit_code, 0) << run.log;
  expectVerified(run, "nbody", 1);
}

TEST_F(Catalogue, VecaddVerifiesAndItsBrokenExamplesAreFlagged) {
  const BatchRun run = runRooflab(dir_, R"(["normal"])", R"(
[[study]]
family = "vecadd"
params = { N = [4096] }
)");
  EXPECT_EQ(run.exit_code, 1) << "a failed verification must give exit status 1\n" << run.log;
  expectVerified(run, "vecadd", 1);
  std::set<std::string> broken;
  for (const auto& name : variantNames("vecadd"))
    if (isBroken(name)) broken.insert(name);
  EXPECT_EQ(broken, (std::set<std::string>{"broken_local_global_index", "broken_local_unwritten"}));
}

// The mutants of every variant build and run; their outputs are not results, so verification
// says "skipped".
class CatalogueMutants : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ROOFLAB_REQUIRE_CPU_DEVICE(); }
  TempDir dir_;
};

TEST_P(CatalogueMutants, EveryVariantBuildsAndRunsInComputeOnlyAndMemoryOnlyModes) {
  const std::map<std::string, std::string> sizes = {{"matmul", "{ N = [64] }"},
                                                    {"reduce", "{ N = [4096] }"},
                                                    {"nbody", "{ N = [256] }"},
                                                    {"vecadd", "{ N = [4096] }"},
                                                    {"transpose", "{ N = [128] }"}};
  const std::string family = GetParam();
  const BatchRun run = runRooflab(dir_, R"(["compute-only", "memory-only"])",
                                  "[[study]]\nfamily = \"" + family + "\"\nparams = " + sizes.at(family) + "\n");
  EXPECT_EQ(run.exit_code, 0) << run.log;
  ASSERT_EQ(run.results["status"], "complete") << run.log;
  for (const std::string mode : {"compute-only", "memory-only"})
    for (const auto& [variant, records] : recordsByVariant(run, family, mode, 1))
      for (const auto& r : records) EXPECT_EQ(r["verification"]["status"], "skipped") << label(r);
}

INSTANTIATE_TEST_SUITE_P(Families, CatalogueMutants,
                         ::testing::Values("matmul", "reduce", "nbody", "vecadd", "transpose"));

// ---------------------------------------------------------------------------------------------
// The C++ references, against definitions written out independently of their fast loops.

struct ReferenceRun {
  std::map<std::string, HostBuffer> inputs, outputs;
  ParamValues params;
  void run(const std::string& name) {
    const ReferenceFunction* fn = ReferenceRegistry::builtin().find(name);
    ASSERT_NE(fn, nullptr) << "cpu:" << name << " is not registered";
    ReferenceContext ctx{params, inputs, outputs};
    (*fn)(ctx);
  }
};

const ElementType kFloat{ScalarKind::f32, 1};
const ElementType kFloat4{ScalarKind::f32, 4};

TEST(CatalogueReferences, MatmulHonoursTheLayout) {
  // N = 13 (odd, and not a multiple of the reference's row block of 8), C(i, j) = sum_k A(i, k)
  // B(k, j) with element (r, c) at r*N + c (row-major) or c*N + r (column-major).
  const std::size_t n = 13;
  for (int col_major : {0, 1}) {
    ReferenceRun ref;
    ref.params = {{"N", double(n)}, {"COL_MAJOR", double(col_major)}};
    ref.inputs.emplace("A", HostBuffer("A", kFloat, n * n));
    ref.inputs.emplace("B", HostBuffer("B", kFloat, n * n));
    fillBuffer(ref.inputs.at("A"), BufferInit::random, 1);
    fillBuffer(ref.inputs.at("B"), BufferInit::random, 1);
    ref.outputs.emplace("C", HostBuffer("C", kFloat, n * n));
    ref.run("matmul");
    auto at = [&](std::size_t r, std::size_t c) { return col_major ? c * n + r : r * n + c; };
    const float* a = ref.inputs.at("A").data<float>();
    const float* b = ref.inputs.at("B").data<float>();
    const float* c = ref.outputs.at("C").data<float>();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double expected = 0;
        for (std::size_t k = 0; k < n; ++k) expected += double(a[at(i, k)]) * b[at(k, j)];
        EXPECT_NEAR(c[at(i, j)], expected, 1e-5) << "COL_MAJOR=" << col_major << " C(" << i << ", " << j << ")";
      }
  }
}

TEST(CatalogueReferences, ReduceSumsInDouble) {
  ReferenceRun ref;
  const std::size_t n = 1000003;
  ref.params = {{"N", double(n)}};
  ref.inputs.emplace("in", HostBuffer("in", kFloat, n));
  for (std::size_t i = 0; i < n; ++i) ref.inputs.at("in").data<float>()[i] = 0.1f;
  ref.outputs.emplace("out", HostBuffer("out", kFloat, 1));
  ref.run("reduce");
  EXPECT_FLOAT_EQ(ref.outputs.at("out").data<float>()[0], static_cast<float>(n * double(0.1f)));
}

TEST(CatalogueReferences, NbodyTwoBodies) {
  // Body 0 at the origin with mass 2, body 1 at (3, 4, 0) with mass 5; EPS = 0.5. Each feels
  // m_other r / (|r|^2 + eps^2)^1.5 toward the other, and nothing from itself.
  ReferenceRun ref;
  ref.params = {{"N", 2}, {"EPS", 0.5}};
  ref.inputs.emplace("pos", HostBuffer("pos", kFloat4, 2));
  float* p = ref.inputs.at("pos").data<float>();
  const float pos[8] = {0, 0, 0, 2, 3, 4, 0, 5};
  std::copy(pos, pos + 8, p);
  ref.outputs.emplace("acc", HostBuffer("acc", kFloat4, 2));
  ref.run("nbody");
  const float* acc = ref.outputs.at("acc").data<float>();
  const double f = 1.0 / std::pow(25.0 + 0.25, 1.5);
  const double expected[8] = {5 * 3 * f, 5 * 4 * f, 0, 0, -2 * 3 * f, -2 * 4 * f, 0, 0};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(acc[i], expected[i], 1e-7) << "component " << i;
}

}  // namespace
