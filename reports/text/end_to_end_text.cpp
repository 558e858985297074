#include "reports/text/end_to_end_text.hpp"

#include <cmath>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/text/end_to_end_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"

namespace rooflab::reports {
namespace {

constexpr std::size_t kBarWidth = 24;
constexpr const char* kCsvLineEnd = "\r\n";

std::string verificationWord(const EndToEndRun& run) {
  if (run.error) return "error";
  return toString(run.verification.status);
}

std::string number(double value) { return std::isfinite(value) ? formatRoundTrip(value) : ""; }
std::string number(const std::optional<double>& value) { return value ? number(*value) : ""; }

// "2.10× faster", "1.56× slower".
std::string strategyGainText(double gain) {
  return gain >= 1 ? formatSpeedup(gain) + " faster" : formatSpeedup(1 / gain) + " slower";
}

const std::vector<std::string> kEndToEndCsvHeader = {"family",
                                                     "variant",
                                                     "params",
                                                     "strategy",
                                                     "chunks",
                                                     "queues",
                                                     "verification",
                                                     "error",
                                                     "total_ns",
                                                     "upload_ns",
                                                     "launch_ns",
                                                     "kernel_ns",
                                                     "download_ns",
                                                     "gaps_ns",
                                                     "total_noise",
                                                     "repetitions",
                                                     "predicted_total_ns",
                                                     "predicted_upload_ns",
                                                     "predicted_launch_ns",
                                                     "predicted_kernel_ns",
                                                     "predicted_download_ns",
                                                     "predicted_gaps_ns",
                                                     "upload_bytes",
                                                     "download_bytes",
                                                     "host_copy_bytes",
                                                     "launches",
                                                     "bound",
                                                     "bound_text",
                                                     "predicted_gain",
                                                     "measured_gain",
                                                     "best",
                                                     "predicted_from"};

// end-to-end.csv's row of `record`'s run `i`.
std::vector<std::string> endToEndCsvRow(const AnalysedRecord& record, std::size_t i) {
  const EndToEndResult& e = *record.end_to_end;
  const EndToEndAnalysis& concluded = record.endToEnd();
  const EndToEndRun& run = e.runs[i];
  const EndToEndRunPrediction& judged = record.endToEndPrediction(i);
  const OverlapWhatIf* w = nullptr;
  for (const OverlapWhatIf& candidate : concluded.overlap)
    if (run.strategy == EndToEndStrategy::overlap && candidate.chunks == run.chunks) w = &candidate;
  const std::optional<EndToEndVerdict>& verdict = concluded.verdict;
  const bool best = verdict && verdict->best == run.strategy && verdict->best_chunks == run.chunks;
  const EndToEndParts& m = run.median;
  const std::optional<EndToEndParts>& p = judged.predicted;
  auto predicted = [&](double EndToEndParts::*part) { return p ? number((*p).*part) : std::string(); };
  const bool timed = !run.repetitions.empty();
  return {record.family,
          record.variant,
          recordParamsText(record, ";"),
          toString(run.strategy),
          std::to_string(run.chunks),
          std::to_string(run.queues),
          verificationWord(run),
          run.error.value_or(""),
          timed ? number(m.total_ns) : "",
          timed ? number(m.upload_ns) : "",
          timed ? number(m.launch_ns) : "",
          timed ? number(m.kernel_ns) : "",
          timed ? number(m.download_ns) : "",
          timed ? number(m.gaps_ns) : "",
          number(run.total_noise),
          std::to_string(run.repetitions.size()),
          predicted(&EndToEndParts::total_ns),
          predicted(&EndToEndParts::upload_ns),
          predicted(&EndToEndParts::launch_ns),
          predicted(&EndToEndParts::kernel_ns),
          predicted(&EndToEndParts::download_ns),
          predicted(&EndToEndParts::gaps_ns),
          std::to_string(run.upload_bytes),
          std::to_string(run.download_bytes),
          std::to_string(run.host_copy_bytes),
          std::to_string(run.launches),
          toString(judged.bound),
          endToEndBoundText(judged),
          w ? number(w->predicted_gain) : "",
          w ? number(w->measured_gain) : "",
          best ? "yes" : "",
          endToEndPredictedFromText(judged)};
}

}  // namespace

std::string endToEndRunName(const EndToEndRun& run) { return endToEndStrategyName(run.strategy, run.chunks); }

std::string endToEndTextBar(const EndToEndParts& parts, std::size_t width) {
  const double values[] = {parts.upload_ns, parts.launch_ns, parts.kernel_ns, parts.download_ns, parts.gaps_ns};
  const char letters[] = {'U', 'L', 'K', 'D', '.'};
  double sum = 0;
  for (double value : values) sum += std::isfinite(value) && value > 0 ? value : 0;
  if (!(sum > 0)) return std::string(width, ' ');
  std::string bar;
  double cumulative = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    cumulative += std::isfinite(values[i]) && values[i] > 0 ? values[i] : 0;
    const auto end = static_cast<std::size_t>(std::lround(cumulative / sum * double(width)));
    while (bar.size() < end) bar += letters[i];
  }
  return bar;
}

