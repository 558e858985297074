// The JSON edge of a normal record's diagnosis: docs/results-schema.md, "Diagnosis".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const DiagnosisEvidence& e) {
  json j = {{"signal", toString(e.signal)}, {"says", e.says}};
  j["level"] = e.level ? json(toString(*e.level)) : json(nullptr);
  j["points_to"] = e.points_to ? json(toString(*e.points_to)) : json(nullptr);
  if (e.above_roof) j["above_roof"] = toJson(*e.above_roof);
  return j;
}

DiagnosisEvidence diagnosisEvidenceFromJson(const json& j) {
  DiagnosisEvidence e;
  e.signal = parseDiagnosisSignal(textOr(j, "signal")).value_or(DiagnosisSignal::roofline);
  e.level = parseMemoryLevel(textOr(j, "level"));
  e.points_to = parseDiagnosedBound(textOr(j, "points_to"));
  e.says = textOr(j, "says");
  if (const json* above = member(j, "above_roof")) e.above_roof = aboveRoofFromJson(*above);
  return e;
}

}  // namespace

json toJson(const Diagnosis& d) {
  json evidence = json::array(), disagreements = json::array();
  for (const DiagnosisEvidence& item : d.evidence) evidence.push_back(toJson(item));
  for (const DiagnosisDisagreement& item : d.disagreements)
    disagreements.push_back(
        {{"trusted", toString(item.trusted)}, {"overruled", toString(item.overruled)}, {"why", item.why}});
  json j = {{"bound", toString(d.bound)},
            {"memory_level", d.memory_level ? json(toString(*d.memory_level)) : json(nullptr)},
            {"confidence", toString(d.confidence)},
            {"decided_by", d.decided_by ? json(toString(*d.decided_by)) : json(nullptr)},
            {"evidence", evidence},
            {"disagreements", disagreements}};
  if (d.failed_verification) j["failed_verification"] = true;  // only then: older files re-render byte for byte
  if (d.launch_floor_ns) j["launch_floor_ns"] = finiteOrNull(*d.launch_floor_ns);  // launch-bound only
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
  if (const json* evidence = member(j, "evidence"); evidence != nullptr && evidence->is_array())
    for (const json& item : *evidence)
      if (item.is_object()) d.evidence.push_back(diagnosisEvidenceFromJson(item));
  if (const json* disagreements = member(j, "disagreements"); disagreements != nullptr && disagreements->is_array())
    for (const json& item : *disagreements) {
      if (!item.is_object()) continue;
      d.disagreements.push_back({parseDiagnosisSignal(textOr(item, "trusted")).value_or(DiagnosisSignal::roofline),
                                 parseDiagnosisSignal(textOr(item, "overruled")).value_or(DiagnosisSignal::mutants),
                                 textOr(item, "why")});
    }
  return d;
}

}  // namespace rooflab
