// Kernels as their authors wrote them (manifest and CLI): several source files, a common
// header included from the family's folder, defines in launch sizes, the built-in families from a
// config anywhere, and `run --set`. Through the rooflab binary on PoCL.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/json/json_file_io.hpp"
#include "test_support.hpp"

using rooflab::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path kLibraryStyle = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/kernels/library_style";

struct StyleOutcome {
  int exit_code;
  std::string output;
};

// Runs `rooflab <args>` in `cwd`, stdout and stderr together.
StyleOutcome runStyledRooflab(const std::string& args, const fs::path& cwd) {
  const fs::path log = cwd / "cli.log";
  const std::string command =
      "cd '" + cwd.string() + "' && " + std::string(ROOFLAB_BINARY) + " " + args + " > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return {WEXITSTATUS(status), rooflab::testing::fileText(log)};
}

// A config that runs quickly on a CPU and writes only results.json under `out`.
std::string quickRun(const fs::path& out, const std::string& kernels_line = "") {
  return "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 1\nmodes = [\"normal\"]\ncounters = \"off\"\n"
         "ceilings = \"datasheet\"\nformats = [\"json\"]\nout = \"" +
         out.string() + "\"\n" + kernels_line;
}

nlohmann::json resultsIn(const fs::path& out) { return rooflab::readJsonFile((out / "results.json").string()); }

const nlohmann::json* recordOf(const nlohmann::json& results, const std::string& family, const std::string& variant) {
  for (const auto& r : results["records"])
    if (r["family"] == family && r["variant"] == variant) return &r;
  return nullptr;
}

}  // namespace

TEST(LibraryStyle, FamiliesBuildRunAndVerifyThroughTheBinary) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config = dir.write("library.toml", quickRun(out, "kernels = [\"" + kLibraryStyle.string() + "\"]\n") +
                                                        "[[study]]\nfamily = \"axpy\"\n"
                                                        "[[study]]\nfamily = \"gemm\"\n"
                                                        "[[study]]\nfamily = \"sum\"\n");
  const StyleOutcome o = runStyledRooflab("run " + config.string() + " --quiet", dir.path());
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const nlohmann::json results = resultsIn(out);
  const std::pair<const char*, const char*> variants[] = {
      {"axpy", "scalar"},    {"axpy", "float4"},   {"gemm", "naive"},        {"gemm", "tiled"},
      {"gemm", "tiled_wpt"}, {"sum", "two_stage"}, {"sum", "two_stage_wide"}};
  EXPECT_EQ(results["records"].size(), std::size(variants));
  for (const auto& [family, variant] : variants) {
    const nlohmann::json* r = recordOf(results, family, variant);
    ASSERT_NE(r, nullptr) << family << "/" << variant;
    EXPECT_EQ((*r)["status"], "ok") << (*r)["error"];
    // axpy's scalar variant is the reference of its float4 variant; the others are checked against C++.
    const std::string expected = std::string(family) + "/" + variant == "axpy/scalar" ? "reference" : "passed";
    EXPECT_EQ((*r)["verification"]["status"], expected) << family << "/" << variant << ": " << (*r)["verification"];
    // The family's folder is on the include path.
    EXPECT_NE((*r)["build"]["options"].get<std::string>().find("-I " + (kLibraryStyle / family).string()),
              std::string::npos)
        << (*r)["build"]["options"];
  }
  // Launch sizes written in terms of the variant's defines: N / (VW * WPT) with N = 65536, VW = 4, WPT = 2;
  // N / WPT rows of TS / WPT work items with TS = 32, WPT = 4; WGS * GROUPS with WGS = 64, GROUPS = 32.
  EXPECT_EQ((*recordOf(results, "axpy", "float4"))["geometry"]["launches"][0]["global"], nlohmann::json({8192}));
  EXPECT_EQ((*recordOf(results, "gemm", "tiled_wpt"))["geometry"]["launches"][0]["global"], nlohmann::json({128, 32}));
  EXPECT_EQ((*recordOf(results, "gemm", "tiled_wpt"))["geometry"]["launches"][0]["local"], nlohmann::json({32, 8}));
  EXPECT_EQ((*recordOf(results, "sum", "two_stage"))["geometry"]["launches"][0]["global"], nlohmann::json({2048}));
  // A variant's own expressions see its defines too: 2 N^3 / TS + N^2 global accesses with TS = 16.
  EXPECT_DOUBLE_EQ((*recordOf(results, "gemm", "tiled"))["work"]["global_accesses"].get<double>(),
                   2.0 * 128 * 128 * 128 / 16 + 128 * 128);
}

