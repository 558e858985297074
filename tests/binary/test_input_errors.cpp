// Input errors all at once, through the binary: every error of a manifest, a config or a variant's
// source list is reported in one run, each at file:line with its key, and the run exits 2 before
// any device work. Defines are checked as the compiler will read them.
#include "binary/reliability_workspace.hpp"

#include <sys/stat.h>

namespace {

// Every message in `messages` on a line of its own ("rooflab: <message>") in the run's stderr.
void expectEveryError(const Outcome& o, const std::vector<std::string>& messages) {
  EXPECT_EQ(o.exit_code, 2) << show(o);
  for (const std::string& message : messages)
    EXPECT_TRUE(contains(o.err, "rooflab: " + message + "\n")) << "expected: rooflab: " << message << "\n" << show(o);
}

}  // namespace

TEST(InputErrorsAtOnce, AManifestWithThreeErrorsReportsAllThree) {
  std::string text = replaced(kFamily, "type = \"float\"\ncount = \"N\"\n[[buffers]]\nname = \"b\"",
                              "type = \"flot\"\ncount = \"N\"\n[[buffers]]\nname = \"b\"");
  text = replaced(text, "tolerance = 1e-6", "tolerance = -1");
  text = replaced(text, "kernel = \"add\"", "kernel = \"add_all\"");
  const Workspace w(text);
  const Outcome o = w.run();
  expectEveryError(o, {w.at("\"flot\"") + "buffers[0].type: unknown element type 'flot' (float, double, int, uint, "
                                          "long, ulong, char, uchar, short, ushort, with optional 2/3/4/8/16)",
                       w.at("tolerance = -1") + "check.tolerance: must not be negative",
                       w.at("kernel = \"add_all\"") + "variants[0].kernel: kernel 'add_all' is not defined in add.cl "
                                                      "or the files they include"});
  // Nothing else: an error is not repeated, and one does not cause others (buffer a still exists).
  EXPECT_TRUE(contains(o.err, "rooflab: 3 input errors")) << show(o);
  EXPECT_FALSE(contains(o.err, "args")) << show(o);
}

TEST(InputErrorsAtOnce, ErrorsInTwoVariantsAndTheirExpressionsAreAllReported) {
  const std::string text =
      replaced(kFamily, "global_accesses = \"3*N\"", "global_accesses = \"3*NN\"\ncolour = \"red\"") +
      variant("second", "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N/3\"]\n");
  const Workspace w(text);
  const Outcome o = w.run();
  expectEveryError(
      o,
      {w.at("colour =") + "variants[0].colour: unknown key (expected one of: name, description, "
                          "source, kernel, args, global, local, defines, launches, scratch, flops, "
                          "bytes, global_accesses, local_accesses, tolerance, build_options, what_if, tune)",
       w.at("global_accesses =") + "variants[0].global_accesses: expression '3*NN': Unexpected token \"NN\" found at "
                                   "position 2.",
       w.at("\"N/3\"") + "variants[1].global[0]: expression 'N/3' = 1365.333333 is not a whole number"});
}

TEST(InputErrorsAtOnce, ASourceListWithTwoMissingFilesNamesBoth) {
  const Workspace w(replaced(kFamily, "source = \"add.cl\"", "source = [\"gone.cl\", \"add.cl\", \"lost.cl\"]"));
  const Outcome o = w.run();
  const std::string dir = (w.dir.path() / "kernels/adder/").string();
  expectEveryError(o, {w.at("gone.cl") + "variants[0].source: file '" + dir + "gone.cl' not found",
                       w.at("gone.cl") + "variants[0].source: file '" + dir + "lost.cl' not found"});
}

// The compiler would see the kernel defined twice and say so in its own words, at run time.
TEST(InputErrorsAtOnce, AFileListedTwiceIsAnInputError) {
  const Workspace w(replaced(kFamily, "source = \"add.cl\"", "source = [\"add.cl\", \"./add.cl\"]"));
  const Outcome o = w.run();
  expectEveryError(o, {w.at("./add.cl") + "variants[0].source: file '" +
                       (w.dir.path() / "kernels/adder/add.cl").string() + "' is listed twice"});
  EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << show(o);
}

