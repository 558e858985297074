// The run modes' names, as configs and results files spell them.
#include "analyzer/data/batch_config.hpp"

namespace rooflab {

std::string modeName(RunMode mode) {
  switch (mode) {
    case RunMode::normal: return "normal";
    case RunMode::compute_only: return "compute-only";
    case RunMode::memory_only: return "memory-only";
    case RunMode::what_if: return "what-if";
  }
  return "?";
}

std::optional<RunMode> parseMode(const std::string& name) {
  for (RunMode m : {RunMode::normal, RunMode::compute_only, RunMode::memory_only, RunMode::what_if})
    if (modeName(m) == name) return m;
  return std::nullopt;
}

}  // namespace rooflab
