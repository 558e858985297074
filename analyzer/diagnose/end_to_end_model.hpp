#pragma once
// The end-to-end model (docs/end-to-end.md): what a run's parts should take from the link and launch
// ceilings, and how long chunks take through the overlapped pipeline. Pure arithmetic, tested on
// figures alone.
#include <optional>
#include <vector>

#include "analyzer/data/end_to_end.hpp"
#include "analyzer/data/link_ceilings.hpp"

namespace rooflab {

// What a prediction reads: the run's ceilings and the point's own kernel-alone median.
struct EndToEndCeilings {
  const LinkCeilings* link = nullptr;
  std::optional<double> launch_ns;  // an empty kernel's queued -> start: a launch on an idle queue
  // A launch queued behind other commands (the overlapped pipeline's kernels wait behind their
  // uploads): the back-to-back launch time; absent, launch_ns.
  std::optional<double> queued_launch_ns;
};

// The link strategy whose ceilings time an end-to-end strategy's transfers (overlap: copy-async).
LinkStrategy linkStrategyOf(EndToEndStrategy strategy);

// One chunk's stages through the pipeline.
struct PipelineStage {
  double upload_ns = 0;
  double kernel_ns = 0;  // its launches and kernels
  double download_ns = 0;
};

// The time `chunks` take when chunk k runs on queue k mod `queues` (each queue in order), the uploads
// share one link, the kernels one device and the downloads one link: each stage of a chunk starts
// when its own previous stage, the same stage of the chunk before it and (uploads) the last command of
// its queue have ended. With equal chunks and queues that never hold a chunk back this is the
// longest stage once per chunk plus the fill and drain of the other two: u + k + d + (C - 1) max(u, k, d).
double pipelineNs(const std::vector<PipelineStage>& chunks, int queues);

// The prediction of a run from its ceilings and the kernel-alone median `kernel_ns` (the kernels of one
// whole run): each part as the ceilings time it, host copies at the host's memcpy speed in gaps_ns,
// an overlapped run's total through pipelineNs. nullopt when a ceiling it needs is missing.
std::optional<EndToEndParts> predictRun(const EndToEndRun& run, double kernel_ns, const EndToEndCeilings& ceilings);

// The ceilings and counts predictRun uses for `run`, as the reports quote them; nullopt where it
// gives no prediction.
std::optional<EndToEndPredictionInputs> predictionInputs(const EndToEndRun& run, double kernel_ns,
                                                         const EndToEndCeilings& ceilings);

// The stages of an overlapped run's largest chunk, predicted as predictRun does.
std::optional<PipelineStage> largestChunkStages(const EndToEndRun& run, double kernel_ns,
                                                const EndToEndCeilings& ceilings);

}  // namespace rooflab
