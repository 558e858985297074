// The JSON edge of the host link: the link and launch ceilings (models.ceilings.link, .launch) and a
// record's end-to-end runs (record.end_to_end) (docs/results-schema.md).
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const LatencyFigure& figure) {
  return {{"median_ns", finiteOrNull(figure.median_ns)},
          {"best_ns", finiteOrNull(figure.best_ns)},
          {"median_lower_ns", finiteOrNull(figure.median_lower_ns)},
          {"median_upper_ns", finiteOrNull(figure.median_upper_ns)},
          {"noise", finiteOrNull(figure.noise)},
          {"repetitions", figure.repetitions},
          {"stopped", toString(figure.stopped)},
          {"measured_seconds", figure.measured_seconds}};
}

LatencyFigure latencyFigureFromJson(const json& j) {
  LatencyFigure figure;
  figure.median_ns = optionalNumber(j, "median_ns");
  figure.best_ns = optionalNumber(j, "best_ns");
  figure.median_lower_ns = numberOr(j, "median_lower_ns", 0);
  figure.median_upper_ns = numberOr(j, "median_upper_ns", 0);
  figure.noise = optionalNumber(j, "noise");
  figure.repetitions = integerOr<int>(j, "repetitions", 0);
  figure.stopped = parseStopDecision(textOr(j, "stopped")).value_or(StopDecision::keep_going);
  figure.measured_seconds = numberOr(j, "measured_seconds", 0);
  return figure;
}

json toJson(const ZeroCopyEvidence& evidence) {
  json j = {{"reason", toString(evidence.reason)},
            {"first_bytes", evidence.first_bytes},
            {"first_ns", finiteOrNull(evidence.first_ns)},
            {"last_bytes", evidence.last_bytes},
            {"last_ns", finiteOrNull(evidence.last_ns)}};
  if (evidence.gbps) j["gbps"] = finiteOrNull(evidence.gbps);
  if (evidence.copy_gbps) j["copy_gbps"] = finiteOrNull(evidence.copy_gbps);
  if (evidence.pointer != MappedPointer::not_checked) j["mapped_pointer"] = toString(evidence.pointer);
  return j;
}

std::optional<ZeroCopyEvidence> zeroCopyEvidenceFromJson(const json& j) {
  const std::optional<ZeroCopyReason> reason = parseZeroCopyReason(textOr(j, "reason"));
  if (!reason) return std::nullopt;
  ZeroCopyEvidence evidence;
  evidence.reason = *reason;
  evidence.first_bytes = integerOr<std::uint64_t>(j, "first_bytes", 0);
  evidence.first_ns = numberOr(j, "first_ns", 0);
  evidence.last_bytes = integerOr<std::uint64_t>(j, "last_bytes", 0);
  evidence.last_ns = numberOr(j, "last_ns", 0);
  evidence.gbps = optionalNumber(j, "gbps");
  evidence.copy_gbps = optionalNumber(j, "copy_gbps");
  evidence.pointer = parseMappedPointer(textOr(j, "mapped_pointer")).value_or(MappedPointer::not_checked);
  return evidence;
}

// The evidence as data, or an older file's sentence as it was written (null when there was none).
json zeroCopyEvidenceJson(const LinkCeiling& ceiling) {
  if (ceiling.zero_copy_evidence_as_saved) return textOrNull(*ceiling.zero_copy_evidence_as_saved);
  return ceiling.zero_copy_evidence ? toJson(*ceiling.zero_copy_evidence) : json(nullptr);
}

json toJson(const LinkCeiling& ceiling) {
  json sizes = json::array();
  for (const LinkSize& size : ceiling.sizes) {
    json entry = toJson(size.time);
    entry["bytes"] = size.bytes;
    sizes.push_back(entry);
  }
  json j = {{"strategy", toString(ceiling.strategy)},
            {"direction", toString(ceiling.direction)},
            {"calls", ceiling.calls},
            {"sizes", sizes},
            {"latency_ns", finiteOrNull(ceiling.latency_ns)},
            {"gbps", finiteOrNull(ceiling.gbps)},
            {"max_relative_residual", finiteOrNull(ceiling.max_relative_residual)},
            {"zero_copy", ceiling.zero_copy},
            {"zero_copy_evidence", zeroCopyEvidenceJson(ceiling)},
            {"error", textOrNull(ceiling.error)}};
  if (ceiling.maps_host_pointer) j["maps_host_pointer"] = *ceiling.maps_host_pointer;
  return j;
}