TEST(LibraryStyle, BuildErrorsNameTheFileAndLineOfEachSource) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/split/first.cl", "float twice(float v) { return 2 * v; }\n");
  dir.write("kernels/split/second.cl",
            "kernel void add(global const float* a, global const float* b, global float* c) {\n"
            "  int i = get_global_id(0);\n"
            "  c[i] = twice(a[i]) + b[i] this is not C;\n"
            "}\n");
  dir.write("kernels/split/family.toml", rooflab::testing::vecaddFamilyHeader("split") +
                                             "[[variants]]\nname = \"v\"\nsource = [\"first.cl\", \"second.cl\"]\n"
                                             "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\n"
                                             "global_accesses = \"3*N\"\n");
  const fs::path out = dir.path() / "out";
  const fs::path config =
      dir.write("c.toml", quickRun(out, "kernels = [\"kernels\"]\n") + "[[study]]\nfamily = \"split\"\n");
  const StyleOutcome o = runStyledRooflab("run " + config.string() + " --quiet", dir.path());
  EXPECT_EQ(o.exit_code, 1) << o.output;
  const nlohmann::json results = resultsIn(out);
  const nlohmann::json* r = recordOf(results, "split", "v");
  ASSERT_NE(r, nullptr);
  EXPECT_NE((*r)["build"]["log"].get<std::string>().find("second.cl:3:"), std::string::npos) << (*r)["build"]["log"];
}

// The manifest check reads sources without a preprocessor; the built program's kernel names catch
// a kernel that an #if removes.
TEST(LibraryStyle, KernelRemovedByThePreprocessorIsNamedInTheError) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/gone/k.cl",
            "#if USE_ADD\nkernel void add(global const float* a, global const float* b, global float* c) {\n"
            "  int i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n#endif\n"
            "kernel void other(global float* c) { c[0] = 0; }\n");
  dir.write("kernels/gone/family.toml",
            rooflab::testing::vecaddFamilyHeader("gone") +
                "[[variants]]\nname = \"v\"\nsource = \"k.cl\"\nkernel = \"add\"\n"
                "args = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\ndefines = { USE_ADD = 0 }\n"
                "global_accesses = \"3*N\"\n");
  const fs::path out = dir.path() / "out";
  const fs::path config =
      dir.write("c.toml", quickRun(out, "kernels = [\"kernels\"]\n") + "[[study]]\nfamily = \"gone\"\n");
  const StyleOutcome o = runStyledRooflab("run " + config.string() + " --quiet", dir.path());
  EXPECT_EQ(o.exit_code, 1) << o.output;
  const nlohmann::json results = resultsIn(out);
  const nlohmann::json* r = recordOf(results, "gone", "v");
  ASSERT_NE(r, nullptr);
  EXPECT_NE((*r)["error"].get<std::string>().find("kernel 'add' is not in the built program (it has: other)"),
            std::string::npos)
      << (*r)["error"];
}