// OpenCL compilers split build options at spaces: "-D OP=a + b" is "-D OP=a", then "+" and "b".
TEST(InputErrorsAtOnce, ARawDefineWithSpacesIsAnInputErrorNamingTheKey) {
  const Workspace w(
      replaced(kFamily, "global_accesses = \"3*N\"", "global_accesses = \"3*N\"\ndefines = { OP = \"raw:a + b\" }"));
  const Outcome o = w.run();
  expectEveryError(o, {w.at("defines =") + "variants[0].defines.OP: 'raw:a + b' holds white space, which the OpenCL "
                                           "compiler reads as the end of the define (write it without spaces)"});
}

TEST(InputErrorsAtOnce, AVendorOptionInsideADefineIsRefusedAsInBuildOptions) {
  const Workspace w(replaced(kFamily, "global_accesses = \"3*N\"",
                             "global_accesses = \"3*N\"\ndefines = { WG = \"raw:64 -cl-nv-maxrregcount=32\" }"));
  const Outcome o = w.run();
  expectEveryError(o, {w.at("defines =") + "variants[0].defines.WG: vendor options (-cl-nv-...) would fail the "
                                           "build on other devices"});
}

TEST(InputErrorsAtOnce, AConfigWithThreeErrorsReportsAllThree) {
  Workspace w;
  std::string text = replaced(std::string(kRun) + study(), "repetitions = 1", "repetitions = 0");
  text = replaced(text, "modes = [\"normal\"]", "modes = [\"normal\", \"fast\"]");
  text = replaced(text, "counters = \"off\"", "counters = \"off\"\ncolour = \"red\"");
  w.setConfig(text);
  const Outcome o = w.run();
  auto at = [&](const std::string& needle) { return "cfg.toml:" + std::to_string(lineOf(text, needle)) + ": "; };
  expectEveryError(
      o, {at("repetitions =") + "run.repetitions: must be between 1 and 100000",
          at("modes =") + "run.modes: unknown mode 'fast' (expected normal, compute-only, memory-only or what-if)",
          at("colour =") + "run.colour: unknown key (expected one of: device, repetitions, warmup, modes, "
                           "counters, reference_model, out, formats, kernels, variant_time_limit_s, seed, "
                           "ceilings, max_noise, min_time, max_time, max_points, device_mode, extra_metrics, "
                           "cupti_library, line_sampling)"});
}

// A FIFO (or a device) would block the run or never end: a listed source and an included header
// that are not regular files are input errors, named with the manifest key or the include line,
// before any parse.
TEST(InputErrorsAtOnce, ASourceOrHeaderThatIsAFifoIsAnInputError) {
  const Workspace listed(replaced(kFamily, "source = \"add.cl\"", "source = [\"add.cl\", \"pipe.cl\"]"));
  ASSERT_EQ(::mkfifo((listed.dir.path() / "kernels/adder/pipe.cl").c_str(), 0600), 0);
  const Outcome a = listed.run();
  expectEveryError(a, {listed.at("pipe.cl") + "variants[0].source: file '" +
                       (listed.dir.path() / "kernels/adder/pipe.cl").string() +
                       "' is not a regular file (a FIFO, a device or a socket)"});

  const Workspace included;
  included.dir.write("kernels/adder/add.cl", "#include \"pipe.h\"\n" + std::string(kSource));
  ASSERT_EQ(::mkfifo((included.dir.path() / "kernels/adder/pipe.h").c_str(), 0600), 0);
  const Outcome b = included.run();
  EXPECT_EQ(b.exit_code, 2) << show(b);
  EXPECT_TRUE(contains(b.err, "add.cl:1: #include \"pipe.h\": kernel source " +
                                  (included.dir.path() / "kernels/adder/pipe.h").string() +
                                  " is not a regular file (a FIFO, a device or a socket)"))
      << show(b);
  EXPECT_FALSE(fs::exists(included.dir.path() / "out")) << show(b);
}

// A source of tens of megabytes (generated, or the wrong file) is refused with its size, not read
// several times over.
TEST(InputErrorsAtOnce, AHugeSourceIsAnInputErrorWithItsSize) {
  const Workspace w;
  w.dir.write("kernels/adder/add.cl", std::string(kSource) + "\n" + std::string(20u << 20, ' ') + "\n");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "has 20 MiB, more than the 16 MiB a kernel source may have")) << show(o);
}

