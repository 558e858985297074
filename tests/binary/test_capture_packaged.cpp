// `rooflab capture` on packaged programs users run: a PyOpenCL example (python3-pyopencl,
// python-pyopencl-doc), which loads libOpenCL through its extension module, and clpeak. Each skips,
// saying why, where the package is missing.
#include <gtest/gtest.h>

#include "analyzer/json/capture_log_json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace rooflab;
using namespace rooflab::testing;

namespace {

const fs::path kPyOpenClExamples = "/usr/share/doc/python-pyopencl-doc/examples";
// Debian's python, with Debian's pyopencl (a python earlier on PATH may lack it).
const fs::path kSystemPython = "/usr/bin/python3";

bool pyopenclInstalled() {
  return fs::exists(kPyOpenClExamples / "demo.py") && fs::exists(kSystemPython) &&
         std::system((kSystemPython.string() + " -c 'import pyopencl' >/dev/null 2>&1").c_str()) == 0;
}

std::size_t kernelCommands(const CaptureLog& log) {
  std::size_t count = 0;
  for (const CapturedCommand& c : log.commands) count += c.kind == CapturedCommandKind::kernel ? 1 : 0;
  return count;
}

}  // namespace

TEST(CapturePackaged, PyOpenClDemoIsCapturedWithItsKernelAndReplayFamily) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!pyopenclInstalled())
    GTEST_SKIP() << "python3-pyopencl and python-pyopencl-doc are not installed (scripts/setup-debian.sh)";
  TempDir dir;
  const BinaryOutcome o =
      runRooflab("capture --out cap -- " + kSystemPython.string() + " " + (kPyOpenClExamples / "demo.py").string(),
                 dir.path(), "PYOPENCL_NO_CACHE=1 ");
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const CaptureLog log = readCaptureFolder(dir.path() / "cap").log;
  ASSERT_EQ(log.kernels.size(), 1u) << show(o);
  EXPECT_EQ(log.kernels[0].name, "sum");
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_EQ(log.launches[0].commands, 1u);
  EXPECT_EQ(kernelCommands(log), 1u);
  EXPECT_TRUE(contains(o.out, "sum: 1 launch, global 50000, local NULL")) << show(o);
  EXPECT_TRUE(contains(o.out, "replay (1 family): rooflab run cap/capture.toml")) << show(o);
  const std::string family = fileText(dir.path() / "cap" / "families" / "program1_sum_1" / "family.toml");
  EXPECT_TRUE(contains(family, "expect = \"file:res_g.out.bin\"")) << family;
  EXPECT_TRUE(contains(family, "global = [\"50000\"]")) << family;
  EXPECT_FALSE(contains(family, "local =")) << "the program passed no local size\n" << family;
}

TEST(CapturePackaged, ClpeakKernelLatencyIsCapturedWithEveryCommandTimed) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  if (!fs::exists("/usr/bin/clpeak")) GTEST_SKIP() << "clpeak is not installed (scripts/setup-debian.sh)";
  TempDir dir;
  const BinaryOutcome o = runRooflab("capture --out cap -- clpeak --kernel-latency", dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "Kernel launch latency")) << "clpeak's own output passes through\n" << show(o);
  const CaptureLog log = readCaptureFolder(dir.path() / "cap").log;
  EXPECT_GT(kernelCommands(log), 10u) << "clpeak launches its empty kernel many times";
  std::size_t timed = 0;
  for (const CapturedCommand& c : log.commands) timed += c.times ? 1 : 0;
  EXPECT_EQ(timed, log.commands.size()) << "every command's event times were read";
}