LinkCeiling linkCeilingFromJson(const json& j) {
  LinkCeiling ceiling;
  ceiling.strategy = parseLinkStrategy(textOr(j, "strategy")).value_or(LinkStrategy::copy);
  ceiling.direction = parseLinkDirection(textOr(j, "direction")).value_or(LinkDirection::host_to_device);
  ceiling.calls = textOr(j, "calls");
  if (const json* sizes = member(j, "sizes"); sizes != nullptr && sizes->is_array())
    for (const json& entry : *sizes)
      if (entry.is_object())
        ceiling.sizes.push_back({integerOr<std::uint64_t>(entry, "bytes", 0), latencyFigureFromJson(entry)});
  ceiling.latency_ns = optionalNumber(j, "latency_ns");
  ceiling.gbps = optionalNumber(j, "gbps");
  ceiling.max_relative_residual = numberOr(j, "max_relative_residual", 0);
  ceiling.zero_copy = boolOr(j, "zero_copy", false);
  if (const json* evidence = member(j, "zero_copy_evidence"); evidence != nullptr) {
    if (evidence->is_string()) ceiling.zero_copy_evidence_as_saved = evidence->get<std::string>();
    if (evidence->is_object()) ceiling.zero_copy_evidence = zeroCopyEvidenceFromJson(*evidence);
  }
  if (const json* maps = member(j, "maps_host_pointer"); maps != nullptr && maps->is_boolean())
    ceiling.maps_host_pointer = maps->get<bool>();
  ceiling.error = optionalText(j, "error");
  return ceiling;
}

json toJson(const EndToEndParts& parts) {
  return {{"upload_ns", finiteOrNull(parts.upload_ns)}, {"launch_ns", finiteOrNull(parts.launch_ns)},
          {"kernel_ns", finiteOrNull(parts.kernel_ns)}, {"download_ns", finiteOrNull(parts.download_ns)},
          {"gaps_ns", finiteOrNull(parts.gaps_ns)},     {"total_ns", finiteOrNull(parts.total_ns)}};
}

EndToEndParts partsFromJson(const json& j) {
  EndToEndParts parts;
  parts.upload_ns = numberOrNaN(j, "upload_ns");
  parts.launch_ns = numberOrNaN(j, "launch_ns");
  parts.kernel_ns = numberOrNaN(j, "kernel_ns");
  parts.download_ns = numberOrNaN(j, "download_ns");
  parts.gaps_ns = numberOrNaN(j, "gaps_ns");
  parts.total_ns = numberOrNaN(j, "total_ns");
  return parts;
}

// A schema-1 sentence: present when the file has its key, "" where it wrote null (so it is written
// back as null); nullopt in a schema-2 file, which has the data instead.
std::optional<std::string> savedSentence(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  return textOr(j, key);
}

json toJson(const UsedLinkCeiling& ceiling) {
  return {{"strategy", toString(ceiling.strategy)},
          {"zero_copy", ceiling.zero_copy},
          {"gbps", finiteOrNull(ceiling.gbps)},
          {"latency_ns", finiteOrNull(ceiling.latency_ns)},
          {"buffers", ceiling.buffers}};
}

UsedLinkCeiling usedLinkCeilingFromJson(const json& j) {
  UsedLinkCeiling ceiling;
  ceiling.strategy = parseLinkStrategy(textOr(j, "strategy")).value_or(LinkStrategy::copy);
  ceiling.zero_copy = boolOr(j, "zero_copy", false);
  ceiling.gbps = optionalNumber(j, "gbps");
  ceiling.latency_ns = numberOrNaN(j, "latency_ns");
  ceiling.buffers = integerOr<int>(j, "buffers", 0);
  return ceiling;
}

json toJson(const EndToEndPredictionInputs& inputs) {
  json j = {{"upload", inputs.upload ? toJson(*inputs.upload) : json(nullptr)},
            {"launch_ns", finiteOrNull(inputs.launch_ns)},
            {"back_to_back", inputs.back_to_back},
            {"launches", inputs.launches},
            {"kernel_ns", finiteOrNull(inputs.kernel_ns)},
            {"download", inputs.download ? toJson(*inputs.download) : json(nullptr)}};
  if (inputs.host_copy_bytes) j["host_copy_bytes"] = *inputs.host_copy_bytes;
  if (inputs.host_memcpy_gbps) j["host_memcpy_gbps"] = finiteOrNull(inputs.host_memcpy_gbps);
  if (inputs.chunks) j["chunks"] = *inputs.chunks;
  if (inputs.queues) j["queues"] = *inputs.queues;
  return j;
}

