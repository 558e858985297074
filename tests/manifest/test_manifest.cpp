#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::replaced;
using rooflab::testing::TempDir;

namespace {

const char* kManifestKernel = R"(
kernel void scale(global const float* x, global float* y, int n, float f) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, y, i, RL_MUL(RL_LOAD(float, x, i), f));
}
kernel void twice(global float* y, int n) { int i = get_global_id(0); if (i < n) y[i] *= 2; }
)";

const char* kGood = R"(name = "scale"
description = "y = f x"
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
defines = { WG = 64, HALF = "N/2", NAME = "raw:foo" }
global_accesses = "2*N"
[[variants]]
name = "two_pass"
source = "k.cl"
scratch = [ { name = "tmp", type = "float", count = "N" } ]
launches = [
  { kernel = "scale", args = ["x", "y", "N", "float:F"], global = ["N"] },
  { kernel = "twice", args = ["y", "N"], global = ["N"], local = ["32"] },
]
)";

std::string manifestError(const std::string& text) {
  TempDir dir;
  dir.write("scale/k.cl", kManifestKernel);
  const auto path = dir.write("scale/family.toml", text);
  try {
    loadFamilyManifest(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Manifest, LoadsAGoodManifest) {
  TempDir dir;
  dir.write("scale/k.cl", kManifestKernel);
  const FamilyManifest f = loadFamilyManifest(dir.write("scale/family.toml", kGood));
  EXPECT_EQ(f.name, "scale");
  EXPECT_EQ(f.params.at("N"), 1024);
  EXPECT_EQ(f.params.at("F"), 2.5);
  ASSERT_EQ(f.buffers.size(), 2u);
  EXPECT_TRUE(f.buffers[1].isOutput());
  ASSERT_EQ(f.variants.size(), 2u);
  const VariantSpec& plain = f.variants[0];
  EXPECT_TRUE(plain.annotated);
  ASSERT_EQ(plain.launches.size(), 1u);
  ASSERT_EQ(plain.launches[0].args.size(), 4u);
  EXPECT_EQ(plain.launches[0].args[0].kind, KernelArgSpec::Kind::buffer);
  EXPECT_EQ(plain.launches[0].args[3].kind, KernelArgSpec::Kind::scalar);
  EXPECT_EQ(plain.launches[0].args[3].scalar_type, ScalarKind::f32);
  ASSERT_EQ(plain.defines.size(), 3u);
  EXPECT_EQ(plain.global_accesses->evaluate(f.params), 2048);
  const VariantSpec& two = f.variants[1];
  EXPECT_EQ(two.launches.size(), 2u);
  EXPECT_EQ(two.scratch.size(), 1u);
  EXPECT_TRUE(two.launches[0].local.empty());
}

struct BadManifest {
  const char* name;
  const char* from;
  const char* to;
  const char* expect;  // substring of the error
};

class ManifestErrors : public ::testing::TestWithParam<BadManifest> {};

TEST_P(ManifestErrors, NameFileKeyAndReason) {
  const BadManifest& c = GetParam();
  const std::string error = manifestError(replaced(kGood, c.from, c.to));
  ASSERT_FALSE(error.empty()) << "no error for " << c.name;
  EXPECT_NE(error.find("family.toml:"), std::string::npos) << error;
  EXPECT_NE(error.find(c.expect), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, ManifestErrors,
    ::testing::Values(
        BadManifest{"syntax", "[work]", "[work", "TOML syntax error"},
        BadManifest{"unknown_type", "type = \"float\"\ncount = \"N\"\n[[buffers]]",
                    "type = \"flot\"\ncount = \"N\"\n[[buffers]]", "unknown element type 'flot'"},
        BadManifest{"unknown_arg", "args = [\"x\", \"y\", \"N\", \"float:F\"]\nglobal",
                    "args = [\"x\", \"yy\", \"N\", \"float:F\"]\nglobal", "'yy' is not a buffer"},
        BadManifest{"bad_expression", "bytes = \"8*N\"", "bytes = \"8*\"", "work.bytes"},
        BadManifest{"division_by_zero", "count = \"N\"\naccess", "count = \"N/0\"\naccess", "not finite"},
        BadManifest{"zero_size", "count = \"N\"\naccess", "count = \"N-N\"\naccess", "must be positive"},
        BadManifest{"negative_size", "count = \"N\"\naccess", "count = \"-N\"\naccess", "must be positive"},
        BadManifest{"geometry_divides", "local = [\"64\"]", "local = [\"100\"]", "not a multiple of local size"},
        BadManifest{"dims_mismatch", "local = [\"64\"]", "local = [\"64\", \"1\"]", "dimensions"},
        BadManifest{"missing_source", "source = \"k.cl\"\nkernel = \"scale\"",
                    "source = \"nope.cl\"\nkernel = \"scale\"", "not found"},
        BadManifest{"missing_kernel", "kernel = \"scale\"", "kernel = \"scal\"", "kernel 'scal' is not defined"},
        BadManifest{"duplicate_variant", "name = \"two_pass\"", "name = \"plain\"", "duplicate variant name"},
        BadManifest{"unknown_key", "global_accesses = \"2*N\"", "global_acceses = \"2*N\"", "unknown key"},
        BadManifest{"bad_reference", "reference = \"variant:plain\"", "reference = \"variant:fancy\"",
                    "does not exist"},
        BadManifest{"bad_cpu_reference", "reference = \"variant:plain\"", "reference = \"cpu:nothing\"",
                    "no C++ reference"},
        BadManifest{"bad_access", "access = \"write\"", "access = \"wrote\"", "unknown access"},
        BadManifest{"bad_arg_prefix", "\"float:F\"]\nglobal = [\"N\"]\nlocal", "\"half:F\"]\nglobal = [\"N\"]\nlocal",
                    "unknown argument prefix"},
        BadManifest{"both_forms", "name = \"two_pass\"\n", "name = \"two_pass\"\nkernel = \"scale\"\n",
                    "either kernel"},
        BadManifest{"no_output", "access = \"write\"", "access = \"read\"", "nothing could be verified"},
        BadManifest{"vendor_build_option", "global_accesses = \"2*N\"",
                    "global_accesses = \"2*N\"\nbuild_options = \"-cl-nv-maxrregcount=64\"", "vendor options"},
        BadManifest{"define_in_build_options", "global_accesses = \"2*N\"",
                    "global_accesses = \"2*N\"\nbuild_options = \"-DX=1\"", "belong in `defines`"}),
    [](const ::testing::TestParamInfo<BadManifest>& info) { return std::string(info.param.name); });

TEST(Manifest, ErrorCarriesTheLineOfTheKey) {
  const std::string error = manifestError(replaced(kGood, "bytes = \"8*N\"", "bytes = \"8*\""));
  // bytes is on line 8 of kGood.
  EXPECT_NE(error.find("family.toml:8: work.bytes"), std::string::npos) << error;
}

TEST(Manifest, ValidateForParamsChecksEachPoint) {
  TempDir dir;
  dir.write("scale/k.cl", kManifestKernel);
  const FamilyManifest f = loadFamilyManifest(dir.write("scale/family.toml", kGood));
  EXPECT_NO_THROW(validateForParams(f, f.variants[0], {{"N", 128}, {"F", 1}}));
  EXPECT_THROW(validateForParams(f, f.variants[0], {{"N", 100}, {"F", 1}}), InputError);  // 100 % 64
  EXPECT_THROW(validateForParams(f, f.variants[0], {{"N", 0}, {"F", 1}}), InputError);
}

TEST(Manifest, DiscoveryReportsBrokenManifestsAndLoadsTheRest) {
  TempDir dir;
  dir.write("scale/k.cl", kManifestKernel);
  dir.write("scale/family.toml", kGood);
  dir.write("bad/k.cl", kManifestKernel);
  dir.write("bad/family.toml", "name = \"bad\"\n[work\n");
  const FamilyDiscovery found = discoverFamilies({dir.path(), dir.path() / "missing"});
  ASSERT_EQ(found.families.size(), 1u);
  EXPECT_EQ(found.families[0].name, "scale");
  ASSERT_EQ(found.errors.size(), 2u);
}

TEST(Manifest, BuiltinFamiliesLoad) {
  const FamilyDiscovery found = discoverFamilies({std::filesystem::path(ROOFLAB_SOURCE_DIR) / "kernels"});
  for (const auto& e : found.errors) ADD_FAILURE() << e;
  EXPECT_GE(found.families.size(), 1u);
}

// Library-style kernels, manifest part: kernels as their authors wrote them.
namespace {
std::string incFamily(const std::string& source_line, const std::string& extra = "") {
  return rooflab::testing::vecaddFamilyHeader("inc") + "[[variants]]\nname = \"v\"\n" + source_line +
         "\nkernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\nglobal = [\"N / WPT\"]\nlocal = [\"TS\"]\n"
         "global_accesses = \"3*N\"\n" +
         extra;
}
const char* kAdd = "kernel void add(global const float* a, global const float* b, global float* c) {\n"
                   "  int i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n";
}  // namespace

TEST(ManifestSources, CommentedOutKernelIsRejected) {
  TempDir dir;
  dir.write("inc/k.cl", "// kernel void add(global float* a) {}\n/* kernel void add(global float* b) {} */\n"
                        "kernel void other(global float* a) {}\n");
  const auto path = dir.write("inc/family.toml", incFamily("source = \"k.cl\"", "defines = { WPT = 1, TS = 64 }\n"));
  try {
    loadFamilyManifest(path);
    FAIL() << "a commented-out kernel was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("variants[0].kernel: kernel 'add' is not defined in k.cl or the files they include"),
        std::string::npos)
        << e.what();
  }
}

TEST(ManifestSources, KernelInAnIncludedFileIsAccepted) {
  TempDir dir;
  dir.write("inc/main.cl", "// the kernels live in a header\n#include \"sub/kernels.h\"\n");
  dir.write("inc/sub/kernels.h", "#include \"more.h\"  // beside this header\n");
  dir.write("inc/sub/more.h", std::string("#pragma once\n") + kAdd + "// RL_LOAD is only named in a comment\n");
  const FamilyManifest f = loadFamilyManifest(
      dir.write("inc/family.toml", incFamily("source = \"main.cl\"", "defines = { WPT = 1, TS = 64 }\n")));
  EXPECT_FALSE(f.variants[0].annotated);
  EXPECT_EQ(f.variants[0].include_dir, dir.path() / "inc");
}

TEST(ManifestSources, SourceMayListSeveralFilesInOrder) {
  TempDir dir;
  dir.write("inc/helpers.cl", "float twice(float v) { return 2 * v; }\n");
  dir.write("inc/kernels/add.cl", kAdd);
  const FamilyManifest f =
      loadFamilyManifest(dir.write("inc/family.toml", incFamily("source = [\"helpers.cl\", \"kernels/add.cl\"]",
                                                                "defines = { WPT = 1, TS = 64 }\n")));
  ASSERT_EQ(f.variants[0].sources.size(), 2u);
  EXPECT_EQ(f.variants[0].sources[0], dir.path() / "inc/helpers.cl");
  EXPECT_EQ(f.variants[0].sources[1], dir.path() / "inc/kernels/add.cl");
  EXPECT_EQ(f.variants[0].source, f.variants[0].sources[0]);

  for (const auto& [line, expect] : std::vector<std::pair<std::string, std::string>>{
           {"source = []", "variants[0].source: must list at least one file"},
           {"source = [\"helpers.cl\", \"missing.cl\"]", "missing.cl' not found"},
           {"source = 3", "variants[0].source: must be a file name or an array of file names"}}) {
    try {
      loadFamilyManifest(dir.write("inc/family.toml", incFamily(line, "defines = { WPT = 1, TS = 64 }\n")));
      ADD_FAILURE() << line;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  }
}

// Geometry, arguments and the variant's own expressions see its numeric and expression defines; a
// define wins over a param of the same name (its value is the one the kernel is compiled with).
TEST(ManifestSources, DefinesAreVariablesOfTheVariantsExpressions) {
  TempDir dir;
  dir.write("inc/k.cl", kAdd);
  const FamilyManifest f = loadFamilyManifest(dir.write(
      "inc/family.toml",
      incFamily("source = \"k.cl\"", "defines = { WPT = 4, TS = \"2*N/256\", N = 8192, NAME = \"raw:foo\" }\n")));
  const ResolvedPoint p = resolvePoint(RunPoint{&f, &f.variants[0], f.params, RunMode::normal});
  // N is 4096 for the family (buffers, [work]) but 8192 in the variant's expressions: the define wins.
  EXPECT_EQ(p.buffers[0].count, 4096u);
  EXPECT_EQ(p.launches[0].geometry.global, (std::vector<std::int64_t>{2048}));  // 8192 / 4
  EXPECT_EQ(p.launches[0].geometry.local, (std::vector<std::int64_t>{32}));     // 2 * 4096 / 256: defines see params
  EXPECT_NE(p.program_options.find("-D TS=32"), std::string::npos) << p.program_options;

  // A raw define is text for the compiler, not a number.
  try {
    loadFamilyManifest(
        dir.write("inc/family.toml", incFamily("source = \"k.cl\"", "defines = { WPT = 1, TS = \"raw:64\" }\n")));
    ADD_FAILURE() << "a raw define was a variable";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("TS"), std::string::npos) << e.what();
  }
}

TEST(ManifestSources, CommentsAreSkippedButStringsKept) {
  const std::string text = "a // kernel void x(\nb /* kernel\nvoid y( */ c \"// not a comment\" '/' d\n";
  const std::string plain = withoutComments(text);
  EXPECT_EQ(plain.size(), text.size());
  EXPECT_EQ(std::count(plain.begin(), plain.end(), '\n'), 3);  // lines keep their numbers
  EXPECT_EQ(plain.find("kernel"), std::string::npos);
  EXPECT_NE(plain.find("\"// not a comment\" '/' d"), std::string::npos);
}

TEST(ManifestSources, ListedFilesAreJoinedBehindLineDirectives) {
  TempDir dir;
  const auto first = dir.write("fam/a.cl", "int a;");
  const auto second = dir.write("fam/sub/b.cl", "int b;\n");
  EXPECT_EQ(joinSourceFiles({first, second}, dir.path() / "fam"),
            "\n#line 1 \"a.cl\"\nint a;\n#line 1 \"sub/b.cl\"\nint b;\n\n");
}

// A family in a config's folder hides the built-in family of the same name (the built-in folder
// comes last on the search path); two of the config's folders defining one name is still an error.
TEST(ManifestSources, AUsersFamilyHidesTheBuiltInOneOfItsName) {
  TempDir dir;
  dir.write("mine/vecadd/k.cl", kAdd);
  dir.write("mine/vecadd/family.toml",
            rooflab::testing::vecaddFamilyHeader("vecadd") +
                "[[variants]]\nname = \"mine\"\nsource = \"k.cl\"\nkernel = \"add\"\n"
                "args = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\nglobal_accesses = \"3*N\"\n");
  RunSettings run;
  run.kernels = {dir.path() / "mine"};
  const FamilyDiscovery found = discoverFamilies(kernelSearchPath(run));
  for (const auto& e : found.errors) ADD_FAILURE() << e;
  int vecadds = 0;
  for (const auto& f : found.families)
    if (f.name == "vecadd") {
      ++vecadds;
      EXPECT_EQ(f.variants.at(0).name, "mine");
    }
  EXPECT_EQ(vecadds, 1);
  run.kernels.push_back(dir.path() / "mine");
  EXPECT_EQ(kernelSearchPath(run).size(), 3u);
  EXPECT_EQ(discoverFamilies(kernelSearchPath(run)).errors.size(), 1u);
}
