// End-to-end runs as a user asks for them ([[study]] end_to_end) on PoCL: every strategy verified from
// the host arrays, the overlapped pipeline right with one, two and three chunks and an uneven split,
// the host-memory strategies found zero-copy, and what every report shows; overlap refused before any
// device work for a family that does not declare it can be split.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using rooflab::testing::contains;
using rooflab::testing::fileText;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;

namespace {

// Datasheet roofs: only the host link and the launch are measured, as end-to-end runs need them.
const char* const kEndToEndConfig = R"([run]
device = "cpu"
repetitions = 2
warmup = 1
max_time = 0.02
modes = ["normal"]
counters = "off"
ceilings = "datasheet"
formats = ["json", "csv", "html", "png"]
out = "out"
[[study]]
family = "vecadd"
variants = ["global"]
params = { N = [2560] }
end_to_end = true
overlap_chunks = [2, 3]
[[study]]
family = "vecadd"
variants = ["float4"]
params = { N = [2600] }
end_to_end = ["copy", "overlap"]
overlap_chunks = [3]
)";

std::string runName(const json& run) {
  return run["strategy"].get<std::string>() + "/" + std::to_string(run["chunks"].get<int>());
}

}  // namespace

TEST(EndToEndRuns, EveryStrategyIsVerifiedAndTheOverlapIsRightWithSeveralChunkCounts) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("e2e.toml", kEndToEndConfig);
  const auto o = runRooflab("run e2e.toml", dir.path());
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const json results = json::parse(fileText(dir.path() / "out" / "results.json"));

  // The link ceilings: a CPU device maps host memory in place.
  const json& link = results["models"]["ceilings"]["link"];
  for (const json& ceiling : link["transfers"]) {
    const std::string strategy = ceiling["strategy"];
    if (strategy == "alloc-host-ptr" || strategy == "use-host-ptr")
      EXPECT_TRUE(ceiling["zero_copy"].get<bool>()) << ceiling.dump(2);
    if (strategy == "copy") EXPECT_FALSE(ceiling["zero_copy"].get<bool>()) << ceiling.dump(2);
  }
  EXPECT_TRUE(results["models"]["ceilings"]["launch"]["queued_to_start"]["median_ns"].is_number());

  ASSERT_EQ(results["records"].size(), 2u);
  const json& global = results["records"][0];
  const json& float4 = results["records"][1];
  std::set<std::string> names;
  for (const json& run : global["end_to_end"]["runs"]) {
    names.insert(runName(run));
    EXPECT_EQ(run["verification"]["status"], "passed") << run.dump(2);
    EXPECT_TRUE(run["error"].is_null()) << run.dump(2);
    EXPECT_TRUE(run["predicted"].is_object()) << run.dump(2);
    EXPECT_GT(run["median"]["total_ns"].get<double>(), 0);
    EXPECT_EQ(run["upload_bytes"], 2 * 4 * 2560);
    EXPECT_EQ(run["download_bytes"], 4 * 2560);
  }
  EXPECT_EQ(names, (std::set<std::string>{"copy/1", "map/1", "use-host-ptr/1", "alloc-host-ptr/1", "overlap/1",
                                          "overlap/2", "overlap/3"}));
  EXPECT_EQ(global["end_to_end"]["overlap"].size(), 2u);  // the what-if of 2 and of 3 chunks
  EXPECT_TRUE(global["end_to_end"]["verdict"]["best"].is_string());

  // 2600 floats in three chunks of whole groups of 256 (4, 3 and 3) and the 40 left over.
  const json& runs = float4["end_to_end"]["runs"];
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[2]["chunk_elements"], json::parse("[1024, 768, 808]"));
  for (const json& run : runs) EXPECT_EQ(run["verification"]["status"], "passed") << run.dump(2);

  // What the user sees: the terminal, the CSV, the page, the PNG.
  EXPECT_TRUE(contains(o.out, "end-to-end vecadd/global N=2560")) << o.out;
  EXPECT_TRUE(contains(o.out, "overlap (3 chunks)")) << o.out;
  EXPECT_TRUE(contains(o.out, "  best: ")) << o.out;
  EXPECT_TRUE(contains(o.out, "overlap what-if, 2 chunks: the pipeline predicts")) << o.out;
  const std::string csv = fileText(dir.path() / "out" / "end-to-end.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 7 + 3) << csv;
  EXPECT_TRUE(contains(csv, "vecadd,float4,")) << csv;
  const std::string html = fileText(dir.path() / "out" / "report.html");
  EXPECT_TRUE(contains(html, "<h3>End to end</h3>"));
  EXPECT_TRUE(contains(html, "Host link and launch"));
  EXPECT_TRUE(contains(html, "Overlap what-if"));
#ifdef ROOFLAB_HAVE_CAIRO
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "end-to-end-vecadd.png"));
#endif

  // A saved run re-renders without a device.
  const auto report = runRooflab("report out/results.json --out again", dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  EXPECT_TRUE(contains(report.out, "end-to-end vecadd/float4 N=2600")) << report.out;
  EXPECT_TRUE(fs::exists(dir.path() / "again" / "end-to-end.csv"));
}

TEST(EndToEndRuns, OverlapOfAFamilyThatCannotBeSplitIsAnInputError) {
  TempDir dir;
  dir.write("m.toml", std::string(rooflab::testing::kQuickCpuRun) +
                          "[[study]]\nfamily = \"matmul\"\nvariants = [\"naive_coalesced\"]\nparams = { N = [64] }\n"
                          "end_to_end = [\"copy\", \"overlap\"]\n");
  const auto o = runRooflab("run m.toml", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "end_to_end asks for overlap, but family 'matmul'")) << o.err;
  EXPECT_TRUE(contains(o.err, "declares no [end_to_end] split")) << o.err;
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.json"));
}
