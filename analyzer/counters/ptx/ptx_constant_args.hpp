#pragma once
// Rewrite 6 of rewriteForCuda (ptx_rewrite.hpp): a kernel's __constant pointer parameters become
// __global ones. NVIDIA's OpenCL declares them `.param .u64 .ptr .const` and reads them with
// `ld.const`, from a constant bank its runtime fills; the CUDA driver can pass only a device
// pointer, which `ld.const` would read as a constant-bank offset. So the parameter takes the buffer's
// device pointer, and each load whose address comes from it reads global memory (`ld.global.nc`,
// the read-only path: OpenCL's __constant data does not change during the launch). Internal to the
// ptx_*.cpp files.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "analyzer/counters/ptx/ptx_text.hpp"

namespace rooflab::counters::ptx_detail {

// The registers of body lines [first, last] that hold an address derived from one of `params` (the
// kernel's __constant pointer parameters): loaded from it by `ld.param`, then through any
// arithmetic, move or conversion whose sources hold one. Throws PtxRewriteError naming the kernel,
// the line and the parameter when a parameter is used in any other way than by `ld.param`.
std::set<std::string> constantAddressRegisters(const std::vector<SourceLine>& lines, std::size_t first,
                                               std::size_t last, const std::set<std::string>& params,
                                               const std::string& kernel);

// `body` with `ld.const` through one of `registers` turned into `ld.global.nc`, and `cvta.const`,
// `cvta.to.const` of one into their .global forms; the line as it is when it has none.
std::string globalFormOfConstantAccess(const SourceLine& body, const std::set<std::string>& registers);

}  // namespace rooflab::counters::ptx_detail
