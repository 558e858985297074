#include "analyzer/diagnose/end_to_end_analysis.hpp"

#include <algorithm>

namespace rooflab {
namespace {

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
  EndToEndBoundFigures& figures = judged.bound_figures;
  figures.time_fraction = std::min(1.0, largest.ns / m.total_ns);
  if (largest.bound == EndToEndBound::link_up) figures.link_gbps = double(run.upload_bytes) / m.upload_ns;
  if (largest.bound == EndToEndBound::link_down) figures.link_gbps = double(run.download_bytes) / m.download_ns;
  if (largest.bound == EndToEndBound::launch) {
    figures.launches = run.launches;
    figures.launch_ns = m.launch_ns;
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
  if (!best) return verdict;
  verdict.bound = best_judged->bound;
  verdict.bound_figures = best_judged->bound_figures;
  verdict.best = best->strategy;
  verdict.best_chunks = best->chunks;
  verdict.best_ns = best->median.total_ns;
  if (worst && worst != best) {
    verdict.worst = worst->strategy;
    verdict.worst_ns = worst->median.total_ns;
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
    if (!kernel_ns) judged.basis = EndToEndPredictionBasis::no_kernel_median;
    else if (!ceilings.link) judged.basis = EndToEndPredictionBasis::no_link_ceilings;
    else if ((judged.predicted = predictRun(run, *kernel_ns, ceilings))) {
      judged.basis = EndToEndPredictionBasis::ceilings;
      judged.inputs = predictionInputs(run, *kernel_ns, ceilings);
    } else {
      judged.basis = EndToEndPredictionBasis::missing_ceiling;
    }
  }
  analysis.overlap = overlapWhatIfs(result, analysis.runs, kernel_ns.value_or(0), ceilings);
  analysis.verdict = verdictOf(result, analysis.runs);
  return analysis;
}

}  // namespace rooflab
