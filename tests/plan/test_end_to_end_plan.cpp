// How a user asks for end-to-end runs and what is refused before any device work: the study keys
// ([[study]] end_to_end, overlap_chunks), the manifest keys ([[buffers]] link, [end_to_end] split and
// granule), the chunks of an overlapped run as planned, and the plan the worker receives.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "analyzer/config/config.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::replaced;
using rooflab::testing::TempDir;

namespace {

const char* const kPlanKernel =
    "kernel void add(global const float* a, global const float* b, global float* c, int n) {\n"
    "  int i = get_global_id(0);\n  if (i < n) c[i] = a[i] + b[i];\n}\n";

std::string planFamily(const std::string& extra = "", const std::string& c_count = "N") {
  std::string text =
      "name = \"e2e\"\n[params]\nN = 4096\nWG = 64\n[work]\nflops = \"N\"\nbytes = \"12*N\"\n"
      "[[buffers]]\nname = \"a\"\ntype = \"float\"\ncount = \"N\"\n"
      "[[buffers]]\nname = \"b\"\ntype = \"float\"\ncount = \"N\"\n"
      "[[buffers]]\nname = \"c\"\ntype = \"float\"\ncount = \"" +
      c_count +
      "\"\naccess = \"write\"\n"
      "[check]\nreference = \"cpu:vecadd\"\ntolerance = 1e-6\n" +
      extra +
      "[[variants]]\nname = \"add\"\nsource = \"k.cl\"\nkernel = \"add\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\n"
      "global = [\"N\"]\nlocal = [\"WG\"]\n";
  return text;
}

const char* const kSplit = "[end_to_end]\nsplit = \"N\"\ngranule = \"WG\"\n";

std::string config(const std::string& study_keys, const std::string& params = "N = 4096") {
  return std::string(rooflab::testing::kQuickCpuRun) + "[[study]]\nfamily = \"e2e\"\nparams = { " + params + " }\n" +
         study_keys;
}

struct Planned {
  std::shared_ptr<const BatchPlan> plan;
  std::string errors;
};

Planned plan(const std::string& family_text, const std::string& config_text) {
  TempDir dir;
  dir.write("kernels/e2e/k.cl", kPlanKernel);
  dir.write("kernels/e2e/family.toml", family_text);
  Planned out;
  out.plan = std::make_shared<const BatchPlan>(planBatch(parseBatchConfig(config_text, "c.toml", dir.path())));
  for (const std::string& e : out.plan->input_errors) out.errors += e + "\n";
  return out;
}

std::string configError(const std::string& study_keys) {
  try {
    parseBatchConfig(config(study_keys), "c.toml", "/tmp");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(EndToEndConfig, StudyKeysNameStrategiesAndChunkCounts) {
  const BatchConfig c = parseBatchConfig(
      config("end_to_end = [\"map\", \"copy\", \"overlap\"]\noverlap_chunks = [2, 3, 2]\n"), "c.toml", "/tmp");
  const StudySpec& s = c.studies.front();
  EXPECT_EQ(s.end_to_end,
            (std::vector<EndToEndStrategy>{EndToEndStrategy::map, EndToEndStrategy::copy, EndToEndStrategy::overlap}));
  EXPECT_EQ(s.overlap_chunks, (std::vector<int>{2, 3}));
  const BatchConfig all = parseBatchConfig(config("end_to_end = true\noverlap_chunks = 5\n"), "c.toml", "/tmp");
  EXPECT_EQ(all.studies.front().end_to_end.size(), 5u);
  EXPECT_TRUE(all.studies.front().end_to_end_all);
  EXPECT_EQ(all.studies.front().overlap_chunks, std::vector<int>{5});
}

TEST(EndToEndConfig, MistakesAreInputErrorsAtTheirLine) {
  EXPECT_TRUE(contains(configError("end_to_end = [\"copy\", \"pinned\"]\n"),
                       "c.toml:14: study[0].end_to_end: unknown strategy 'pinned'"))
      << configError("end_to_end = [\"copy\", \"pinned\"]\n");
  EXPECT_TRUE(contains(configError("end_to_end = []\n"), "must be true or name at least one strategy"));
  EXPECT_TRUE(contains(configError("end_to_end = [\"overlap\"]\noverlap_chunks = [0]\n"), "between 1 and 1024"));
  EXPECT_TRUE(contains(configError("end_to_end = [\"copy\"]\noverlap_chunks = 2\n"), "add \"overlap\" to end_to_end"));
}

TEST(EndToEndManifest, BufferLinksAndTheSplitAreRead) {
  TempDir dir;
  dir.write("e2e/k.cl", kPlanKernel);
  const FamilyManifest f =
      loadFamilyManifest(dir.write("e2e/family.toml", replaced(planFamily(kSplit), "access = \"write\"\n",
                                                               "access = \"write\"\nlink = \"none\"\n")));
  EXPECT_EQ(f.buffers[0].crossing(), BufferLink::up);
  EXPECT_EQ(f.buffers[2].crossing(), BufferLink::none);
  ASSERT_TRUE(f.split);
  EXPECT_EQ(f.split->param, "N");
  EXPECT_EQ(f.split->granule.text, "WG");

  auto error = [&](const std::string& text) {
    try {
      loadFamilyManifest(dir.write("e2e/family.toml", text));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(
      contains(error(replaced(planFamily(), "access = \"write\"\n", "access = \"write\"\nlink = \"sideways\"\n")),
               "buffers[2].link: unknown link 'sideways' (expected up, down, both or none)"));
  EXPECT_TRUE(contains(error(planFamily("[end_to_end]\nsplit = \"M\"\n")),
                       "end_to_end.split: 'M' is not a parameter of the family"));
}

TEST(EndToEndPlan, AnOverlappedRunIsSplitInChunksOfTheGranule) {
  const Planned p =
      plan(planFamily(kSplit), config("end_to_end = [\"copy\", \"overlap\"]\noverlap_chunks = [3]\n", "N = 640"));
  ASSERT_TRUE(p.errors.empty()) << p.errors;
  const ResolvedPoint& point = *p.plan->points.front().resolved;
  ASSERT_TRUE(point.end_to_end);
  EXPECT_EQ(point.end_to_end->strategies,
            (std::vector<EndToEndStrategy>{EndToEndStrategy::copy, EndToEndStrategy::overlap}));
  ASSERT_EQ(point.end_to_end->splits.size(), 2u);  // the one-chunk run joins the asked one
  const std::vector<ResolvedChunk>& chunks = point.end_to_end->splits[1];
  ASSERT_EQ(chunks.size(), 3u);  // 10 groups of 64: 4, 3, 3
  EXPECT_EQ(chunks[0].elements, 256u);
  EXPECT_EQ(chunks[1].elements, 192u);
  EXPECT_EQ(chunks[2].elements, 192u);
  EXPECT_EQ(chunks[2].buffer_offsets, (std::vector<std::uint64_t>{448, 448, 448}));
  EXPECT_EQ(chunks[1].point->launches[0].geometry.global, std::vector<std::int64_t>{192});

  // The worker gets the chunks with the plan.
  const WorkerSetup decoded = decodeWorkerSetup(encodeWorkerSetup(WorkerSetup{BatchConfig{}, p.plan, 0}));
  const ResolvedPoint& sent = *decoded.plan->points.front().resolved;
  ASSERT_TRUE(sent.end_to_end);
  ASSERT_EQ(sent.end_to_end->splits[1].size(), 3u);
  EXPECT_EQ(sent.end_to_end->splits[1][2].buffer_offsets, chunks[2].buffer_offsets);
  EXPECT_EQ(sent.end_to_end->splits[1][2].point->run_point.params.at("N"), 192);
}

TEST(EndToEndPlan, OverlapIsRefusedWhereItIsNotShownValid) {
  const Planned no_split = plan(planFamily(), config("end_to_end = [\"overlap\"]\n"));
  EXPECT_TRUE(contains(no_split.errors, "declares no [end_to_end] split")) << no_split.errors;
  // end_to_end = true takes overlap only where the family can be split.
  const Planned all = plan(planFamily(), config("end_to_end = true\n"));
  EXPECT_TRUE(all.errors.empty()) << all.errors;
  EXPECT_EQ(all.plan->points.front().resolved->end_to_end->strategies.size(), 4u);

  const Planned too_small =
      plan(planFamily(kSplit), config("end_to_end = [\"overlap\"]\noverlap_chunks = [3]\n", "N = 128"));
  EXPECT_TRUE(contains(too_small.errors, "N = 128 cannot be split in 3 chunks of at least 64")) << too_small.errors;
  const Planned not_proportional = plan(planFamily(kSplit, "4096"), config("end_to_end = [\"overlap\"]\n"));
  EXPECT_TRUE(contains(not_proportional.errors, "buffer 'c' ('4096') does not grow in proportion to N"))
      << not_proportional.errors;
  const Planned no_normal = plan(planFamily(kSplit), config("end_to_end = [\"copy\"]\nmodes = [\"memory-only\"]\n"));
  EXPECT_TRUE(contains(no_normal.errors, "this study runs no normal mode")) << no_normal.errors;
}
