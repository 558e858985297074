#pragma once
// The global bytes an automatic mutant's accesses reach at a point: the rewriter says which kernel
// arguments each launched kernel loads (and which of those loads the compute-only mutant keeps) and
// stores; the point's launches bind them to buffers, whose sizes give bytes.
#include "analyzer/data/mutation_verdict.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "mutators/auto_mutation.hpp"

namespace rooflab {

// Fills check.bytes and check.launch_bytes, or check.bytes_unknown with why they are not known.
void addTrafficBytes(const AutoMutant& mutant, const ResolvedPoint& point, MutantSourceCheck& check);

}  // namespace rooflab
