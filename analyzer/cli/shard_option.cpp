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

BatchPart fromSlurm(const std::function<const char*(const char*)>& env) {
  const char* id = env("SLURM_ARRAY_TASK_ID");
  const char* count = env("SLURM_ARRAY_TASK_COUNT");
  if (id != nullptr && count != nullptr) {
    const char* min = env("SLURM_ARRAY_TASK_MIN");
    const char* step = env("SLURM_ARRAY_TASK_STEP");
    const auto task = wholeNumber(id), tasks = wholeNumber(count);
    const long long first = wholeNumber(min).value_or(0), stride = wholeNumber(step).value_or(1);
    const std::string source = variable("SLURM_ARRAY_TASK_ID", id) + " (" + variable("SLURM_ARRAY_TASK_MIN", min) + ", " +
                               variable("SLURM_ARRAY_TASK_STEP", step) + "), " + variable("SLURM_ARRAY_TASK_COUNT", count);
    if (!task || !tasks || *tasks < 1 || stride < 1 || *task < first || (*task - first) % stride != 0 ||
        (*task - first) / stride >= *tasks)
      throw InputError("--shard slurm: the job array's variables do not name a task of it: " + source);
    return BatchPart{static_cast<std::size_t>((*task - first) / stride + 1), static_cast<std::size_t>(*tasks), source, {}, {}, {}};
  }
  const char* procid = env("SLURM_PROCID");
  const char* ntasks = env("SLURM_NTASKS");
  if (procid != nullptr && ntasks != nullptr) {
    const auto task = wholeNumber(procid), tasks = wholeNumber(ntasks);
    const std::string source = variable("SLURM_PROCID", procid) + ", " + variable("SLURM_NTASKS", ntasks);
    if (!task || !tasks || *tasks < 1 || *task < 0 || *task >= *tasks)
      throw InputError("--shard slurm: the step's variables do not name a task of it: " + source);
    return BatchPart{static_cast<std::size_t>(*task + 1), static_cast<std::size_t>(*tasks), source, {}, {}, {}};
  }
  throw InputError("--shard slurm: neither SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (an sbatch --array job) "
                   "nor SLURM_PROCID and SLURM_NTASKS (an srun step) are set; outside Slurm, give the part as I/N");
}

}  // namespace

BatchPart parseShardOption(const std::string& text, const std::function<const char*(const char*)>& env) {
  if (text == "slurm") return fromSlurm(env);
  const std::size_t slash = text.find('/');
  const auto index = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(0, slash).c_str());
  const auto count = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(slash + 1).c_str());
  if (!index || !count || *count < 1 || *index < 1 || *index > *count)
    throw InputError("--shard '" + text + "': expected I/N, part I (1 to N) of N, or slurm (the part Slurm's "
                     "environment names)");
  return BatchPart{static_cast<std::size_t>(*index), static_cast<std::size_t>(*count), "--shard " + text, {}, {}, {}};
}

}  // namespace rooflab
