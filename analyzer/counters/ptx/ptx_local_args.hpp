#pragma once
// Rewrite 4 of rewriteForCuda (ptx_rewrite.hpp): a kernel's __local pointer parameters become offsets
// into the launch's dynamic shared memory. layoutDynamicLocal, the public part, is declared in
// ptx_rewrite.hpp. Internal to the ptx_*.cpp files.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/counters/ptx/ptx_entries.hpp"
#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::counters::ptx_detail {

// The `.align` of the one `.extern .shared` array: 16, or more when a __local parameter asks for it.
std::size_t dynamicLocalAlignment(const std::vector<EntryLocation>& entries);

// Offsets of each kernel's __local pointer parameters, by kernel and parameter name. Kernels named in
// local_arg_bytes get their layout in `layouts`; a kernel with one __local parameter needs no size.
// Throws PtxRewriteError for a kernel with two or more and no sizes, or the wrong number of sizes.
using LocalArgOffsets = std::map<std::string, std::map<std::string, std::size_t>>;
LocalArgOffsets placeLocalArguments(const std::vector<EntryLocation>& entries,
                                    const LocalArgBytesByKernel& local_arg_bytes,
                                    std::map<std::string, DynamicLocalLayout>& layouts);

// The lines (each ending in a newline) that replace a body line loading one of `offsets`' parameters:
// `mov.u64 %rdX, <symbol>;` plus an `add.s64` for a non-zero offset. nullopt when the line names none
// of them; throws PtxRewriteError when it uses one other than by `ld.param.u64 %rdX, [param];`.
std::optional<std::string> replaceLocalPointerLoad(const SourceLine& body, const std::string& kernel,
                                                   const std::map<std::string, std::size_t>& offsets,
                                                   const std::string& symbol);

}  // namespace rooflab::counters::ptx_detail
