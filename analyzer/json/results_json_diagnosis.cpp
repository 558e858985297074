// The JSON edge of a normal record's diagnosis: docs/results-schema.md, "Diagnosis". An evidence
// item or disagreement read from a schema-1 file keeps its sentence ("says", "why") and is written
// back as it was; the others are written as data.
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const InvalidMutant& invalid) {
  return {{"mutant", invalid.mutant}, {"validation", toJson(invalid.validation)}};
}

std::optional<InvalidMutant> invalidMutantFromJson(const json& j, const char* key) {
  const json* invalid = member(j, key);
  if (invalid == nullptr || !invalid->is_object()) return std::nullopt;
  const json* validation = member(*invalid, "validation");
  return InvalidMutant{textOr(*invalid, "mutant"), validation != nullptr && validation->is_object()
                                                       ? mutantValidationFromJson(*validation)
                                                       : MutantValidation{}};
}

json toJson(const DoubtfulMutant& doubt) {
  return {{"mutant", doubt.mutant}, {"times_original", finiteOrNull(doubt.times_original)}};
}

std::optional<DoubtfulMutant> doubtfulMutantFromJson(const json& j, const char* key) {
  const json* doubt = member(j, key);
  if (doubt == nullptr || !doubt->is_object()) return std::nullopt;
  return DoubtfulMutant{textOr(*doubt, "mutant"), numberOrNaN(*doubt, "times_original")};
}

json toJson(const LaunchFloor& launch) {
  return {{"kernel_ns", finiteOrNull(launch.kernel_ns)},
          {"launch_latency_ns", finiteOrNull(launch.launch_latency_ns)},
          {"launches", finiteOrNull(launch.launches)},
          {"bound_multiple", finiteOrNull(launch.bound_multiple)}};
}

std::optional<LaunchFloor> launchFloorFromJson(const json& j, const char* key) {
  const json* launch = member(j, key);
  if (launch == nullptr || !launch->is_object()) return std::nullopt;
  return LaunchFloor{numberOrNaN(*launch, "kernel_ns"), numberOrNaN(*launch, "launch_latency_ns"),
                     numberOr(*launch, "launches", 1), numberOr(*launch, "bound_multiple", 2)};
}

json toJson(const BalancedTie& tie) {
  return {{"tie_share_fraction", finiteOrNull(tie.tie_share_fraction)},
          {"ridge_side", toString(tie.ridge_side)},
          {"intensity", finiteOrNull(tie.intensity)},
          {"ridge_intensity", finiteOrNull(tie.ridge_intensity)}};
}

std::optional<BalancedTie> balancedTieFromJson(const json& j) {
  const json* tie = member(j, "tie");
  if (tie == nullptr || !tie->is_object()) return std::nullopt;
  return BalancedTie{numberOr(*tie, "tie_share_fraction", 0.1),
                     parseDiagnosedBound(textOr(*tie, "ridge_side")).value_or(DiagnosedBound::memory),
                     numberOrNaN(*tie, "intensity"), numberOrNaN(*tie, "ridge_intensity")};
}

// The evidence's figures, each under its field's name where the item has it.
const std::pair<const char*, std::optional<double> DiagnosisEvidence::*> kEvidenceFigures[] = {
    {"fraction_of_roof", &DiagnosisEvidence::fraction_of_roof},
    {"intensity", &DiagnosisEvidence::intensity},
    {"issue_slots_busy_pct", &DiagnosisEvidence::issue_slots_busy_pct},
    {"t_ns", &DiagnosisEvidence::t_ns},
    {"t_mem_ns", &DiagnosisEvidence::t_mem_ns},
    {"t_comp_ns", &DiagnosisEvidence::t_comp_ns},
};

void putEvidenceData(json& j, const DiagnosisEvidence& e) {
  j["kind"] = toString(e.kind);
  for (const auto& [key, figure] : kEvidenceFigures) putNumber(j, key, e.*figure);
  if (e.kind == EvidenceKind::placement) j["integer_ops"] = e.integer_ops;
  if (e.kind != EvidenceKind::mutants) return;
  j["verdict"] = toString(e.verdict);
  j["cpu_device"] = e.cpu_device;
  if (e.last_note) j["last_note"] = toJson(*e.last_note);
  if (e.tie) j["tie"] = toJson(*e.tie);
  if (e.invalid) j["invalid"] = toJson(*e.invalid);
  if (e.doubt) j["doubt"] = toJson(*e.doubt);
}

