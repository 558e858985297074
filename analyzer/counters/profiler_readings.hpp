#pragma once
// The course's profiler readings among the counters' derived values (derivedCounterTable() in
// counters.hpp): branch divergence, replays, global load and store efficiency, L1 and L2 hit rates,
// bank conflicts per shared access, instructions per DRAM transaction. Collected for originals only
// (the full metric table; mutants collect their validation subset). docs/results-schema.md lists them.
#include <string>
#include <vector>

namespace rooflab::counters {

// Their derived keys, in the order reports show them.
const std::vector<std::string>& profilerReadingKeys();

}  // namespace rooflab::counters
