// The end-to-end part of a plan: strategies in their running order, and the data of an overlapped
// run split in chunks along the family's [end_to_end] split parameter, each chunk resolved once.
#include "analyzer/plan/end_to_end_plan.hpp"

#include <algorithm>

#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// `total` split in `chunks` ranges, each but the last a multiple of `granule`, as even as that allows.
std::vector<std::uint64_t> chunkSizes(std::uint64_t total, std::uint64_t granule, int chunks) {
  const std::uint64_t count = static_cast<std::uint64_t>(chunks);
  const std::uint64_t whole_granules = total / granule;
  std::vector<std::uint64_t> sizes(count, 0);
  for (std::uint64_t i = 0; i < count; ++i)
    sizes[i] = (whole_granules / count + (i < whole_granules % count ? 1 : 0)) * granule;
  sizes.back() += total - whole_granules * granule;  // the tail shorter than a granule
  return sizes;
}

std::vector<ResolvedChunk> planSplit(const ResolvedPoint& point, int chunks) {
  const FamilyManifest& family = *point.run_point.family;
  const EndToEndSplit& split = *family.split;
  const double value = point.run_point.params.at(split.param);
  const std::uint64_t total = static_cast<std::uint64_t>(value);
  const std::int64_t granule = split.granule.count(point.run_point.params);
  const std::string at = split.where.str() + ": end_to_end.split: ";
  if (static_cast<double>(total) != value)
    throw InputError(at + split.param + " = " + formatNumber(value) + " is not a whole number of elements to split");
  if (total < std::uint64_t(chunks) * std::uint64_t(granule))
    throw InputError(at + split.param + " = " + std::to_string(total) + " cannot be split in " +
                     std::to_string(chunks) + " chunks of at least " + std::to_string(granule) + " (the granule)");
  std::vector<ResolvedChunk> out;
  std::vector<std::uint64_t> offsets(family.buffers.size(), 0);
  const std::vector<std::uint64_t> sizes = chunkSizes(total, std::uint64_t(granule), chunks);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    RunPoint chunk_point = point.run_point;
    chunk_point.params[split.param] = static_cast<double>(sizes[k]);
    ResolvedPoint resolved;
    try {
      resolved = resolvePoint(chunk_point);
    } catch (const std::exception& e) {
      throw InputError("chunk " + std::to_string(k + 1) + " of " + std::to_string(chunks) + " (" + split.param + " = " +
                       std::to_string(sizes[k]) + "): " + e.what());
    }
    resolved.reference_point = nullptr;  // the whole output is checked, not each chunk's
    resolved.reference_error.clear();
    ResolvedChunk chunk;
    chunk.elements = sizes[k];
    chunk.buffer_offsets = offsets;
    for (std::size_t b = 0; b < family.buffers.size(); ++b) offsets[b] += resolved.buffers[b].count;
    chunk.point = std::make_shared<const ResolvedPoint>(std::move(resolved));
    out.push_back(std::move(chunk));
  }
  for (std::size_t b = 0; b < family.buffers.size(); ++b)
    if (offsets[b] != point.buffers[b].count)
      throw InputError(family.buffers[b].count.where.str() + ": " + family.buffers[b].count.key + ": buffer '" +
                       family.buffers[b].name + "' ('" + family.buffers[b].count.text +
                       "') does not grow in proportion to " + split.param + ": its " + std::to_string(chunks) +
                       " chunks hold " + std::to_string(offsets[b]) + " elements, the whole " +
                       std::to_string(point.buffers[b].count) +
                       "; an overlapped run splits every buffer with the data");
  return out;
}

}  // namespace

std::string endToEndStudyProblem(const StudySpec& study, const std::vector<RunMode>& modes) {
  if (study.end_to_end.empty()) return "";
  if (std::find(modes.begin(), modes.end(), RunMode::normal) == modes.end())
    return "end_to_end runs with the normal points, and this study runs no normal mode (add \"normal\" to its modes)";
  return "";
}

std::optional<EndToEndRequest> planEndToEnd(const StudySpec& study, const ResolvedPoint& point) {
  if (study.end_to_end.empty() || point.run_point.mode != RunMode::normal) return std::nullopt;
  const FamilyManifest& family = *point.run_point.family;
  EndToEndRequest request;
  bool overlap = false;
  for (EndToEndStrategy strategy : kEndToEndStrategies) {
    if (std::find(study.end_to_end.begin(), study.end_to_end.end(), strategy) == study.end_to_end.end()) continue;
    if (strategy == EndToEndStrategy::overlap) {
      overlap = family.split.has_value();
      if (!overlap && !study.end_to_end_all)
        throw InputError("end_to_end asks for overlap, but family '" + family.name + "' (" + family.path.string() +
                         ") declares no [end_to_end] split: nothing says its kernels give the right result on a chunk "
                         "of the data. Declare `[end_to_end] split = \"N\"` when every output element depends only on "
                         "the same elements of the inputs (docs/manifest.md), or leave overlap out");
      if (overlap) request.strategies.push_back(strategy);
      continue;
    }
    request.strategies.push_back(strategy);
  }
  if (overlap) {
    std::vector<int> counts = {1};
    const std::vector<int> asked =
        study.overlap_chunks.empty() ? std::vector<int>{kDefaultOverlapChunks} : study.overlap_chunks;
    for (int count : asked)
      if (std::find(counts.begin(), counts.end(), count) == counts.end()) counts.push_back(count);
    for (int count : counts) request.splits.push_back(planSplit(point, count));
  }
  return request;
}

}  // namespace rooflab