json toJson(const DiagnosisEvidence& e) {
  json j = {{"signal", toString(e.signal)}};
  if (e.says_as_saved) j["says"] = *e.says_as_saved;
  else putEvidenceData(j, e);
  j["level"] = e.level ? json(toString(*e.level)) : json(nullptr);
  j["points_to"] = e.points_to ? json(toString(*e.points_to)) : json(nullptr);
  if (e.launch) j["launch"] = toJson(*e.launch);
  if (e.above_roof) j["above_roof"] = toJson(*e.above_roof);
  return j;
}

DiagnosisEvidence diagnosisEvidenceFromJson(const json& j) {
  DiagnosisEvidence e;
  e.signal = parseDiagnosisSignal(textOr(j, "signal")).value_or(DiagnosisSignal::roofline);
  e.level = parseMemoryLevel(textOr(j, "level"));
  e.points_to = parseDiagnosedBound(textOr(j, "points_to"));
  if (const json* above = member(j, "above_roof")) e.above_roof = aboveRoofFromJson(*above);
  e.launch = launchFloorFromJson(j, "launch");
  e.says_as_saved = optionalText(j, "says");  // schema 1: the item as a sentence
  if (e.says_as_saved) return e;
  e.kind = parseEvidenceKind(textOr(j, "kind")).value_or(EvidenceKind::nothing_to_place);
  for (const auto& [key, figure] : kEvidenceFigures) e.*figure = optionalNumber(j, key);
  e.integer_ops = boolOr(j, "integer_ops", false);
  e.verdict = parseMutationReading(textOr(j, "verdict")).value_or(MutationReading::unknown);
  e.cpu_device = boolOr(j, "cpu_device", false);
  if (const json* note = member(j, "last_note")) e.last_note = mutationNoteFromJson(*note);
  e.tie = balancedTieFromJson(j);
  e.invalid = invalidMutantFromJson(j, "invalid");
  e.doubt = doubtfulMutantFromJson(j, "doubt");
  return e;
}

json toJson(const SignalReading& reading) {
  json j = json::object();
  putNumber(j, "fraction_of_roof", reading.fraction_of_roof);
  if (reading.level) j["level"] = toString(*reading.level);
  putNumber(j, "issue_slots_busy_pct", reading.issue_slots_busy_pct);
  if (reading.verdict) j["verdict"] = toString(*reading.verdict);
  return j;
}

SignalReading signalReadingFromJson(const json& j, const char* key) {
  SignalReading reading;
  const json* object = member(j, key);
  if (object == nullptr || !object->is_object()) return reading;
  reading.fraction_of_roof = optionalNumber(*object, "fraction_of_roof");
  reading.level = parseMemoryLevel(textOr(*object, "level"));
  reading.issue_slots_busy_pct = optionalNumber(*object, "issue_slots_busy_pct");
  reading.verdict = parseMutationReading(textOr(*object, "verdict"));
  return reading;
}

json toJson(const DiagnosisDisagreement& d) {
  json j = {{"trusted", toString(d.trusted)}, {"overruled", toString(d.overruled)}};
  if (d.why_as_saved) {
    j["why"] = *d.why_as_saved;
    return j;
  }
  j["case"] = toString(d.reason);
  j["trusted_reading"] = toJson(d.trusted_reading);
  j["overruled_reading"] = toJson(d.overruled_reading);
  if (d.overruled_bound) j["overruled_bound"] = toString(*d.overruled_bound);
  if (d.reason == DisagreementCase::mutants_doubtful) j["cpu_device"] = d.cpu_device;
  if (d.doubt) j["doubt"] = toJson(*d.doubt);
  if (d.invalid) j["invalid"] = toJson(*d.invalid);
  if (d.launch) j["launch"] = toJson(*d.launch);
  return j;
}

