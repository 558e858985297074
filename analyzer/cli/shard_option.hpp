#pragma once
// `rooflab run --shard I/N` and `--shard slurm`: which part of a batch this run makes.
#include <functional>
#include <optional>
#include <string>

#include "analyzer/data/batch_parts.hpp"

namespace rooflab {

// "I/N" as given, or "slurm": I/N from Slurm's environment, read through `env` (std::getenv in
// rooflab): a job array's task (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, over
// SLURM_ARRAY_TASK_STEP, of SLURM_ARRAY_TASK_COUNT) or else a task of a step (SLURM_PROCID of
// SLURM_NTASKS). The part's source says which it used. Throws InputError for anything else, and for
// slurm outside a Slurm job.
BatchPart parseShardOption(const std::string& text, const std::function<const char*(const char*)>& env);

}  // namespace rooflab
