// A batch run in parts (`rooflab run --shard I/N`) and joined (`rooflab merge`), without Slurm: the
// parts merged hold the records of one run of the whole batch, point for point; a missing part, a
// part given twice and a part of another batch are said, each in its own words.
#include "binary/parts_workspace.hpp"

using namespace rooflab;
using namespace rooflab::testing;
namespace fs = std::filesystem;

namespace {

// Runs part I of 3 of the workspace's batch into partI; each must succeed.
void runParts(const PartsWorkspace& w, const std::vector<int>& parts) {
  for (int part : parts) {
    const BinaryOutcome o =
        w.run("run cfg.toml --quiet --shard " + std::to_string(part) + "/3 --out part" + std::to_string(part));
    ASSERT_EQ(o.exit_code, 0) << show(o);
    EXPECT_TRUE(contains(o.err, "part " + std::to_string(part) + " of 3 (--shard " + std::to_string(part) + "/3)"))
        << o.err;
  }
}

}  // namespace

// Three parts run one after the other, merged: the same points, in the same order, with the same
// statuses as one run of the batch, every original verified; one batch identity throughout.
TEST(Shards, PartsMergedEqualOneRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const BinaryOutcome single = w.run("run cfg.toml --quiet --out single");
  ASSERT_EQ(single.exit_code, 0) << show(single);
  runParts(w, {1, 2, 3});
  const BinaryOutcome merged = w.run("merge part1 part2 part3 --out merged --formats json,html,csv");
  ASSERT_EQ(merged.exit_code, 0) << show(merged);
  EXPECT_TRUE(contains(merged.out, "merged 3 parts (12 records)")) << merged.out;

  const ResultsDocument one = w.results("single");
  const ResultsDocument joined = w.results("merged");
  EXPECT_EQ(pointsAndStatuses(joined), pointsAndStatuses(one));
  ASSERT_EQ(one.records.size(), 12u);
  for (const RunRecord& record : joined.records)
    if (record.mode == RunMode::normal)
      EXPECT_EQ(record.verification.status, VerificationStatus::passed) << record.label();
  ASSERT_TRUE(one.batch && joined.batch);
  EXPECT_EQ(joined.batch->id, one.batch->id);
  EXPECT_EQ(joined.status, BatchStatus::complete);
  ASSERT_TRUE(joined.merge);
  EXPECT_EQ(joined.merge->parts, 3u);
  EXPECT_TRUE(joined.merge->missing_parts.empty());
  // Each part holds whole groups (a variant at a size, with its modes): its verdict is there.
  std::size_t with_verdict = 0;
  for (const RecordConclusions& concluded : joined.analysis.records) with_verdict += concluded.mutation.has_value();
  EXPECT_EQ(with_verdict, 6u);
  // Parts split the batch: their sizes add up to it, and each says where I/N came from.
  std::size_t part_points = 0;
  for (int part = 1; part <= 3; ++part) {
    const ResultsDocument d = w.results("part" + std::to_string(part));
    ASSERT_TRUE(d.batch && d.batch->part);
    EXPECT_EQ(d.batch->id, one.batch->id);
    EXPECT_EQ(d.batch->part->source, "--shard " + std::to_string(part) + "/3");
    part_points += d.records.size();
  }
  EXPECT_EQ(part_points, 12u);
  EXPECT_TRUE(fs::exists(w.dir.path() / "merged" / "report.html"));
  EXPECT_TRUE(fs::exists(w.dir.path() / "merged" / "results.csv"));
}

