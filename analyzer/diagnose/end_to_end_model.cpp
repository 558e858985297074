#include "analyzer/diagnose/end_to_end_model.hpp"

#include <algorithm>
#include <numeric>

namespace rooflab {
namespace {

// The time of `buffers` transfers of `bytes` in all by `ceiling`: a latency each, the bytes at its bandwidth.
double transferNs(const LinkCeiling& ceiling, int buffers, double bytes) {
  return buffers * ceiling.latency_ns.value_or(0) + (ceiling.gbps && *ceiling.gbps > 0 ? bytes / *ceiling.gbps : 0.0);
}

UsedLinkCeiling usedCeiling(const LinkCeiling& ceiling, int buffers) {
  return {ceiling.strategy, ceiling.zero_copy, ceiling.gbps, ceiling.latency_ns.value_or(0), buffers};
}

// Each chunk's share of the run's elements.
std::vector<double> chunkShares(const EndToEndRun& run) {
  std::vector<double> shares;
  const double total = std::accumulate(run.chunk_elements.begin(), run.chunk_elements.end(), 0.0);
  for (std::uint64_t elements : run.chunk_elements) shares.push_back(total > 0 ? double(elements) / total : 0.0);
  if (shares.empty()) shares.push_back(1.0);
  return shares;
}

// What one launch of the run costs: on an idle queue after a blocking upload, or queued behind its
// chunk's uploads in the overlapped pipeline.
double launchNs(const EndToEndRun& run, const EndToEndCeilings& ceilings) {
  if (run.strategy == EndToEndStrategy::overlap && ceilings.queued_launch_ns) return *ceilings.queued_launch_ns;
  return *ceilings.launch_ns;
}

struct RunCeilings {
  const LinkCeiling* up = nullptr;
  const LinkCeiling* down = nullptr;
};

std::optional<RunCeilings> ceilingsOf(const EndToEndRun& run, const EndToEndCeilings& ceilings) {
  if (!ceilings.link || !ceilings.launch_ns) return std::nullopt;
  RunCeilings found;
  const LinkStrategy strategy = linkStrategyOf(run.strategy);
  found.up = ceilings.link->find(strategy, LinkDirection::host_to_device);
  found.down = ceilings.link->find(strategy, LinkDirection::device_to_host);
  if ((run.upload_buffers > 0 && (!found.up || !found.up->latency_ns)) ||
      (run.download_buffers > 0 && (!found.down || !found.down->latency_ns)))
    return std::nullopt;
  return found;
}

std::vector<PipelineStage> stagesOf(const EndToEndRun& run, double kernel_ns, const EndToEndCeilings& ceilings,
                                    const RunCeilings& found) {
  std::vector<PipelineStage> stages;
  const std::vector<double> shares = chunkShares(run);
  const double launches_per_chunk = double(run.launches) / double(shares.size());
  const double launch_ns = launchNs(run, ceilings);
  for (double share : shares) {
    PipelineStage stage;
    if (found.up) stage.upload_ns = transferNs(*found.up, run.upload_buffers, share * double(run.upload_bytes));
    stage.kernel_ns = launches_per_chunk * launch_ns + share * kernel_ns;
    if (found.down)
      stage.download_ns = transferNs(*found.down, run.download_buffers, share * double(run.download_bytes));
    stages.push_back(stage);
  }
  return stages;
}

}  // namespace

LinkStrategy linkStrategyOf(EndToEndStrategy strategy) {
  switch (strategy) {
    case EndToEndStrategy::copy: return LinkStrategy::copy;
    case EndToEndStrategy::map: return LinkStrategy::map;
    case EndToEndStrategy::use_host_ptr: return LinkStrategy::use_host_ptr;
    case EndToEndStrategy::alloc_host_ptr: return LinkStrategy::alloc_host_ptr;
    case EndToEndStrategy::overlap: return LinkStrategy::copy_async;
  }
  return LinkStrategy::copy;
}

double pipelineNs(const std::vector<PipelineStage>& chunks, int queues) {
  const std::size_t q = static_cast<std::size_t>(std::max(1, queues));
  std::vector<double> up_end(chunks.size()), kernel_end(chunks.size()), down_end(chunks.size());
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const double up_start = std::max(k > 0 ? up_end[k - 1] : 0.0, k >= q ? down_end[k - q] : 0.0);
    up_end[k] = up_start + chunks[k].upload_ns;
    kernel_end[k] = std::max(up_end[k], k > 0 ? kernel_end[k - 1] : 0.0) + chunks[k].kernel_ns;
    down_end[k] = std::max(kernel_end[k], k > 0 ? down_end[k - 1] : 0.0) + chunks[k].download_ns;
  }
  return chunks.empty() ? 0.0 : down_end.back();
}

