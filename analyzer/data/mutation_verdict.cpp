// A verdict's names, as results files spell them.
#include "analyzer/data/mutation_verdict.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<MutationReading> kMutationReadingNames[] = {
    {MutationReading::memory_bound, "memory-bound"},
    {MutationReading::compute_bound, "compute-bound"},
    {MutationReading::balanced, "balanced"},
    {MutationReading::latency_bound, "latency-bound"},
    {MutationReading::memory_leaning, "memory-leaning"},
    {MutationReading::compute_leaning, "compute-leaning"},
    {MutationReading::overhead_dominated, "overhead-dominated"},
    {MutationReading::unknown, "unknown"},
};

std::string toString(MutationReading reading) { return nameOf(kMutationReadingNames, reading); }

std::optional<MutationReading> parseMutationReading(std::string_view text) {
  return valueOf(kMutationReadingNames, text);
}

constexpr EnumName<MutantOrigin> kMutantOriginNames[] = {
    {MutantOrigin::annotated, "annotated"},
    {MutantOrigin::automatic, "automatic"},
};

std::string toString(MutantOrigin origin) { return nameOf(kMutantOriginNames, origin); }

std::optional<MutantOrigin> parseMutantOrigin(std::string_view text) { return valueOf(kMutantOriginNames, text); }

}  // namespace rooflab
