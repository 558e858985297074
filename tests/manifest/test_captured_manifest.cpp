// The manifest keys a captured application's replay needs (docs/manifest.md, "Repeated launches" and
// "Data from files, the application's own outputs, work not known"): each read, and each mistake an
// input error that names the file, line and key.
#include <gtest/gtest.h>

#include <fstream>

#include "analyzer/manifest/launch_repetitions.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/run/bridge_arguments.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::replaced;
using rooflab::testing::TempDir;

namespace {

const char* kKernel = R"(
kernel void step(global const float* in, global float* out, int n, int i) {
  int k = get_global_id(0);
  if (k < n) out[k] = in[k] + (float)i;
}
)";

// A stencil stepped STEPS times with its buffers exchanged, its input and expected output in files.
const char* kCaptured = R"(name = "cap"
[params]
N = 256
STEPS = 50
[work]
flops = "unmeasured"
bytes = "8*N"
[[buffers]]
name = "a"
type = "float"
count = "N"
init = "file:data/a.bin"
access = "read_write"
expect = "file:data/expected.bin"
[[buffers]]
name = "b"
type = "float"
count = "N"
access = "write"
[check]
reference = "outputs"
tolerance = 1e-6
[[variants]]
name = "steps"
source = "k.cl"
launches = [
  { kernel = "step", args = ["a", "b", "N", "i"], global = ["N"], local = ["64"], repeat = "STEPS", pingpong = [["a", "b"]] },
]
global_accesses = "unmeasured"
)";

struct Family {
  TempDir dir;
  explicit Family(const std::string& text, std::size_t a_bytes = 1024, std::size_t expected_bytes = 1024) {
    dir.write("cap/k.cl", kKernel);
    dir.write("cap/data/a.bin", std::string(a_bytes, '\0'));
    dir.write("cap/data/expected.bin", std::string(expected_bytes, '\0'));
    path = dir.write("cap/family.toml", text);
  }
  FamilyManifest load() const { return loadFamilyManifest(path); }
  std::filesystem::path path;
};