EndToEndPredictionInputs predictionInputsFromJson(const json& j) {
  EndToEndPredictionInputs inputs;
  if (const json* upload = member(j, "upload"); upload != nullptr && upload->is_object())
    inputs.upload = usedLinkCeilingFromJson(*upload);
  inputs.launch_ns = numberOrNaN(j, "launch_ns");
  inputs.back_to_back = boolOr(j, "back_to_back", false);
  inputs.launches = integerOr<int>(j, "launches", 0);
  inputs.kernel_ns = numberOrNaN(j, "kernel_ns");
  if (const json* download = member(j, "download"); download != nullptr && download->is_object())
    inputs.download = usedLinkCeilingFromJson(*download);
  inputs.host_copy_bytes = optionalInteger<std::uint64_t>(j, "host_copy_bytes");
  inputs.host_memcpy_gbps = optionalNumber(j, "host_memcpy_gbps");
  inputs.chunks = optionalInteger<int>(j, "chunks");
  inputs.queues = optionalInteger<int>(j, "queues");
  return inputs;
}

// The figures of a determined bound; null for an undetermined one.
json toJson(EndToEndBound bound, const EndToEndBoundFigures& figures) {
  if (bound == EndToEndBound::undetermined) return nullptr;
  json j = {{"time_fraction", finiteOrNull(figures.time_fraction)}};
  if (figures.link_gbps) j["link_gbps"] = finiteOrNull(figures.link_gbps);
  if (figures.launches) j["launches"] = *figures.launches;
  if (figures.launch_ns) j["launch_ns"] = finiteOrNull(figures.launch_ns);
  return j;
}

EndToEndBoundFigures boundFiguresFromJson(const json& j) {
  EndToEndBoundFigures figures;
  figures.time_fraction = numberOrNaN(j, "time_fraction");
  figures.link_gbps = optionalNumber(j, "link_gbps");
  figures.launches = optionalInteger<int>(j, "launches");
  figures.launch_ns = optionalNumber(j, "launch_ns");
  return figures;
}

// A run's prediction and bound: the data, or the sentences a schema-1 file saved under their keys.
void addPrediction(json& j, const EndToEndRunPrediction& judged) {
  j["predicted"] = judged.predicted ? toJson(*judged.predicted) : json(nullptr);
  if (judged.predicted_from_as_saved) {
    j["predicted_from"] = textOrNull(*judged.predicted_from_as_saved);
  } else {
    j["prediction_basis"] = toString(judged.basis);
    j["prediction_inputs"] = judged.inputs ? toJson(*judged.inputs) : json(nullptr);
  }
  j["bound"] = toString(judged.bound);
  if (judged.bound_text_as_saved) j["bound_text"] = textOrNull(*judged.bound_text_as_saved);
  else j["bound_figures"] = toJson(judged.bound, judged.bound_figures);
}

json toJson(const EndToEndRun& run, const EndToEndRunPrediction& judged) {
  json repetitions = json::array();
  for (const EndToEndParts& parts : run.repetitions) repetitions.push_back(toJson(parts));
  json j = {{"strategy", toString(run.strategy)},
            {"chunks", run.chunks},
            {"queues", run.queues},
            {"chunk_elements", run.chunk_elements},
            {"upload_bytes", run.upload_bytes},
            {"download_bytes", run.download_bytes},
            {"upload_buffers", run.upload_buffers},
            {"download_buffers", run.download_buffers},
            {"host_copy_bytes", run.host_copy_bytes},
            {"launches", run.launches},
            {"warmup", run.warmup},
            {"repetitions", repetitions},
            {"median", toJson(run.median)},
            {"total_noise", finiteOrNull(run.total_noise)},
            {"converged", run.converged},
            {"verification", verificationJson(run.verification)},
            {"error", textOrNull(run.error)}};
  addPrediction(j, judged);
  return j;
}