// Arguments that do not match the kernel's parameters: each is an input error naming the argument,
// its position and the declaration, all at once, before any device work. Launched, the reordered
// list ended in a worker's SIGSEGV and an int for a float parameter in every value wrong.
TEST(InputErrorsAtOnce, ArgumentsThatDoNotMatchTheKernelAreInputErrorsNamingEach) {
  const Workspace w(
      kFamily + variant("reordered", "kernel = \"add\"\nargs = [\"N\", \"a\", \"b\", \"c\"]\nglobal = [\"N\"]\n") +
      variant("unprefixed", "kernel = \"add_scaled\"\nargs = [\"a\", \"b\", \"c\", \"N\", \"2\"]\nglobal = [\"N\"]\n") +
      variant("short", "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\nglobal = [\"N\"]\n") +
      variant("long", "kernel = \"add\"\nargs = [\"a\", \"b\", \"c\", \"N\", \"N\"]\nglobal = [\"N\"]\n") +
      variant("local", "kernel = \"add\"\nargs = [\"a\", \"local:256\", \"c\", \"N\"]\nglobal = [\"N\"]\n"));
  const Outcome o = w.run();
  auto at = [&](const std::string& args) { return w.at("args = [" + args); };
  expectEveryError(
      o, {at("\"N\", \"a\"") + "variants[1].args[0]: variant 'reordered': argument 0 'N' (parameter 'a' of kernel "
                               "'add') is a scalar, but the kernel declares `global const float* a` (a __global "
                               "pointer): give a buffer",
          at("\"N\", \"a\"") + "variants[1].args[3]: variant 'reordered': argument 3 'c' (parameter 'n' of kernel "
                               "'add') is a buffer, but the kernel declares `int n` (a scalar): give a value",
          at("\"a\", \"b\", \"c\", \"N\", \"2\"") +
              "variants[2].args[4]: variant 'unprefixed': argument 4 '2' (parameter 'f' of kernel 'add_scaled') is "
              "int (4 bytes), but the kernel declares `float f` (4 bytes): write 'float:2'",
          at("\"a\", \"b\", \"c\"]") + "variants[3].args: variant 'short': kernel 'add' declares 4 parameters and 3 "
                                       "arguments are given: parameter 3, `int n`, has none",
          at("\"a\", \"b\", \"c\", \"N\", \"N\"") + "variants[4].args[4]: variant 'long': argument 4 'N' has no "
                                                    "parameter: kernel 'add' declares 4 (remove it)",
          at("\"a\", \"local:256\"") + "variants[5].args[1]: variant 'local': argument 1 'local:256' (parameter 'b' of "
                                       "kernel 'add') is a __local size, but the kernel declares `global const float* "
                                       "b` (a __global pointer): give a buffer"});
  EXPECT_TRUE(contains(o.err, "rooflab: 6 input errors")) << show(o);
  EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << show(o);
}

// Every launch of `launches` is checked, and a buffer for a __local pointer is named as such; the
// compute-only key rooflab appends is not an argument of the manifest's.
TEST(InputErrorsAtOnce, EveryLaunchIsCheckedAndTheComputeOnlyKeyIsNotCounted) {
  const Workspace w(kFamily + R"([[variants]]
name = "staged"
source = "staged.cl"
launches = [
  { kernel = "stage", args = ["a", "local:1024", "c", "N"], global = ["N"], local = ["64"] },
  { kernel = "stage", args = ["a", "b", "c", "N"], global = ["N"], local = ["64"] },
]
)",
                    std::string(kRun) + study("adder", "modes = [\"normal\", \"compute-only\"]\n"));
  w.dir.write(
      "kernels/adder/staged.cl",
      "kernel void stage(global const float* a, local float* tile, global float* c, int n) {\n"
      "  int i = get_global_id(0);\n  tile[get_local_id(0)] = a[i];\n  if (i < n) c[i] = tile[get_local_id(0)];\n}\n");
  const Outcome o = w.run();
  expectEveryError(o, {w.at("{ kernel = \"stage\", args = [\"a\", \"b\"") +
                       "variants[1].launches[1].args[1]: variant 'staged': argument 1 'b' (parameter 'tile' of kernel "
                       "'stage') is a buffer, but the kernel declares `local float* tile` (a __local pointer): give "
                       "local:<bytes>"});
  EXPECT_FALSE(contains(o.err, "input errors")) << show(o);  // the first launch is right
}
