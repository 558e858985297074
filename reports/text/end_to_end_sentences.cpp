#include "reports/text/end_to_end_sentences.hpp"

#include "reports/text/number_format.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

// "270.0 us", "98.30 ms".
std::string timeText(double ns) {
  if (ns >= 1e6) return formatFixedAsWritten(ns / 1e6, 2) + " ms";
  return formatFixedAsWritten(ns / 1e3, 1) + " us";
}

// "copy 8.00 GB/s + 10.0 us a buffer", "alloc-host-ptr zero-copy, 2.0 us a buffer".
std::string ceilingText(const UsedLinkCeiling& ceiling) {
  const std::string latency = timeText(ceiling.latency_ns);
  if (ceiling.zero_copy) return toString(ceiling.strategy) + " zero-copy, " + latency + " a buffer";
  return toString(ceiling.strategy) + " " + (ceiling.gbps ? formatFixedAsWritten(*ceiling.gbps, 2) + " GB/s" : "-") +
         " + " + latency + " a buffer";
}

std::string inputsText(const EndToEndPredictionInputs& inputs) {
  std::string text;
  if (inputs.upload)
    text += "upload: " + ceilingText(*inputs.upload) + " x " + std::to_string(inputs.upload->buffers) + "; ";
  text += "launch: " + timeText(inputs.launch_ns) + (inputs.back_to_back ? " (back to back)" : "") + " x " +
          std::to_string(inputs.launches) + "; kernel: the kernel run's median " + timeText(inputs.kernel_ns);
  if (inputs.download)
    text += "; download: " + ceilingText(*inputs.download) + " x " + std::to_string(inputs.download->buffers);
  if (inputs.host_copy_bytes && inputs.host_memcpy_gbps)
    text += "; host copies: " + formatNumber(double(*inputs.host_copy_bytes) / (1024.0 * 1024.0)) + " MiB at " +
            formatFixedAsWritten(*inputs.host_memcpy_gbps, 2) + " GB/s (memcpy)";
  if (inputs.chunks)
    text += "; " + plural(*inputs.chunks, "chunk", "chunks") + " through the pipeline on " +
            plural(inputs.queues.value_or(1), "queue", "queues");
  return text;
}

std::string boundText(EndToEndBound bound, const EndToEndBoundFigures& figures) {
  const std::string share = formatFixedAsWritten(100 * figures.time_fraction, 0) + "% of the time";
  switch (bound) {
    case EndToEndBound::link_up:
      return "link-bound at " + formatFixedAsWritten(figures.link_gbps.value_or(0), 2) + " GB/s host-to-device (" +
             share + ")";
    case EndToEndBound::link_down:
      return "link-bound at " + formatFixedAsWritten(figures.link_gbps.value_or(0), 2) + " GB/s device-to-host (" +
             share + ")";
    case EndToEndBound::launch:
      return "launch-bound (" + plural(figures.launches.value_or(0), "launch", "launches") + ", " +
             timeText(figures.launch_ns.value_or(0)) + ", " + share + ")";
    case EndToEndBound::kernel: return "kernel-bound (" + share + ")";
    case EndToEndBound::host: return "host-bound: " + share + " is between commands (host copies, driver work)";
    case EndToEndBound::undetermined: break;
  }
  return "";
}

}  // namespace

std::string endToEndStrategyName(EndToEndStrategy strategy, int chunks) {
  std::string name = toString(strategy);
  if (strategy == EndToEndStrategy::overlap) name += " (" + plural(chunks, "chunk", "chunks") + ")";
  return name;
}

std::string endToEndPredictedFromText(const EndToEndRunPrediction& judged) {
  if (judged.predicted_from_as_saved) return *judged.predicted_from_as_saved;
  switch (judged.basis) {
    case EndToEndPredictionBasis::ceilings: return judged.inputs ? inputsText(*judged.inputs) : "";
    case EndToEndPredictionBasis::missing_ceiling:
      return "no prediction: the run measured no launch or link ceiling this strategy needs";
    case EndToEndPredictionBasis::no_link_ceilings:
      return "no prediction: the run measured no link ceilings ([run] ceilings = \"datasheet\")";
    case EndToEndPredictionBasis::no_kernel_median: return "no prediction: the kernel run has no median time";
    case EndToEndPredictionBasis::not_judged: break;
  }
  return "";
}

std::string endToEndBoundText(const EndToEndRunPrediction& judged) {
  if (judged.bound_text_as_saved) return *judged.bound_text_as_saved;
  return boundText(judged.bound, judged.bound_figures);
}

std::string endToEndBoundText(const EndToEndVerdict& verdict) {
  if (verdict.bound_text_as_saved) return *verdict.bound_text_as_saved;
  return boundText(verdict.bound, verdict.bound_figures);
}

std::string endToEndSummaryText(const EndToEndVerdict& verdict) {
  if (verdict.summary_as_saved) return *verdict.summary_as_saved;
  if (!verdict.best) return "no end-to-end run was verified";
  const double best_ns = verdict.best_ns.value_or(0);
  std::string text = endToEndStrategyName(*verdict.best, verdict.best_chunks) + " " + timeText(best_ns);
  if (!verdict.worst || !verdict.worst_ns) return text + ", the fastest";
  return text + ", " + formatFixedAsWritten(*verdict.worst_ns / best_ns, 2) + "x faster than " +
         toString(*verdict.worst) + " (" + timeText(*verdict.worst_ns) + ")";
}

}  // namespace rooflab::reports