EndToEndRun runFromJson(const json& j) {
  EndToEndRun run;
  run.strategy = parseEndToEndStrategy(textOr(j, "strategy")).value_or(EndToEndStrategy::copy);
  run.chunks = integerOr<int>(j, "chunks", 1);
  run.queues = integerOr<int>(j, "queues", 1);
  if (const json* chunks = member(j, "chunk_elements"); chunks != nullptr && chunks->is_array())
    for (const json& count : *chunks)
      if (count.is_number_unsigned()) run.chunk_elements.push_back(count.get<std::uint64_t>());
  run.upload_bytes = integerOr<std::uint64_t>(j, "upload_bytes", 0);
  run.download_bytes = integerOr<std::uint64_t>(j, "download_bytes", 0);
  run.upload_buffers = integerOr<int>(j, "upload_buffers", 0);
  run.download_buffers = integerOr<int>(j, "download_buffers", 0);
  run.host_copy_bytes = integerOr<std::uint64_t>(j, "host_copy_bytes", 0);
  run.launches = integerOr<int>(j, "launches", 0);
  run.warmup = integerOr<int>(j, "warmup", 0);
  if (const json* repetitions = member(j, "repetitions"); repetitions != nullptr && repetitions->is_array())
    for (const json& parts : *repetitions)
      if (parts.is_object()) run.repetitions.push_back(partsFromJson(parts));
  run.median = partsFromJson(objectOrEmpty(j, "median"));
  run.total_noise = optionalNumber(j, "total_noise");
  run.converged = boolOr(j, "converged", false);
  run.verification = verificationFromJson(objectOrEmpty(j, "verification"));
  run.error = optionalText(j, "error");
  return run;
}

EndToEndRunPrediction runPredictionFromJson(const json& j) {
  EndToEndRunPrediction judged;
  if (const json* predicted = member(j, "predicted"); predicted != nullptr && predicted->is_object())
    judged.predicted = partsFromJson(*predicted);
  judged.predicted_from_as_saved = savedSentence(j, "predicted_from");
  judged.basis =
      parseEndToEndPredictionBasis(textOr(j, "prediction_basis")).value_or(EndToEndPredictionBasis::not_judged);
  if (const json* inputs = member(j, "prediction_inputs"); inputs != nullptr && inputs->is_object())
    judged.inputs = predictionInputsFromJson(*inputs);
  judged.bound = parseEndToEndBound(textOr(j, "bound")).value_or(EndToEndBound::undetermined);
  judged.bound_text_as_saved = savedSentence(j, "bound_text");
  judged.bound_figures = boundFiguresFromJson(objectOrEmpty(j, "bound_figures"));
  return judged;
}

json toJson(const OverlapWhatIf& w) {
  return {{"chunks", w.chunks},
          {"upload_stage_ns", finiteOrNull(w.upload_stage_ns)},
          {"kernel_stage_ns", finiteOrNull(w.kernel_stage_ns)},
          {"download_stage_ns", finiteOrNull(w.download_stage_ns)},
          {"predicted_serial_ns", finiteOrNull(w.predicted_serial_ns)},
          {"predicted_overlapped_ns", finiteOrNull(w.predicted_overlapped_ns)},
          {"predicted_gain", finiteOrNull(w.predicted_gain)},
          {"measured_serial_ns", finiteOrNull(w.measured_serial_ns)},
          {"measured_overlapped_ns", finiteOrNull(w.measured_overlapped_ns)},
          {"measured_gain", finiteOrNull(w.measured_gain)}};
}

OverlapWhatIf overlapFromJson(const json& j) {
  OverlapWhatIf w;
  w.chunks = integerOr<int>(j, "chunks", 0);
  w.upload_stage_ns = numberOrNaN(j, "upload_stage_ns");
  w.kernel_stage_ns = numberOrNaN(j, "kernel_stage_ns");
  w.download_stage_ns = numberOrNaN(j, "download_stage_ns");
  w.predicted_serial_ns = numberOrNaN(j, "predicted_serial_ns");
  w.predicted_overlapped_ns = numberOrNaN(j, "predicted_overlapped_ns");
  w.predicted_gain = optionalNumber(j, "predicted_gain");
  w.measured_serial_ns = optionalNumber(j, "measured_serial_ns");
  w.measured_overlapped_ns = optionalNumber(j, "measured_overlapped_ns");
  w.measured_gain = optionalNumber(j, "measured_gain");
  return w;
}

// The summary is said from best and worst; a schema-1 file's sentences go back under their keys.
json toJson(const EndToEndVerdict& v) {
  json j = {{"bound", toString(v.bound)},
            {"best", v.best ? json(toString(*v.best)) : json(nullptr)},
            {"best_chunks", v.best_chunks},
            {"best_ns", finiteOrNull(v.best_ns)},
            {"worst", v.worst ? json(toString(*v.worst)) : json(nullptr)},
            {"worst_ns", finiteOrNull(v.worst_ns)}};
  if (v.bound_text_as_saved) j["bound_text"] = textOrNull(*v.bound_text_as_saved);
  else j["bound_figures"] = toJson(v.bound, v.bound_figures);
  if (v.summary_as_saved) j["summary"] = textOrNull(*v.summary_as_saved);
  return j;
}

