#include "analyzer/cli/shard_option.hpp"

#include <charconv>

#include "analyzer/support/errors.hpp"

namespace rooflab {
namespace {

std::optional<long long> wholeNumber(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string value(text);
  long long number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) return std::nullopt;
  return number;
}

std::string variable(const char* name, const char* value) { return std::string(name) + "=" + (value ? value : ""); }

// A job array's task: its place in the array is its part. Slurm names the array by its first and
// last task, its step and its count; an array that is not evenly spaced (--array=1,3,7) has no place
// rooflab can compute from its task id alone, so it is refused rather than guessed.
BatchPart fromSlurmArray(const std::function<const char*(const char*)>& env) {
  const char* id = env("SLURM_ARRAY_TASK_ID");
  const char* count = env("SLURM_ARRAY_TASK_COUNT");
  const char* min = env("SLURM_ARRAY_TASK_MIN");
  const char* max = env("SLURM_ARRAY_TASK_MAX");
  const char* step = env("SLURM_ARRAY_TASK_STEP");
  const std::string source = variable("SLURM_ARRAY_TASK_ID", id) + " (" + variable("SLURM_ARRAY_TASK_MIN", min) + ", " +
                             variable("SLURM_ARRAY_TASK_STEP", step) + "), " +
                             variable("SLURM_ARRAY_TASK_COUNT", count) +
                             (max ? ", " + variable("SLURM_ARRAY_TASK_MAX", max) : "");
  if (count == nullptr && (min == nullptr || max == nullptr))
    throw InputError("--shard slurm: SLURM_ARRAY_TASK_ID=" + std::string(id) +
                     " is set, but not SLURM_ARRAY_TASK_COUNT (nor SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX): "
                     "the number of parts is not known; give the part as --shard I/N");
  const auto task = wholeNumber(id), first = wholeNumber(min ? min : "0"), last = wholeNumber(max);
  std::optional<long long> tasks = wholeNumber(count), stride = wholeNumber(step);
  if (!task || !first || (count && !tasks) || (max && !last) || (step && !stride))
    throw InputError("--shard slurm: the job array's variables are not whole numbers: " + source);
  if (!stride)
    stride = tasks && last && *tasks > 1 && (*last - *first) % (*tasks - 1) == 0 ? (*last - *first) / (*tasks - 1) : 1;
  if (!tasks && *stride > 0) tasks = (*last - *first) / *stride + 1;
  if (!tasks || *stride < 1)
    throw InputError("--shard slurm: the job array's variables do not name a task of it: " + source);
  if (last && *tasks >= 1 && *last - *first != (*tasks - 1) * *stride)
    throw InputError("--shard slurm: the job array is not evenly spaced: " + std::to_string(*tasks) + " tasks from " +
                     std::to_string(*first) + " to " + std::to_string(*last) + " by " + std::to_string(*stride) + " (" +
                     source +
                     "), so a task's part cannot be told from its id; submit an evenly spaced array (--array=1-" +
                     std::to_string(*tasks) + ", or FIRST-LAST:STEP), or give each task --shard I/N");
  if (*tasks < 1 || *stride < 1 || *task < *first || (*task - *first) % *stride != 0 ||
      (*task - *first) / *stride >= *tasks)
    throw InputError("--shard slurm: the job array's variables do not name a task of it: " + source);
  return BatchPart{
      static_cast<std::size_t>((*task - *first) / *stride + 1), static_cast<std::size_t>(*tasks), source, {}, {}, {}};
}

BatchPart fromSlurm(const std::function<const char*(const char*)>& env) {
  if (env("SLURM_ARRAY_TASK_ID") != nullptr) return fromSlurmArray(env);
  const char* procid = env("SLURM_PROCID");
  const char* ntasks = env("SLURM_NTASKS");
  if (procid != nullptr && ntasks == nullptr)
    throw InputError("--shard slurm: SLURM_PROCID=" + std::string(procid) +
                     " is set, but not SLURM_NTASKS: the number of parts is not known; give the part as --shard I/N");
  if (procid != nullptr) {
    const auto task = wholeNumber(procid), tasks = wholeNumber(ntasks);
    const std::string source = variable("SLURM_PROCID", procid) + ", " + variable("SLURM_NTASKS", ntasks);
    if (!task || !tasks || *tasks < 1 || *task < 0 || *task >= *tasks)
      throw InputError("--shard slurm: the step's variables do not name a task of it: " + source);
    return BatchPart{static_cast<std::size_t>(*task + 1), static_cast<std::size_t>(*tasks), source, {}, {}, {}};
  }
  throw InputError("--shard slurm: neither SLURM_ARRAY_TASK_ID (an sbatch --array job) nor SLURM_PROCID and "
                   "SLURM_NTASKS (an srun step) are set; outside Slurm, give the part as I/N");
}

}  // namespace

BatchPart parseShardOption(const std::string& text, const std::function<const char*(const char*)>& env) {
  if (text == "slurm") return fromSlurm(env);
  const std::size_t slash = text.find('/');
  const auto index = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(0, slash).c_str());
  const auto count = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(slash + 1).c_str());
  if (!index || !count || *count < 1 || *index < 1 || *index > *count)
    throw InputError("--shard '" + text +
                     "': expected I/N, part I (1 to N) of N, or slurm (the part Slurm's "
                     "environment names)");
  return BatchPart{static_cast<std::size_t>(*index), static_cast<std::size_t>(*count), "--shard " + text, {}, {}, {}};
}

}  // namespace rooflab
