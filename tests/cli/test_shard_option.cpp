// `rooflab run --shard`: I/N as given, or the part Slurm's environment names (a job array's task, or
// a step's task), and the source it says it used.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analyzer/cli/shard_option.hpp"
#include "analyzer/support/errors.hpp"

using namespace rooflab;

namespace {

// An environment of its own, for one call.
std::function<const char*(const char*)> environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

std::string shardErrorOf(const std::string& text, const std::map<std::string, std::string>& variables = {}) {
  try {
    parseShardOption(text, environment(variables));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ShardOption, IOfNAsGiven) {
  const BatchPart part = parseShardOption("2/5", environment({}));
  EXPECT_EQ(part.index, 2u);
  EXPECT_EQ(part.count, 5u);
  EXPECT_EQ(part.source, "--shard 2/5");
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0", "1/2/3", "-1/2", ""})
    EXPECT_NE(shardErrorOf(bad).find("expected I/N"), std::string::npos) << bad << ": " << shardErrorOf(bad);
}

// A job array numbered from 10 in steps of 5 (--array=10-20:5): task 15 is the second of three.
TEST(ShardOption, AJobArraysTaskCountsFromItsFirstInItsSteps) {
  const BatchPart part = parseShardOption("slurm", environment({{"SLURM_ARRAY_TASK_ID", "15"},
                                                                {"SLURM_ARRAY_TASK_MIN", "10"},
                                                                {"SLURM_ARRAY_TASK_STEP", "5"},
                                                                {"SLURM_ARRAY_TASK_COUNT", "3"},
                                                                {"SLURM_PROCID", "0"},
                                                                {"SLURM_NTASKS", "1"}}));
  EXPECT_EQ(part.index, 2u);
  EXPECT_EQ(part.count, 3u);
  EXPECT_EQ(part.source,
            "SLURM_ARRAY_TASK_ID=15 (SLURM_ARRAY_TASK_MIN=10, SLURM_ARRAY_TASK_STEP=5), SLURM_ARRAY_TASK_COUNT=3");
  EXPECT_NE(shardErrorOf("slurm", {{"SLURM_ARRAY_TASK_ID", "12"},
                                   {"SLURM_ARRAY_TASK_MIN", "10"},
                                   {"SLURM_ARRAY_TASK_STEP", "5"},
                                   {"SLURM_ARRAY_TASK_COUNT", "3"}})
                .find("do not name a task of it"),
            std::string::npos);
}

// Outside a job array, an srun step's task: SLURM_PROCID (from 0) of SLURM_NTASKS.
TEST(ShardOption, AStepsTaskWithoutAnArray) {
  const BatchPart part = parseShardOption("slurm", environment({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "4"}}));
  EXPECT_EQ(part.index, 4u);
  EXPECT_EQ(part.count, 4u);
  EXPECT_EQ(part.source, "SLURM_PROCID=3, SLURM_NTASKS=4");
  EXPECT_NE(shardErrorOf("slurm").find("neither SLURM_ARRAY_TASK_ID"), std::string::npos) << shardErrorOf("slurm");
}

// An evenly spaced array names its parts with or without its count (from its first, last and step);
// one that is not evenly spaced (--array=1,3,7) names none, in any task; an empty --shard is no part.
TEST(ShardOption, AnArrayMustBeEvenlySpacedToNameItsParts) {
  const BatchPart counted = parseShardOption("slurm", environment({{"SLURM_ARRAY_TASK_ID", "30"},
                                                                   {"SLURM_ARRAY_TASK_MIN", "10"},
                                                                   {"SLURM_ARRAY_TASK_MAX", "40"},
                                                                   {"SLURM_ARRAY_TASK_STEP", "10"}}));
  EXPECT_EQ(counted.index, 3u);
  EXPECT_EQ(counted.count, 4u);
  for (const char* task : {"1", "3", "7"})
    EXPECT_NE(shardErrorOf("slurm", {{"SLURM_ARRAY_TASK_ID", task},
                                     {"SLURM_ARRAY_TASK_MIN", "1"},
                                     {"SLURM_ARRAY_TASK_MAX", "7"},
                                     {"SLURM_ARRAY_TASK_STEP", "1"},
                                     {"SLURM_ARRAY_TASK_COUNT", "3"}})
                  .find("the job array is not evenly spaced: 3 tasks from 1 to 7 by 1"),
              std::string::npos)
        << task;
  EXPECT_NE(shardErrorOf("").find("--shard '': expected I/N"), std::string::npos) << shardErrorOf("");
  EXPECT_NE(shardErrorOf("slurm", {{"SLURM_PROCID", "1"}}).find("SLURM_PROCID=1 is set, but not SLURM_NTASKS"),
            std::string::npos)
      << shardErrorOf("slurm", {{"SLURM_PROCID", "1"}});
}
