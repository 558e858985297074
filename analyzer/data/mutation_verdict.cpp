// A verdict's names, as results files spell them.
#include "analyzer/data/mutation_verdict.hpp"

namespace rooflab {

std::string toString(MutationReading reading) {
  switch (reading) {
    case MutationReading::memory_bound: return "memory-bound";
    case MutationReading::compute_bound: return "compute-bound";
    case MutationReading::balanced: return "balanced";
    case MutationReading::latency_bound: return "latency-bound";
    case MutationReading::memory_leaning: return "memory-leaning";
    case MutationReading::compute_leaning: return "compute-leaning";
    case MutationReading::overhead_dominated: return "overhead-dominated";
    case MutationReading::unknown: break;
  }
  return "unknown";
}

std::optional<MutationReading> parseMutationReading(std::string_view text) {
  for (MutationReading reading :
       {MutationReading::memory_bound, MutationReading::compute_bound, MutationReading::balanced,
        MutationReading::latency_bound, MutationReading::memory_leaning, MutationReading::compute_leaning,
        MutationReading::overhead_dominated, MutationReading::unknown})
    if (text == toString(reading)) return reading;
  return std::nullopt;
}

std::string toString(MutantOrigin origin) { return origin == MutantOrigin::automatic ? "automatic" : "annotated"; }

std::optional<MutantOrigin> parseMutantOrigin(std::string_view text) {
  if (text == "annotated") return MutantOrigin::annotated;
  if (text == "automatic") return MutantOrigin::automatic;
  return std::nullopt;
}

}  // namespace rooflab
