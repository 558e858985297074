// A mutant's record names the lines of the family's files its mutant changed: run on PoCL through
// the runner, for an annotated variant and, where libclang is, an automatic one.
#include <gtest/gtest.h>

#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/run/runner.hpp"
#include "mutators/auto_mutation.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

using Kind = MutantLineChangeKind;

const char* kRecordAnnotated =
    R"(kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
)";
const char* kRecordPlain =
    R"(kernel void add_plain(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
)";

std::string recordLinesText(const std::vector<MutantLineChange>& lines) {
  std::string out;
  for (const MutantLineChange& l : lines) {
    out += l.where.file + ":" + std::to_string(l.where.line);
    for (Kind k : l.kinds) out += " " + toString(k);
    out += "\n";
  }
  return out;
}

}  // namespace

TEST(MutantLineRecords, EachMutantRecordNamesTheLinesOfTheFamilysFile) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  rooflab::testing::TempDir dir;
  dir.write("kernels/lines/k.cl", kRecordAnnotated);
  dir.write("kernels/lines/src/plain.cl", kRecordPlain);
  dir.write("kernels/lines/family.toml", rooflab::testing::vecaddFamilyHeader("lines") + R"([[variants]]
name = "annotated"
source = "k.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
[[variants]]
name = "plain"
source = "src/plain.cl"
kernel = "add_plain"
args = ["a", "b", "c", "N"]
global = ["N"]
)");
  const std::string text =
      "[run]\ndevice = \"cpu\"\nrepetitions = 3\nwarmup = 1\nmodes = [\"normal\", \"compute-only\", \"memory-only\"]\n"
      "ceilings = \"datasheet\"\nkernels = [\"kernels\"]\nout = \"" +
      (dir.path() / "out").string() +
      "\"\nformats = [\"json\"]\n[[study]]\nfamily = \"lines\"\nparams = { N = [1024] }\n";
  const BatchConfig config = parseBatchConfig(text, "cfg.toml", dir.path());
  const BatchPlan plan = planBatch(config);
  ASSERT_TRUE(plan.input_errors.empty()) << plan.input_errors.front();
  VariantRunner runner(selectDevice("cpu"), config.run);
  int mutants = 0;
  for (const PlannedPoint& point : plan.points) {
    const RunPoint& p = point.run_point;
    const RunRecord record = runner.run(point);
    const bool annotated = p.variant->name == "annotated";
    if (p.mode == RunMode::normal || (!annotated && !automaticMutantsAvailable())) {
      EXPECT_TRUE(record.mutant_line_changes.empty()) << record.label();
      continue;
    }
    ASSERT_EQ(record.status, RecordStatus::ok) << record.label() << ": " << record.status_reason;
    ++mutants;
    const std::string line = annotated ? "k.cl:3" : "src/plain.cl:4";
    const std::string kinds = p.mode == RunMode::compute_only ? " made-up guarded\n" : " folded\n";
    EXPECT_EQ(recordLinesText(record.mutant_line_changes), line + kinds) << record.label();
  }
  EXPECT_EQ(mutants, automaticMutantsAvailable() ? 4 : 2);
}