std::string loadError(const std::string& text) {
  const Family family(text);
  try {
    family.load();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string resolveError(const Family& family, ParamValues params = {}) {
  try {
    const FamilyManifest manifest = family.load();
    ParamValues values = manifest.params;
    for (const auto& [name, value] : params) values[name] = value;
    resolvePoint(RunPoint{&manifest, &manifest.variants.front(), values, RunMode::normal});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CapturedManifest, ReadsFilesOutputsRepeatsAndUnmeasuredWork) {
  const Family family(kCaptured);
  const FamilyManifest m = family.load();
  const BufferSpec& a = m.buffers.at(0);
  EXPECT_EQ(a.init, BufferInit::file);
  ASSERT_TRUE(a.init_file);
  EXPECT_EQ(a.init_file->path, (family.path.parent_path() / "data" / "a.bin").lexically_normal());
  EXPECT_EQ(a.init_file->key, "buffers[0].init");
  ASSERT_TRUE(a.expect_file);
  EXPECT_EQ(m.reference.kind, ReferenceSpec::Kind::outputs);
  EXPECT_EQ(m.reference.text(), "outputs");
  EXPECT_TRUE(m.flops_unmeasured);
  EXPECT_FALSE(m.bytes_unmeasured);
  EXPECT_TRUE(m.variants.front().global_accesses_unmeasured);
  const LaunchSpec& launch = m.variants.front().launches.front();
  ASSERT_TRUE(launch.repeat);
  EXPECT_EQ(launch.index, "i");
  ASSERT_EQ(launch.pingpong.size(), 1u);

  const ResolvedPoint point = resolvePoint(RunPoint{&m, &m.variants.front(), m.params, RunMode::normal});
  EXPECT_TRUE(point.work.flops_unmeasured);
  EXPECT_TRUE(point.work.global_accesses_unmeasured);
  EXPECT_FALSE(point.work.global_accesses);
  ASSERT_EQ(point.launches.size(), 1u);  // fifty repetitions, one entry
  EXPECT_EQ(point.launches[0].repeat, 50u);
  EXPECT_TRUE(point.launches[0].varies);  // its last argument is the index

  const LaunchRepetitions repetitions(point, 0);
  EXPECT_EQ(repetitions.count(), 50u);
  const ResolvedLaunch first = repetitions.at(0), second = repetitions.at(1), fourth = repetitions.at(3);
  EXPECT_EQ(first.args[0].buffer, "a");
  EXPECT_EQ(first.args[1].buffer, "b");
  EXPECT_EQ(second.args[0].buffer, "b");  // odd: exchanged
  EXPECT_EQ(second.args[1].buffer, "a");
  EXPECT_EQ(fourth.args[3].scalar_value, 3);
  EXPECT_EQ(repetitions.at(4).args[0].buffer, "a");
}

TEST(CapturedManifest, NumbersStayWorkAndAVariantsNumberWinsOverUnmeasured) {
  const Family family(replaced(replaced(kCaptured, "flops = \"unmeasured\"", "flops = \"123456\""),
                               "global_accesses = \"unmeasured\"", "global_accesses = \"2*N\"\nbytes = \"4*N\""));
  const FamilyManifest m = family.load();
  EXPECT_FALSE(m.flops_unmeasured);
  const ResolvedPoint point = resolvePoint(RunPoint{&m, &m.variants.front(), m.params, RunMode::normal});
  EXPECT_EQ(point.work.flops, 123456);
  ASSERT_TRUE(point.work.global_accesses);
  EXPECT_EQ(*point.work.global_accesses, 512);
  EXPECT_FALSE(point.work.flops_unmeasured);
  EXPECT_FALSE(point.work.global_accesses_unmeasured);
}

TEST(CapturedManifest, AMissingFileIsAnInputErrorAtItsKey) {
  const std::string e = loadError(replaced(kCaptured, "file:data/a.bin", "file:data/gone.bin"));
  EXPECT_TRUE(contains(e, "family.toml:12: buffers[0].init: file '")) << e;
  EXPECT_TRUE(contains(e, "data/gone.bin' not found")) << e;
  const std::string empty = loadError(replaced(kCaptured, "file:data/a.bin", "file:"));
  EXPECT_TRUE(contains(empty, "buffers[0].init: 'file:' names no file")) << empty;
}

TEST(CapturedManifest, AFileOfTheWrongSizeIsAnInputErrorNamingFileKeyBufferAndSizes) {
  const Family family(kCaptured, 1000);
  const std::string e = resolveError(family);
  EXPECT_TRUE(contains(e, "family.toml:12: buffers[0].init: 'file:data/a.bin' (")) << e;
  EXPECT_TRUE(contains(e, "holds 1000 bytes, but buffer 'a' needs 1024 (256 x float) at N=256")) << e;
  // Right at the defaults, wrong at another size: checked per point.
  const Family right(kCaptured);
  EXPECT_EQ(resolveError(right), "");
  const std::string swept = resolveError(right, {{"N", 512}});
  EXPECT_TRUE(contains(swept, "holds 1024 bytes, but buffer 'a' needs 2048 (512 x float) at N=512")) << swept;
  // Checking a point keeps every error, the expected output's too.
  const FamilyManifest m = right.load();
  ParamValues at_512 = m.params;
  at_512["N"] = 512;
  std::string both;
  try {
    validateForParams(m, m.variants.front(), at_512);
  } catch (const InputError& e) {
    both = e.what();
  }
  EXPECT_TRUE(contains(both, "buffers[0].init: 'file:data/a.bin'")) << both;
  EXPECT_TRUE(contains(both, "buffers[0].expect: 'file:data/expected.bin'")) << both;
}

TEST(CapturedManifest, ExpectAndOutputsComeTogether) {
  const std::string without_outputs = loadError(replaced(kCaptured, "reference = \"outputs\"", ""));
  EXPECT_TRUE(contains(without_outputs, "family.toml:14: buffers[0].expect: buffer 'a' has an expected output, but "
                                        "[check] reference is not \"outputs\""))
      << without_outputs;
  const std::string without_expect = loadError(replaced(kCaptured, "expect = \"file:data/expected.bin\"", ""));
  EXPECT_TRUE(contains(without_expect, "check.reference: reference = \"outputs\" but no [[buffers]] entry has expect"))
      << without_expect;
  const std::string not_a_file = loadError(replaced(kCaptured, "file:data/expected.bin", "data/expected.bin"));
  EXPECT_TRUE(contains(not_a_file, "buffers[0].expect: 'data/expected.bin' must be file:<path>")) << not_a_file;
  const std::string on_read = loadError(replaced(kCaptured, "access = \"read_write\"", "access = \"read\""));
  EXPECT_TRUE(contains(on_read, "buffers[0].expect: buffer 'a' has access read")) << on_read;
  const std::string bad_reference = loadError(replaced(kCaptured, "reference = \"outputs\"", "reference = \"output\""));
  EXPECT_TRUE(contains(bad_reference, "must be variant:<name>, cpu:<name> or outputs")) << bad_reference;
}

TEST(CapturedManifest, AFileInitOnAWriteBufferIsRefused) {
  const std::string e =
      loadError(replaced(kCaptured, "access = \"write\"", "access = \"write\"\ninit = \"file:data/a.bin\""));
  EXPECT_TRUE(contains(e, "buffers[1].init: buffer 'b' has access write")) << e;
}

TEST(CapturedManifest, RepeatMistakesAreInputErrors) {
  const std::string zero = loadError(replaced(kCaptured, "repeat = \"STEPS\"", "repeat = \"STEPS - 50\""));
  EXPECT_TRUE(contains(zero, "variants[0].launches[0].repeat: expression 'STEPS - 50' = 0 must be positive")) << zero;
  const std::string huge = loadError(replaced(kCaptured, "repeat = \"STEPS\"", "repeat = \"1000001\""));
  EXPECT_TRUE(contains(huge, "variants[0].launches[0].repeat: '1000001' makes 1000001 launches in one run of variant "
                             "'steps'; at most 1000000 are allowed"))
      << huge;
  const std::string fraction = loadError(replaced(kCaptured, "repeat = \"STEPS\"", "repeat = \"STEPS / 3\""));
  EXPECT_TRUE(contains(fraction, "is not a whole number")) << fraction;
  const std::string no_repeat = loadError(replaced(kCaptured, "repeat = \"STEPS\", ", "index = \"j\", "));
  EXPECT_TRUE(contains(no_repeat, "variants[0].launches[0].index: needs repeat")) << no_repeat;
  const std::string index_is_param =
      loadError(replaced(kCaptured, "repeat = \"STEPS\"", "repeat = \"STEPS\", index = \"N\""));
  EXPECT_TRUE(contains(index_is_param, "launches[0].index: 'N' is already a parameter or define")) << index_is_param;
  const std::string unknown_index = loadError(replaced(kCaptured, "\"N\", \"i\"]", "\"N\", \"j\"]"));
  EXPECT_TRUE(contains(unknown_index, "'j' is not a buffer of this family and not a valid expression"))
      << unknown_index;
}

TEST(CapturedManifest, PingpongMistakesAreInputErrors) {
  const std::string unknown = loadError(replaced(kCaptured, "[[\"a\", \"b\"]]", "[[\"a\", \"c\"]]"));
  EXPECT_TRUE(contains(unknown, "launches[0].pingpong: 'c' is not a buffer of this family or variant")) << unknown;
  const std::string read =
      loadError(replaced(replaced(kCaptured, "access = \"read_write\"\nexpect = \"file:data/expected.bin\"", ""),
                         "reference = \"outputs\"", ""));
  EXPECT_TRUE(contains(read, "launches[0].pingpong: buffer 'a' has access read")) << read;
  const std::string twice = loadError(replaced(kCaptured, "[[\"a\", \"b\"]]", "[[\"a\", \"b\"], [\"b\", \"a\"]]"));
  EXPECT_TRUE(contains(twice, "is exchanged twice")) << twice;
  const std::string shape = loadError(replaced(kCaptured, "[[\"a\", \"b\"]]", "[\"a\", \"b\"]"));
  EXPECT_TRUE(contains(shape, "pingpong: must be a list of pairs of buffer names")) << shape;
}

// A repetition that reads its index is checked at every index, and the error names the first bad one.
TEST(CapturedManifest, EveryRepetitionOfAnIndexedLaunchIsChecked) {
  const std::string e = loadError(replaced(kCaptured, "global = [\"N\"], local = [\"64\"]",
                                           "global = [\"N - 256*floor(i/40)\"], local = [\"64\"]"));
  EXPECT_TRUE(contains(e, "launches[0].global[0]: expression 'N - 256*floor(i/40)' = 0 must be positive (at i = 40)"))
      << e;
  const std::string multiple = loadError(replaced(kCaptured, "global = [\"N\"]", "global = [\"N - (i == 37)\"]"));
  EXPECT_TRUE(contains(multiple, "global size 255 is not a multiple of local size 64 (at i = 37)")) << multiple;
}

// The counters' bridged run replays the launches one by one: every repetition in its place, with
// its own index and buffers, and rooflab's own arguments (a mutant's key) kept after the manifest's.
TEST(CapturedManifest, TheBridgeReplaysEveryRepetition) {
  const Family family(replaced(kCaptured, "STEPS = 50", "STEPS = 3"));
  const FamilyManifest m = family.load();
  const ResolvedPoint point = resolvePoint(RunPoint{&m, &m.variants.front(), m.params, RunMode::normal});
  std::vector<ResolvedLaunch> as_set_up = point.launches;
  ResolvedArg key;
  key.kind = KernelArgSpec::Kind::scalar;
  key.scalar_bytes = {std::byte{7}, std::byte{0}, std::byte{0}, std::byte{0}};
  as_set_up[0].args.push_back(key);
  const std::vector<ResolvedLaunch> every = counters::everyRepetition(point, as_set_up);
  ASSERT_EQ(every.size(), 3u);
  EXPECT_EQ(every[1].args[0].buffer, "b");
  EXPECT_EQ(every[2].args[0].buffer, "a");
  EXPECT_EQ(every[2].args[3].scalar_value, 2);
  ASSERT_EQ(every[2].args.size(), 5u);
  EXPECT_EQ(every[2].args[4].scalar_bytes, key.scalar_bytes);
}