EndToEndVerdict verdictFromJson(const json& j) {
  EndToEndVerdict v;
  v.bound = parseEndToEndBound(textOr(j, "bound")).value_or(EndToEndBound::undetermined);
  v.bound_text_as_saved = savedSentence(j, "bound_text");
  v.bound_figures = boundFiguresFromJson(objectOrEmpty(j, "bound_figures"));
  v.best = parseEndToEndStrategy(textOr(j, "best"));
  v.best_chunks = integerOr<int>(j, "best_chunks", 1);
  v.best_ns = optionalNumber(j, "best_ns");
  v.worst = parseEndToEndStrategy(textOr(j, "worst"));
  v.worst_ns = optionalNumber(j, "worst_ns");
  v.summary_as_saved = savedSentence(j, "summary");
  return v;
}

}  // namespace

json toJson(const LinkCeilings& link) {
  json transfers = json::array();
  for (const LinkCeiling& ceiling : link.transfers) transfers.push_back(toJson(ceiling));
  return {{"transfers", transfers}, {"host_memcpy", link.host_memcpy ? toJson(*link.host_memcpy) : json(nullptr)}};
}

LinkCeilings linkCeilingsFromJson(const json& j) {
  LinkCeilings link;
  if (const json* transfers = member(j, "transfers"); transfers != nullptr && transfers->is_array())
    for (const json& ceiling : *transfers)
      if (ceiling.is_object()) link.transfers.push_back(linkCeilingFromJson(ceiling));
  if (const json* memcpy_ceiling = member(j, "host_memcpy"); memcpy_ceiling != nullptr && memcpy_ceiling->is_object())
    link.host_memcpy = linkCeilingFromJson(*memcpy_ceiling);
  return link;
}

json toJson(const LaunchCeilings& launch) {
  return {{"queued_to_start", toJson(launch.queued_to_start)},
          {"submit_to_end", toJson(launch.submit_to_end)},
          {"back_to_back", toJson(launch.back_to_back)},
          {"burst_launches", launch.burst_launches},
          {"error", textOrNull(launch.error)}};
}

LaunchCeilings launchCeilingsFromJson(const json& j) {
  LaunchCeilings launch;
  launch.queued_to_start = latencyFigureFromJson(objectOrEmpty(j, "queued_to_start"));
  launch.submit_to_end = latencyFigureFromJson(objectOrEmpty(j, "submit_to_end"));
  launch.back_to_back = latencyFigureFromJson(objectOrEmpty(j, "back_to_back"));
  launch.burst_launches = integerOr<int>(j, "burst_launches", 0);
  launch.error = optionalText(j, "error");
  return launch;
}

json toJson(const EndToEndResult& result, const std::optional<EndToEndAnalysis>& analysis) {
  json runs = json::array(), overlap = json::array();
  for (std::size_t i = 0; i < result.runs.size(); ++i)
    runs.push_back(
        toJson(result.runs[i], analysis && i < analysis->runs.size() ? analysis->runs[i] : EndToEndRunPrediction{}));
  if (analysis)
    for (const OverlapWhatIf& w : analysis->overlap) overlap.push_back(toJson(w));
  return {{"runs", runs},
          {"overlap", overlap},
          {"verdict", analysis && analysis->verdict ? toJson(*analysis->verdict) : json(nullptr)}};
}

EndToEndResult endToEndResultFromJson(const json& j) {
  EndToEndResult result;
  if (const json* runs = member(j, "runs"); runs != nullptr && runs->is_array())
    for (const json& run : *runs)
      if (run.is_object()) result.runs.push_back(runFromJson(run));
  return result;
}

EndToEndAnalysis endToEndAnalysisFromJson(const json& j) {
  EndToEndAnalysis analysis;
  if (const json* runs = member(j, "runs"); runs != nullptr && runs->is_array())
    for (const json& run : *runs)
      if (run.is_object()) analysis.runs.push_back(runPredictionFromJson(run));
  if (const json* overlap = member(j, "overlap"); overlap != nullptr && overlap->is_array())
    for (const json& w : *overlap)
      if (w.is_object()) analysis.overlap.push_back(overlapFromJson(w));
  if (const json* verdict = member(j, "verdict"); verdict != nullptr && verdict->is_object())
    analysis.verdict = verdictFromJson(*verdict);
  return analysis;
}

}  // namespace rooflab