std::optional<EndToEndParts> predictRun(const EndToEndRun& run, double kernel_ns, const EndToEndCeilings& ceilings) {
  const std::optional<RunCeilings> found = ceilingsOf(run, ceilings);
  if (!found) return std::nullopt;
  const std::vector<PipelineStage> stages = stagesOf(run, kernel_ns, ceilings, *found);
  EndToEndParts parts;
  for (const PipelineStage& stage : stages) {
    parts.upload_ns += stage.upload_ns;
    parts.download_ns += stage.download_ns;
  }
  parts.launch_ns = run.launches * launchNs(run, ceilings);
  parts.kernel_ns = kernel_ns;
  const LinkCeiling* memcpy_ceiling = ceilings.link->host_memcpy ? &*ceilings.link->host_memcpy : nullptr;
  if (run.host_copy_bytes > 0 && memcpy_ceiling && memcpy_ceiling->gbps)
    parts.gaps_ns = double(run.host_copy_bytes) / *memcpy_ceiling->gbps;
  if (run.strategy == EndToEndStrategy::overlap) parts.total_ns = pipelineNs(stages, run.queues) + parts.gaps_ns;
  else parts.total_ns = parts.upload_ns + parts.launch_ns + parts.kernel_ns + parts.download_ns + parts.gaps_ns;
  return parts;
}

std::optional<EndToEndPredictionInputs> predictionInputs(const EndToEndRun& run, double kernel_ns,
                                                         const EndToEndCeilings& ceilings) {
  const std::optional<RunCeilings> found = ceilingsOf(run, ceilings);
  if (!found) return std::nullopt;
  EndToEndPredictionInputs inputs;
  if (found->up) inputs.upload = usedCeiling(*found->up, run.upload_buffers);
  inputs.launch_ns = launchNs(run, ceilings);
  inputs.back_to_back = run.strategy == EndToEndStrategy::overlap && ceilings.queued_launch_ns.has_value();
  inputs.launches = run.launches;
  inputs.kernel_ns = kernel_ns;
  if (found->down) inputs.download = usedCeiling(*found->down, run.download_buffers);
  const LinkCeiling* memcpy_ceiling = ceilings.link->host_memcpy ? &*ceilings.link->host_memcpy : nullptr;
  if (run.host_copy_bytes > 0 && memcpy_ceiling && memcpy_ceiling->gbps) {
    inputs.host_copy_bytes = run.host_copy_bytes;
    inputs.host_memcpy_gbps = memcpy_ceiling->gbps;
  }
  if (run.strategy == EndToEndStrategy::overlap) {
    inputs.chunks = int(chunkShares(run).size());
    inputs.queues = run.queues;
  }
  return inputs;
}

std::optional<PipelineStage> largestChunkStages(const EndToEndRun& run, double kernel_ns,
                                                const EndToEndCeilings& ceilings) {
  const std::optional<RunCeilings> found = ceilingsOf(run, ceilings);
  if (!found) return std::nullopt;
  const std::vector<PipelineStage> stages = stagesOf(run, kernel_ns, ceilings, *found);
  const std::vector<double> shares = chunkShares(run);
  return stages[std::size_t(std::max_element(shares.begin(), shares.end()) - shares.begin())];
}

}  // namespace rooflab
