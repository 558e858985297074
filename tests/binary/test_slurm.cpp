// A batch as a real Slurm job array: a single-node cluster of Debian's slurmctld, slurmd and munged
// started for the test in a temp folder (scripts/slurm-local-cluster.sh, as root, its own config,
// key, ports and state; stopped by pid), three array tasks running scripts/rooflab-array.sbatch on
// PoCL, and `rooflab merge`: the merged records equal one run of the batch point for point. Skips,
// saying why, where Slurm is not installed or the test is not root; CI installs Slurm (.ci/run).
#include <unistd.h>

#include <cstdlib>

#include "binary/parts_workspace.hpp"

using namespace rooflab;
using namespace rooflab::testing;
namespace fs = std::filesystem;

namespace {

bool onPath(const std::string& tool) { return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0; }

int shell(const std::string& command, const fs::path& log) {
  return exitCodeOf(std::system((command + " > '" + log.string() + "' 2>&1").c_str()));
}

// The cluster for one test: started in `dir`, stopped (its daemons, by the pids they wrote) when the
// test ends, passed or not.
class LocalCluster {
 public:
  explicit LocalCluster(fs::path dir) : dir_(std::move(dir)) {
    started_ =
        shell("bash '" + script() + "' start '" + dir_.string() + "'", dir_.parent_path() / "cluster-start.log") == 0;
  }
  ~LocalCluster() {
    shell("bash '" + script() + "' stop '" + dir_.string() + "'", dir_.parent_path() / "cluster-stop.log");
  }
  bool started() const { return started_; }
  std::string conf() const { return (dir_ / "slurm.conf").string(); }

 private:
  static std::string script() { return std::string(ROOFLAB_SOURCE_DIR) + "/scripts/slurm-local-cluster.sh"; }
  fs::path dir_;
  bool started_ = false;
};

}  // namespace

TEST(Slurm, AJobArrayOfThreePartsMergesIntoOneRun) {
  for (const char* tool : {"munged", "slurmctld", "slurmd", "sbatch", "sinfo"})
    if (!onPath(tool))
      GTEST_SKIP() << tool << " not found: install slurmctld, slurmd, slurm-client and munge (Debian) to run this "
                   << "test; .ci/run does";
  if (::geteuid() != 0) GTEST_SKIP() << "the test's Slurm daemons run as root: run this test as root";
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const LocalCluster cluster(w.dir.path() / "slurm");
  ASSERT_TRUE(cluster.started()) << fileText(w.dir.path() / "cluster-start.log");

  // The array's tasks run in the workspace (sbatch's working folder), with rooflab as built here.
  const std::string env =
      "cd '" + w.dir.path().string() + "' && SLURM_CONF='" + cluster.conf() + "' ROOFLAB='" + ROOFLAB_BINARY + "' ";
  const int submitted = shell(env + "timeout 300 sbatch --wait --array=0-2 --output=task-%a.log '" +
                                  ROOFLAB_SOURCE_DIR + "/scripts/rooflab-array.sbatch' cfg.toml parts",
                              w.dir.path() / "sbatch.log");
  std::string logs = fileText(w.dir.path() / "sbatch.log");
  for (int task = 0; task < 3; ++task) logs += fileText(w.dir.path() / ("task-" + std::to_string(task) + ".log"));
  ASSERT_EQ(submitted, 0) << logs << fileText(w.dir.path() / "slurm" / "slurmctld.log");

  const BinaryOutcome merged = w.run("merge parts/part-0 parts/part-1 parts/part-2 --out merged");
  ASSERT_EQ(merged.exit_code, 0) << show(merged) << logs;
  const BinaryOutcome single = w.run("run cfg.toml --quiet --out single");
  ASSERT_EQ(single.exit_code, 0) << show(single);

  const ResultsDocument one = w.results("single");
  const ResultsDocument joined = w.results("merged");
  EXPECT_EQ(pointsAndStatuses(joined), pointsAndStatuses(one));
  for (const RunRecord& record : joined.records)
    if (record.mode == RunMode::normal)
      EXPECT_EQ(record.verification.status, VerificationStatus::passed) << record.label();
  ASSERT_TRUE(joined.batch && one.batch);
  EXPECT_EQ(joined.batch->id, one.batch->id);
  // Each task took its part from the job array's environment.
  for (int task = 0; task < 3; ++task) {
    const ResultsDocument part = w.results("parts/part-" + std::to_string(task));
    ASSERT_TRUE(part.batch && part.batch->part);
    EXPECT_EQ(part.batch->part->index, static_cast<std::size_t>(task + 1));
    EXPECT_EQ(part.batch->part->count, 3u);
    EXPECT_TRUE(contains(part.batch->part->source, "SLURM_ARRAY_TASK_ID=" + std::to_string(task)))
        << part.batch->part->source;
  }
}
