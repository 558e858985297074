#include "analyzer/diagnose/end_to_end_analysis.hpp"

#include <algorithm>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

std::string timeText(double ns) {
  if (ns >= 1e6) return formatFixed(ns / 1e6, 2) + " ms";
  return formatFixed(ns / 1e3, 1) + " us";
}

std::string runName(const EndToEndRun& run) {
  std::string name = toString(run.strategy);
  if (run.strategy == EndToEndStrategy::overlap)
    name += " (" + std::to_string(run.chunks) + " chunk" + (run.chunks == 1 ? "" : "s") + ")";
  return name;
}

bool usable(const EndToEndRun& run) {
  return !run.error && !run.repetitions.empty() && run.verification.status != VerificationStatus::failed;
}

// The largest measured part names what bounds the run.
void judgeBound(const EndToEndRun& run, EndToEndRunPrediction& judged) {
  const EndToEndParts& m = run.median;
  struct Part {
    double ns;
    EndToEndBound bound;
  };
  const Part parts[] = {{m.upload_ns, EndToEndBound::link_up},
                        {m.download_ns, EndToEndBound::link_down},
                        {m.launch_ns, EndToEndBound::launch},
                        {m.kernel_ns, EndToEndBound::kernel},
                        {m.gaps_ns, EndToEndBound::host}};
  const Part& largest =
      *std::max_element(std::begin(parts), std::end(parts), [](const Part& a, const Part& b) { return a.ns < b.ns; });
  if (!(largest.ns > 0) || !(m.total_ns > 0)) return;
  judged.bound = largest.bound;
  const std::string share = formatFixed(100 * std::min(1.0, largest.ns / m.total_ns), 0) + "% of the time";
  switch (largest.bound) {
    case EndToEndBound::link_up:
      judged.bound_text = "link-bound at " + formatFixed(double(run.upload_bytes) / m.upload_ns, 2) +
                          " GB/s host-to-device (" + share + ")";
      break;
    case EndToEndBound::link_down:
      judged.bound_text = "link-bound at " + formatFixed(double(run.download_bytes) / m.download_ns, 2) +
                          " GB/s device-to-host (" + share + ")";
      break;
    case EndToEndBound::launch:
      judged.bound_text = "launch-bound (" + std::to_string(run.launches) + " launch" +
                          (run.launches == 1 ? "" : "es") + ", " + timeText(m.launch_ns) + ", " + share + ")";
      break;
    case EndToEndBound::kernel: judged.bound_text = "kernel-bound (" + share + ")"; break;
    case EndToEndBound::host:
      judged.bound_text = "host-bound: " + share + " is between commands (host copies, driver work)";
      break;
    case EndToEndBound::undetermined: break;
  }
}

std::vector<OverlapWhatIf> overlapWhatIfs(const EndToEndResult& result, const std::vector<EndToEndRunPrediction>& runs,
                                          double kernel_ns, const EndToEndCeilings& ceilings) {
  const EndToEndRunPrediction* serial = nullptr;
  const EndToEndRun* serial_run = nullptr;
  for (std::size_t i = 0; i < result.runs.size(); ++i)
    if (result.runs[i].strategy == EndToEndStrategy::overlap && result.runs[i].chunks == 1) {
      serial = &runs[i];
      serial_run = &result.runs[i];
    }
  std::vector<OverlapWhatIf> overlap;
  for (std::size_t i = 0; i < result.runs.size(); ++i) {
    const EndToEndRun& run = result.runs[i];
    const EndToEndRunPrediction& prediction = runs[i];
    if (run.strategy != EndToEndStrategy::overlap || run.chunks == 1) continue;
    OverlapWhatIf w;
    w.chunks = run.chunks;
    if (const auto stages = largestChunkStages(run, kernel_ns, ceilings)) {
      w.upload_stage_ns = stages->upload_ns;
      w.kernel_stage_ns = stages->kernel_ns;
      w.download_stage_ns = stages->download_ns;
    }
    if (serial && serial->predicted && prediction.predicted) {
      w.predicted_serial_ns = serial->predicted->total_ns;
      w.predicted_overlapped_ns = prediction.predicted->total_ns;
      if (w.predicted_overlapped_ns > 0) w.predicted_gain = w.predicted_serial_ns / w.predicted_overlapped_ns;
    }
    if (serial_run && usable(*serial_run) && usable(run)) {
      w.measured_serial_ns = serial_run->median.total_ns;
      w.measured_overlapped_ns = run.median.total_ns;
      if (*w.measured_overlapped_ns > 0) w.measured_gain = *w.measured_serial_ns / *w.measured_overlapped_ns;
    }
    overlap.push_back(w);
  }
  return overlap;
}

EndToEndVerdict verdictOf(const EndToEndResult& result, const std::vector<EndToEndRunPrediction>& runs) {
  EndToEndVerdict verdict;
  const EndToEndRun* best = nullptr;
  const EndToEndRunPrediction* best_judged = nullptr;
  const EndToEndRun* worst = nullptr;
  for (std::size_t i = 0; i < result.runs.size(); ++i) {
    const EndToEndRun& run = result.runs[i];
    if (!usable(run)) continue;
    if (!best || run.median.total_ns < best->median.total_ns) {
      best = &run;
      best_judged = &runs[i];
    }
    if (run.strategy != EndToEndStrategy::overlap && (!worst || run.median.total_ns > worst->median.total_ns))
      worst = &run;
  }
  if (!best) {
    verdict.summary = "no end-to-end run was verified";
    return verdict;
  }
  verdict.bound = best_judged->bound;
  verdict.bound_text = best_judged->bound_text;
  verdict.best = best->strategy;
  verdict.best_chunks = best->chunks;
  verdict.best_ns = best->median.total_ns;
  verdict.summary = runName(*best) + " " + timeText(best->median.total_ns);
  if (worst && worst != best) {
    verdict.worst = worst->strategy;
    verdict.worst_ns = worst->median.total_ns;
    verdict.summary += ", " + formatFixed(worst->median.total_ns / best->median.total_ns, 2) + "x faster than " +
                       runName(*worst) + " (" + timeText(worst->median.total_ns) + ")";
  } else {
    verdict.summary += ", the fastest";
  }
  return verdict;
}

}  // namespace

EndToEndAnalysis analyseEndToEnd(const RunRecord& record, const EndToEndCeilings& ceilings) {
  const EndToEndResult& result = *record.end_to_end;
  EndToEndAnalysis analysis;
  const std::optional<double> kernel_ns = record.medianKernelNs();
  for (const EndToEndRun& run : result.runs) {
    EndToEndRunPrediction& judged = analysis.runs.emplace_back();
    if (!usable(run)) continue;
    judgeBound(run, judged);
    std::string from;
    if (kernel_ns) judged.predicted = predictRun(run, *kernel_ns, ceilings, from);
    judged.predicted_from = judged.predicted ? from
                            : kernel_ns
                                ? "no prediction: the run measured no " +
                                      std::string(ceilings.link ? "launch or link ceiling this strategy needs"
                                                                : "link ceilings ([run] ceilings = \"datasheet\")")
                                : "no prediction: the kernel run has no median time";
  }
  analysis.overlap = overlapWhatIfs(result, analysis.runs, kernel_ns.value_or(0), ceilings);
  analysis.verdict = verdictOf(result, analysis.runs);
  return analysis;
}

}  // namespace rooflab