DiagnosisDisagreement diagnosisDisagreementFromJson(const json& j) {
  DiagnosisDisagreement d;
  d.trusted = parseDiagnosisSignal(textOr(j, "trusted")).value_or(DiagnosisSignal::roofline);
  d.overruled = parseDiagnosisSignal(textOr(j, "overruled")).value_or(DiagnosisSignal::mutants);
  d.why_as_saved = optionalText(j, "why");  // schema 1: the disagreement as a sentence
  if (d.why_as_saved) return d;
  d.reason = parseDisagreementCase(textOr(j, "case")).value_or(DisagreementCase::counters_over_requested_bytes);
  d.trusted_reading = signalReadingFromJson(j, "trusted_reading");
  d.overruled_reading = signalReadingFromJson(j, "overruled_reading");
  d.overruled_bound = parseDiagnosedBound(textOr(j, "overruled_bound"));
  d.cpu_device = boolOr(j, "cpu_device", false);
  d.doubt = doubtfulMutantFromJson(j, "doubt");
  d.invalid = invalidMutantFromJson(j, "invalid");
  d.launch = launchFloorFromJson(j, "launch");
  return d;
}

json hotLineJson(const HotLine& hot) {
  return {{"file", hot.where.file},
          {"line", hot.where.line},
          {"samples", hot.samples},
          {"attributed_samples", hot.attributed_samples},
          {"share_of_samples", finiteOrNull(hot.share_of_samples)},
          {"stall_reason", hot.stall_reason},
          {"stall_samples", hot.stall_samples},
          {"cause", toString(hot.cause)}};
}

HotLine hotLineFromJson(const json& j) {
  HotLine hot;
  hot.where = {textOr(j, "file"), integerOr<int>(j, "line", 0)};
  hot.samples = integerOr<std::int64_t>(j, "samples", 0);
  hot.attributed_samples = integerOr<std::int64_t>(j, "attributed_samples", 0);
  hot.share_of_samples = numberOr(j, "share_of_samples", 0);
  hot.stall_reason = textOr(j, "stall_reason");
  hot.stall_samples = integerOr<std::int64_t>(j, "stall_samples", 0);
  hot.cause = parseHotLineCause(textOr(j, "cause")).value_or(HotLineCause::memory);
  return hot;
}

}  // namespace

json toJson(const Diagnosis& d) {
  json evidence = json::array(), disagreements = json::array();
  for (const DiagnosisEvidence& item : d.evidence) evidence.push_back(toJson(item));
  for (const DiagnosisDisagreement& item : d.disagreements) disagreements.push_back(toJson(item));
  json j = {{"bound", toString(d.bound)},
            {"memory_level", d.memory_level ? json(toString(*d.memory_level)) : json(nullptr)},
            {"confidence", toString(d.confidence)},
            {"decided_by", d.decided_by ? json(toString(*d.decided_by)) : json(nullptr)},
            {"evidence", evidence},
            {"disagreements", disagreements}};
  if (d.failed_verification) j["failed_verification"] = true;  // only then: older files re-render byte for byte
  if (d.launch_floor_ns) j["launch_floor_ns"] = finiteOrNull(*d.launch_floor_ns);  // launch-bound only
  if (d.hot_line) j["hot_line"] = hotLineJson(*d.hot_line);                        // sampled originals only
  return j;
}

Diagnosis diagnosisFromJson(const json& j) {
  Diagnosis d;
  d.bound = parseDiagnosedBound(textOr(j, "bound")).value_or(DiagnosedBound::undetermined);
  d.memory_level = parseMemoryLevel(textOr(j, "memory_level"));
  d.confidence = parseDiagnosisConfidence(textOr(j, "confidence")).value_or(DiagnosisConfidence::low);
  d.decided_by = parseDiagnosisSignal(textOr(j, "decided_by"));
  d.failed_verification = boolOr(j, "failed_verification", false);
  d.launch_floor_ns = optionalNumber(j, "launch_floor_ns");
  if (const json* hot = member(j, "hot_line"); hot != nullptr && hot->is_object()) d.hot_line = hotLineFromJson(*hot);
  if (const json* evidence = member(j, "evidence"); evidence != nullptr && evidence->is_array())
    for (const json& item : *evidence)
      if (item.is_object()) d.evidence.push_back(diagnosisEvidenceFromJson(item));
  if (const json* disagreements = member(j, "disagreements"); disagreements != nullptr && disagreements->is_array())
    for (const json& item : *disagreements)
      if (item.is_object()) d.disagreements.push_back(diagnosisDisagreementFromJson(item));
  return d;
}

}  // namespace rooflab