// A missing part is named with the points it held, the merged document is `incomplete` and the merge
// exits 1; a part given twice keeps the first one's records and says so.
TEST(Shards, MergeSaysWhichPartIsMissingAndWhichIsTwice) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runParts(w, {1, 3});
  fs::copy(w.dir.path() / "part1", w.dir.path() / "part1-again", fs::copy_options::recursive);
  const BinaryOutcome o = w.run("merge part1 part3 part1-again --out merged");
  EXPECT_EQ(o.exit_code, 1) << show(o);
  EXPECT_TRUE(
      contains(o.err, "rooflab: merge: part 2 of 3 is missing (its 4 points): run it (`rooflab run --shard 2/3`)"))
      << o.err;
  EXPECT_TRUE(contains(o.err, "part 1 of 3 is given twice")) << o.err;
  EXPECT_TRUE(contains(o.err, "4 records are in two parts; the first part's is kept")) << o.err;
  const ResultsDocument joined = w.results("merged");
  EXPECT_EQ(joined.status, BatchStatus::incomplete);
  EXPECT_EQ(joined.records.size(), 8u);
  ASSERT_TRUE(joined.merge);
  EXPECT_EQ(joined.merge->missing_parts, std::vector<std::size_t>{2});
  ASSERT_TRUE(joined.summary);
  EXPECT_EQ(joined.summary->not_run, 4u);
}

// Parts of different batches (another size swept) are refused with exit 2 before anything is written.
TEST(Shards, MergeRefusesPartsOfAnotherBatch) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  runParts(w, {1});
  const BinaryOutcome other = w.run("run cfg.toml --quiet --shard 2/3 --set N=512 --out part2");
  ASSERT_EQ(other.exit_code, 0) << show(other);
  const BinaryOutcome o = w.run("merge part1 part2 --out merged");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "is part of another batch than")) << o.err;
  EXPECT_FALSE(fs::exists(w.dir.path() / "merged"));
}

// --shard slurm reads the job array's task (here the second of two, numbered from 3) and says so;
// outside Slurm it is an input error, as is a part beyond N.
TEST(Shards, TheSlurmEnvironmentNamesThePart) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const BinaryOutcome o = w.run("run cfg.toml --quiet --shard slurm --out part",
                                "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=2 ");
  ASSERT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.err, "part 2 of 2 (SLURM_ARRAY_TASK_ID=4")) << o.err;
  const ResultsDocument part = w.results("part");
  ASSERT_TRUE(part.batch && part.batch->part);
  EXPECT_EQ(part.batch->part->index, 2u);
  EXPECT_EQ(part.records.size(), 6u);

  const BinaryOutcome outside = w.run("run cfg.toml --quiet --shard slurm --out none",
                                      "unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_PROCID SLURM_NTASKS; ");
  EXPECT_EQ(outside.exit_code, 2) << show(outside);
  EXPECT_TRUE(contains(outside.err, "--shard slurm: neither SLURM_ARRAY_TASK_ID")) << outside.err;
  const BinaryOutcome beyond = w.run("run cfg.toml --quiet --shard 4/3 --out none");
  EXPECT_EQ(beyond.exit_code, 2) << show(beyond);
  EXPECT_TRUE(contains(beyond.err, "--shard '4/3': expected I/N")) << beyond.err;
  EXPECT_FALSE(fs::exists(w.dir.path() / "none"));
}

// Parts run on different devices (two PoCL drivers of one CPU) are refused with exit 2: their records
// are not of one device.
TEST(Shards, MergeRefusesPartsOfOtherDevices) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const std::string two_drivers = "POCL_DEVICES='basic pthread' ";
  ASSERT_EQ(w.run("run cfg.toml --quiet --device 0:0 --shard 1/2 --set N=1024 --out part1", two_drivers).exit_code, 0);
  ASSERT_EQ(w.run("run cfg.toml --quiet --device 0:1 --shard 2/2 --set N=1024 --out part2", two_drivers).exit_code, 0);
  const BinaryOutcome o = w.run("merge part1 part2 --out merged");
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "ran on pthread-")) << o.err;
  EXPECT_TRUE(contains(o.err, "the parts of one merge must run on the same devices")) << o.err;
  EXPECT_FALSE(fs::exists(w.dir.path() / "merged"));
}
