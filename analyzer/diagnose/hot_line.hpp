#pragma once
// The hot line of an original: the one source line where most of its warp samples gather, named by
// the diagnosis when the stall those samples show most waits on memory, a dependency or
// synchronisation (docs/results-schema.md, "Source lines").
#include <cstdint>
#include <optional>

#include "analyzer/data/diagnosis.hpp"

namespace rooflab {

// A hot line is named when all of these hold:
// - the sampling is available and at least kHotLineMinSamples samples fell at lines of the
//   program's files (fewer give a share that moves by several points from one run to the next);
// - the most sampled line holds at least kHotLineMinShare of those samples (below it the time is
//   spread over several lines, and naming one would mislead);
// - that line's most sampled stall reason has a cause (causeOfStall): a line whose warps mostly
//   issue, or wait for a math pipe, is busy computing, which the roofline and the mutants already say.
// Ties go to the line, and then the reason, listed first (the sampling lists most samples first).
inline constexpr double kHotLineMinShare = 0.4;
inline constexpr std::int64_t kHotLineMinSamples = 100;

std::optional<HotLine> hotLineOf(const LineSampling& sampling);

}  // namespace rooflab
