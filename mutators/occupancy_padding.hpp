#pragma once
// Occupancy padding of mutants (docs/manifest.md, "Mutation annotations"): a mutant that needs fewer
// resources than its original may fit more work-groups per compute unit, and then its time no longer
// measures the original's memory traffic or arithmetic at the original's parallelism. rooflab gives
// such a mutant one more __local argument, unused, whose size (dynamic local memory) brings its
// occupancy back down to the original's.
#include <set>
#include <string>

namespace rooflab {

// Name of the __local parameter padding adds; kernels must not use it themselves.
inline constexpr const char* kOccupancyPadParameter = "rl_occupancy_pad";

// `source` with `local uchar* rl_occupancy_pad` appended to the parameter list of every kernel named
// in `kernels` (their OpenCL argument count grows by one, the pad last). Comments and string literals
// are skipped. Throws std::invalid_argument naming a kernel whose definition is not found.
std::string addOccupancyPadParameter(const std::string& source, const std::set<std::string>& kernels);

}  // namespace rooflab
