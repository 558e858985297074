// The limits of a batch as a user meets them: a sweep too large for max_points is refused from its
// size, before a single point is expanded.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {
namespace {

std::string valueList(int count, int first) {
  std::string list;
  for (int i = 0; i < count; ++i) list += (i ? ", " : "") + std::to_string(first + i);
  return list;
}

// Six million points (6 variants x 100^3 parameter values). Expanding and resolving them took over
// a minute and more than a gigabyte; counted from the sweep's shape, the refusal needs neither, so
// the run is held to 1 GB of address space here, which no planning of that sweep fits in.
TEST(BatchLimits, AMillionPointSweepIsRefusedFromItsSize) {
  TempDir dir;
  fs::create_directory_symlink(ROOFLAB_SOURCE_DIR "/kernels", dir.path() / "kernels");
  dir.write("sweep.toml", std::string(kQuickCpuRun) + "[[study]]\nfamily = \"vecadd\"\nvariants = [\"*\"]\nparams = { N = [" +
                              valueList(100, 1024) + "], WG = [" + valueList(100, 1) + "], VPI = [" + valueList(100, 1) +
                              "] }\n");
  const BinaryOutcome outcome = runRooflab("run sweep.toml", dir.path(), "ulimit -v 1000000; ");
  EXPECT_EQ(outcome.exit_code, 2) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "the batch has 6000000 points, more than [run] max_points = 10000")) << show(outcome);
  EXPECT_TRUE(contains(outcome.err, "narrow the sweep or raise max_points")) << show(outcome);
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << "nothing may be written";
}

}  // namespace
}  // namespace rooflab::testing