// A kernel defined in a header that the listed file includes, in a folder whose path has a space:
// PoCL splits build options at spaces and takes no quotes, so the folder is given through a link.
TEST(LibraryStyle, KernelInAnIncludedHeaderBuildsFromAFolderWithASpace) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path kernels = dir.path() / "my kernels";
  dir.write("my kernels/inc/main.cl", "#include \"add_kernel.h\"\n");
  dir.write("my kernels/inc/add_kernel.h",
            "kernel void add(global const float* a, global const float* b, global float* c) {\n"
            "  int i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n");
  dir.write("my kernels/inc/family.toml",
            rooflab::testing::vecaddFamilyHeader("inc") +
                "[[variants]]\nname = \"v\"\nsource = \"main.cl\"\nkernel = \"add\"\n"
                "args = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\nglobal_accesses = \"3*N\"\n");
  const fs::path out = dir.path() / "out";
  const fs::path config =
      dir.write("c.toml", quickRun(out, "kernels = [\"my kernels\"]\n") + "[[study]]\nfamily = \"inc\"\n");
  const StyleOutcome o = runStyledRooflab("run '" + config.string() + "' --quiet", dir.path());
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const nlohmann::json results = resultsIn(out);
  const nlohmann::json& record = *recordOf(results, "inc", "v");
  EXPECT_EQ(record["verification"]["status"], "passed");
  const std::string options = record["build"]["options"].get<std::string>();
  const std::string link_prefix = "-I " + fs::temp_directory_path().string() + "/rooflab-include-";
  const std::size_t at = options.find(link_prefix);
  ASSERT_NE(at, std::string::npos) << options;
  const fs::path link = options.substr(at + 3, options.find(' ', at + 3) - (at + 3));
  EXPECT_EQ(fs::read_symlink(link), kernels / "inc");
  fs::remove(link);  // it would outlive the temp folder it points to
}

// The built-in families are on the search path wherever the config is: here a temp folder with no
// kernels/ beside it, and one that adds a folder of its own.
TEST(LibraryStyle, ConfigOutsideTheProjectStudiesBuiltInFamilies) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const std::string vecadd = "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = [4096] }\n";
  const fs::path config = dir.write("elsewhere/study.toml", quickRun(out) + vecadd);
  const StyleOutcome o = runStyledRooflab("run " + config.string() + " --quiet", dir.path());
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const nlohmann::json results = resultsIn(out);
  ASSERT_NE(recordOf(results, "vecadd", "global"), nullptr);
  EXPECT_EQ((*recordOf(results, "vecadd", "global"))["verification"]["status"], "passed");

  const fs::path mixed =
      dir.write("elsewhere/mixed.toml", quickRun(out, "kernels = [\"" + kLibraryStyle.string() + "\"]\n") + vecadd +
                                            "[[study]]\nfamily = \"axpy\"\nvariants = [\"scalar\"]\n");
  const StyleOutcome both = runStyledRooflab("run " + mixed.string() + " --quiet", dir.path());
  ASSERT_EQ(both.exit_code, 0) << both.output;
  const nlohmann::json mixed_results = resultsIn(out);
  EXPECT_NE(recordOf(mixed_results, "vecadd", "global"), nullptr);
  EXPECT_NE(recordOf(mixed_results, "axpy", "scalar"), nullptr);
}

TEST(LibraryStyle, SetOverridesStudyParamsAndRejectsUnknownNames) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path config =
      dir.write("c.toml", quickRun(out) + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\n"
                                          "params = { N = [1048576] }\n");
  const StyleOutcome o = runStyledRooflab("run --set N=4096,8192 " + config.string() + " --quiet", dir.path());
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const nlohmann::json results = resultsIn(out);
  ASSERT_EQ(results["records"].size(), 2u);
  EXPECT_EQ(results["records"][0]["params"]["N"], 4096);
  EXPECT_EQ(results["records"][1]["params"]["N"], 8192);

  const StyleOutcome unknown =
      runStyledRooflab("run " + config.string() + " --quiet --set N=4096 --set NN=4096", dir.path());
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--set NN: no studied family declares a parameter of that name"), std::string::npos)
      << unknown.output;
  const StyleOutcome malformed = runStyledRooflab("run " + config.string() + " --quiet --set N=lots", dir.path());
  EXPECT_EQ(malformed.exit_code, 2) << malformed.output;
  EXPECT_NE(malformed.output.find("--set N=lots: 'lots' is not a number"), std::string::npos) << malformed.output;
}
