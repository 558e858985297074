// The batch plans once: its worker process gets the plan whole (families as read, points as
// resolved, reference points included) and needs no manifest on disk; a reference variant that
// cannot be resolved where a study needs it is an input error of the plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "analyzer/config/config.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {
namespace {

const char* const kTransposeStudy = R"(
[[study]]
family = "transpose"
variants = ["*"]
modes = ["normal", "what-if"]
params = { N = [64, 128] }
)";

TEST(WorkerPlan, TheWorkerGetsThePlanWholeAndReadsNoManifest) {
  TempDir dir;
  fs::create_directories(dir.path() / "kernels");
  fs::copy(ROOFLAB_SOURCE_DIR "/kernels/transpose", dir.path() / "kernels" / "transpose", fs::copy_options::recursive);
  const BatchConfig config = parseBatchConfig(std::string(kQuickCpuRun) + kTransposeStudy, "c.toml", dir.path());
  auto plan = std::make_shared<const BatchPlan>(planBatch(config));
  ASSERT_TRUE(plan->input_errors.empty()) << plan->input_errors.front();
  ASSERT_GT(plan->points.size(), 4u);

  const std::string line = encodeWorkerSetup(WorkerSetup{config, plan, 2});
  fs::remove_all(dir.path() / "kernels");  // what the worker runs must come from the line alone
  const WorkerSetup decoded = decodeWorkerSetup(line);
  ASSERT_TRUE(decoded.plan);
  EXPECT_EQ(encodeWorkerSetup(decoded), line);
  EXPECT_EQ(decoded.first_point, 2u);

  const BatchPlan& got = *decoded.plan;
  ASSERT_EQ(got.points.size(), plan->points.size());
  std::size_t with_reference = 0, what_ifs = 0;
  for (std::size_t i = 0; i < got.points.size(); ++i) {
    const PlannedPoint& want = plan->points[i];
    const PlannedPoint& have = got.points[i];
    SCOPED_TRACE(have.run_point.variant->name);
    // Pointers lead into the decoded families, not the batch's.
    EXPECT_EQ(have.run_point.family, &got.families.front());
    EXPECT_EQ(have.run_point.variant->name, want.run_point.variant->name);
    EXPECT_EQ(have.run_point.params, want.run_point.params);
    EXPECT_EQ(have.run_point.mode, want.run_point.mode);
    ASSERT_TRUE(have.resolved.has_value());
    EXPECT_EQ(have.resolved->program_options, want.resolved->program_options);
    for (const ResolvedBuffer& b : have.resolved->buffers)
      EXPECT_EQ(have.run_point.family->findBuffer(b.spec->name, have.run_point.variant), b.spec);
    if (have.run_point.what_if) {
      ++what_ifs;
      EXPECT_EQ(have.run_point.what_if->name, want.run_point.what_if->name);
    }
    if (have.resolved->reference_point) {
      ++with_reference;
      EXPECT_EQ(have.resolved->reference_point->run_point.variant->name, "naive");
      EXPECT_EQ(have.resolved->reference_point->run_point.params, have.run_point.params);
    }
  }
  EXPECT_GT(what_ifs, 0u);
  EXPECT_GT(with_reference, 0u) << "every normal point of a variant other than the reference carries it";
}

TEST(WorkerPlan, AReferenceVariantThatCannotRunAtAStudiedPointIsAnInputError) {
  TempDir dir;
  fs::create_directories(dir.path() / "kernels");
  fs::copy(ROOFLAB_SOURCE_DIR "/tests/fixtures/kernels/daxpy", dir.path() / "kernels" / "daxpy",
           fs::copy_options::recursive);
  // The studied variant takes 160 elements in groups of 16; the reference needs groups of 64.
  const fs::path manifest = dir.path() / "kernels" / "daxpy" / "family.toml";
  std::string text = fileText(manifest);
  const std::size_t second = text.find("name = \"double2\"");
  text = text.substr(0, second) + replaced(text.substr(second), "local = [\"64\"]", "local = [\"16\"]");
  dir.write("kernels/daxpy/family.toml", text);
  const BatchConfig config = parseBatchConfig(
      std::string(kQuickCpuRun) + "[[study]]\nfamily = \"daxpy\"\nvariants = [\"double2\"]\nparams = { N = [160] }\n",
      "c.toml", dir.path());
  const BatchPlan plan = planBatch(config);
  ASSERT_EQ(plan.input_errors.size(), 1u);
  const std::string& error = plan.input_errors.front();
  EXPECT_TRUE(contains(error, "c.toml")) << error;
  EXPECT_TRUE(contains(error, "study 'daxpy' at N=160")) << error;
  EXPECT_TRUE(contains(error, "reference variant 'scalar'")) << error;
  EXPECT_TRUE(contains(error, "not a multiple")) << error;
}

}  // namespace
}  // namespace rooflab::testing
