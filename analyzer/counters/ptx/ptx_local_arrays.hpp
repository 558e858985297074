#pragma once
// Rewrite 5 of rewriteForCuda (ptx_rewrite.hpp): a kernel's statically declared `.shared` arrays (its
// demoted __local arrays) laid out as NVIDIA's OpenCL compiler lays them out. Internal to the ptx_*.cpp
// files.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/counters/ptx/ptx_text.hpp"

namespace rooflab::counters::ptx_detail {

// NVIDIA's OpenCL compiler never places a __local object at shared address 0 (a __local pointer must
// not equal NULL): its ptxas reports 4 bytes more shared memory than the PTX declares for a kernel with
// 4-byte-aligned arrays, 16 more for 16-byte-aligned ones (seen on an H100, driver 580, with
// -cl-nv-verbose). So under OpenCL a `local float t[16][16]` starts at 4 mod 16, and ptxas cannot merge
// its scalar loads into 64- or 128-bit ones, which the CUDA driver, placing the same array at 0, does:
// the bridged tiled matmuls ran 1.2x to 3x faster than under OpenCL. The bridge therefore lays the
// demoted arrays out itself, as OpenCL does: 4 reserved bytes, then each array in declaration order at
// its alignment, all inside one array aligned as the most aligned of them.
struct StaticLocalLayout {
  std::map<std::string, std::size_t> offsets;  // demoted array -> byte offset in the combined array
  std::set<std::size_t> declaration_lines;     // indices into lines
  std::size_t total_bytes = 0;
  std::size_t align_bytes = 4;  // the largest array alignment: ptxas then sizes it as OpenCL's does
};

// The OpenCL layout of one entry's demoted arrays (body lines body_begin..body_end, indices into
// lines), with every body line that references them rewritten to `symbol` + offset, by line index;
// nullopt when the entry has none, or declares or uses one in a form this rewrite does not know (the
// kernel then keeps CUDA's own layout).
std::optional<std::pair<StaticLocalLayout, std::map<std::size_t, std::string>>> planOpenClStaticLocal(
    const std::vector<SourceLine>& lines, std::size_t body_begin, std::size_t body_end, const std::string& symbol);

}  // namespace rooflab::counters::ptx_detail
