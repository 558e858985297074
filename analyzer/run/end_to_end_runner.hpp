#pragma once
// A normal point's end-to-end runs ([[study]] end_to_end, docs/end-to-end.md): the variant's kernels
// between the application's host arrays, its inputs going up and its outputs coming down by each
// strategy asked for, each run repeated to the run's noise target, timed with its commands'
// profiling events (analyzer/run/end_to_end_timeline.hpp) and verified from the host arrays.
#include <functional>
#include <map>
#include <string>

#include "analyzer/run/launch_timing.hpp"

namespace rooflab {

// Judges a run's host output arrays as the point's kernel run is judged (the reference's outputs).
using OutputCheck = std::function<VerificationResult(const std::map<std::string, HostBuffer>& outputs)>;

class EndToEndRunner {
 public:
  // Two profiling queues on `launcher`'s context (the overlapped runs use both). Throws cl::Error.
  EndToEndRunner(const PointLauncher& launcher, const RunSettings& settings);

  // Every strategy of prepared.resolved->end_to_end, in order. A strategy that fails keeps its error
  // in its run and the others still run; never throws.
  EndToEndResult run(const PreparedPoint& prepared, const std::map<std::string, HostBuffer>& inputs,
                     const OutputCheck& check, const RepetitionProgress& progress);

 private:
  using Buffers = std::map<std::string, HostBuffer>;
  // Repeats `once` (one run, returning its parts) to the noise target: warm-ups, then timed runs.
  void repeat(EndToEndRun& run, const std::function<EndToEndParts()>& once, const RepetitionProgress& progress);
  EndToEndRun runBlocking(EndToEndStrategy strategy, const PreparedPoint& prepared, const Buffers& inputs,
                          const OutputCheck& check, const RepetitionProgress& progress);
  EndToEndRun runOverlapped(const std::vector<ResolvedChunk>& split, const PreparedPoint& prepared,
                            const Buffers& inputs, const OutputCheck& check, const RepetitionProgress& progress);

  const PointLauncher& launcher_;
  RunSettings settings_;
  cl::CommandQueue queues_[2];
};

}  // namespace rooflab