std::string predictionText(const EndToEndRun& run, const EndToEndRunPrediction& judged) {
  if (!judged.predicted) {
    const std::string from = endToEndPredictedFromText(judged);
    return from.empty() ? "no prediction" : from;
  }
  std::string text = "predicted " + formatDurationNs(judged.predicted->total_ns);
  if (run.median.total_ns > 0 && judged.predicted->total_ns > 0) {
    const double off = run.median.total_ns / judged.predicted->total_ns - 1;
    text += " (measured " + std::string(off >= 0 ? "+" : "") + formatPercent(off) + ")";
  }
  return text;
}

std::string overlapWhatIfText(const OverlapWhatIf& w) {
  std::string text = std::to_string(w.chunks) + " chunks: ";
  if (w.predicted_gain)
    text += "the pipeline predicts " + formatDurationNs(w.predicted_overlapped_ns) + ", " +
            strategyGainText(*w.predicted_gain) + " than the same transfers one after the other (" +
            formatDurationNs(w.predicted_serial_ns) + ")";
  else text += "no prediction (no link ceilings)";
  if (w.measured_gain)
    text += "; measured " + formatDurationNs(*w.measured_overlapped_ns) + ", " + strategyGainText(*w.measured_gain) +
            " (" + formatDurationNs(*w.measured_serial_ns) + " in one chunk)";
  text += "; largest chunk's stages: upload " + formatDurationNs(w.upload_stage_ns) + ", kernel " +
          formatDurationNs(w.kernel_stage_ns) + ", download " + formatDurationNs(w.download_stage_ns);
  return text;
}

bool hasEndToEnd(const AnalysedResults& results) {
  for (const AnalysedRecord& record : results.records)
    if (record.end_to_end && !record.end_to_end->runs.empty()) return true;
  return false;
}

void printEndToEnd(const AnalysedResults& results, std::ostream& out) {
  for (const AnalysedRecord& record : results.records) {
    if (!record.end_to_end || record.end_to_end->runs.empty()) continue;
    const EndToEndResult& e = *record.end_to_end;
    const EndToEndAnalysis& concluded = record.endToEnd();
    out << "end-to-end " + record.family + "/" + record.variant + " " + recordParamsText(record) +
               " (bar: U upload, L launch, K kernel, D download, . gaps):\n";
    for (std::size_t i = 0; i < e.runs.size(); ++i) {
      const EndToEndRun& run = e.runs[i];
      const EndToEndRunPrediction& judged = record.endToEndPrediction(i);
      std::string line = "  " + endToEndRunName(run);
      line.resize(std::max<std::size_t>(line.size(), 22), ' ');
      if (run.error) {
        out << line << "error: " << firstLine(*run.error) << '\n';
        continue;
      }
      line += "[" + endToEndTextBar(run.median, kBarWidth) + "] " + formatDurationNs(run.median.total_ns);
      line += ", " + predictionText(run, judged) + "; " + verificationWord(run);
      if (const std::string bound = endToEndBoundText(judged); !bound.empty()) line += "; " + bound;
      out << line << '\n';
    }
    if (const auto& verdict = concluded.verdict) {
      const std::string bound = endToEndBoundText(*verdict);
      out << "  best: " << endToEndSummaryText(*verdict) << (bound.empty() ? "" : "; " + bound) << '\n';
    }
    for (const OverlapWhatIf& w : concluded.overlap) out << "  overlap what-if, " << overlapWhatIfText(w) << '\n';
  }
}

void writeEndToEndCsv(const AnalysedResults& results, std::ostream& out) {
  auto writeRow = [&](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csvField(fields[i]);
    out << line << kCsvLineEnd;
  };
  writeRow(kEndToEndCsvHeader);
  for (const AnalysedRecord& record : results.records)
    if (record.end_to_end)
      for (std::size_t i = 0; i < record.end_to_end->runs.size(); ++i) writeRow(endToEndCsvRow(record, i));
}

void writeEndToEndCsvReport(const AnalysedResults& results, const std::filesystem::path& file) {
  std::ostringstream out;
  writeEndToEndCsv(results, out);
  writeFileAtomically(file, out.str());
}

}  // namespace rooflab::reports
