// The JSON edge of a what-if record's result: docs/results-schema.md, "What-if".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const WhatIfGainWithheld& withheld) {
  json j = {{"record", toString(withheld.record)},
            {"because", toString(withheld.because)},
            {"reason", textOrNull(withheld.reason)}};
  if (!withheld.variant.empty()) j["variant"] = withheld.variant;
  if (withheld.because == WhatIfGainBlock::run_ended) j["status"] = toString(withheld.status);
  return j;
}

// A withheld gain as data under "<gain>_withheld", or the sentence a schema-1 file saved under
// "<gain>_unavailable"; neither when the gain is given.
void writeGainWithheld(json& j, const std::string& gain, const std::optional<WhatIfGainWithheld>& withheld) {
  if (!withheld) return;
  if (withheld->text_as_saved) j[gain + "_unavailable"] = *withheld->text_as_saved;
  else j[gain + "_withheld"] = toJson(*withheld);
}

std::optional<WhatIfGainWithheld> gainWithheldFromJson(const json& j, const std::string& gain) {
  WhatIfGainWithheld withheld;
  if (const auto saved = optionalText(j, gain + "_unavailable")) {
    withheld.text_as_saved = saved;
    return withheld;
  }
  const json* data = member(j, gain + "_withheld");
  if (data == nullptr || !data->is_object()) return std::nullopt;
  withheld.record = parseWhatIfRecordRole(textOr(*data, "record")).value_or(WhatIfRecordRole::original);
  withheld.variant = textOr(*data, "variant");
  withheld.because = parseWhatIfGainBlock(textOr(*data, "because")).value_or(WhatIfGainBlock::not_run);
  withheld.status = parseRecordStatus(textOr(*data, "status")).value_or(RecordStatus::ok);
  withheld.reason = optionalText(*data, "reason");
  return withheld;
}

// What the check rests on as data, or the sentence a schema-1 file saved under "check_detail".
void writeCheckDetail(json& j, const WhatIfOutcome& w) {
  if (w.check_detail_as_saved) {
    j["check_detail"] = *w.check_detail_as_saved;
    return;
  }
  j["check_basis"] = toString(w.check_basis);
  if (w.check_basis == WhatIfCheckBasis::no_counters || w.check_basis == WhatIfCheckBasis::counter_missing)
    j["check_record"] = toString(w.check_record);
  if (w.check_reason) j["check_reason"] = *w.check_reason;
}

void readCheckDetail(const json& j, WhatIfOutcome& w) {
  w.check_detail_as_saved = optionalText(j, "check_detail");
  if (w.check_detail_as_saved) return;
  w.check_basis = parseWhatIfCheckBasis(textOr(j, "check_basis")).value_or(WhatIfCheckBasis::no_expectation);
  w.check_record = parseWhatIfRecordRole(textOr(j, "check_record")).value_or(WhatIfRecordRole::what_if);
  w.check_reason = optionalText(j, "check_reason");
}

}  // namespace

json toJson(const WhatIfRun& run, const WhatIfOutcome& w) {
  json j = {{"name", run.name},
            {"define", run.define},
            {"expect", nullptr},
            {"realised_by", textOrNull(run.realised_by)},
            {"check", toString(w.check)},
            {"counter_original", finiteOrNull(w.counter_original)},
            {"counter_what_if", finiteOrNull(w.counter_what_if)},
            {"t_ns", finiteOrNull(w.t_ns)},
            {"t_what_if_ns", finiteOrNull(w.t_what_if_ns)},
            {"predicted_gain", finiteOrNull(w.predicted_gain)},
            {"t_realised_ns", finiteOrNull(w.t_realised_ns)},
            {"realised_gain", finiteOrNull(w.realised_gain)}};
  writeCheckDetail(j, w);
  // Only when a gain is withheld, so that older results re-write unchanged.
  writeGainWithheld(j, "predicted_gain", w.predicted_gain_unavailable);
  writeGainWithheld(j, "realised_gain", w.realised_gain_unavailable);
  if (const auto& e = run.expectation)
    j["expect"] = {{"counter", e->counter}, {"comparison", toString(e->comparison)}, {"value", finiteOrNull(e->value)}};
  return j;
}

WhatIfRun whatIfRunFromJson(const json& j) {
  WhatIfRun w;
  w.name = textOr(j, "name");
  w.define = textOr(j, "define");
  if (const json* e = member(j, "expect"); e != nullptr && e->is_object()) {
    if (const auto comparison = parseWhatIfComparison(textOr(*e, "comparison")))
      w.expectation = WhatIfExpectation{textOr(*e, "counter"), *comparison, numberOrNaN(*e, "value")};
  }
  w.realised_by = textOr(j, "realised_by");
  return w;
}

WhatIfOutcome whatIfOutcomeFromJson(const json& j) {
  WhatIfOutcome w;
  w.check = parseWhatIfCheck(textOr(j, "check")).value_or(WhatIfCheck::not_checked);
  readCheckDetail(j, w);
  w.counter_original = optionalNumber(j, "counter_original");
  w.counter_what_if = optionalNumber(j, "counter_what_if");
  w.t_ns = optionalNumber(j, "t_ns");
  w.t_what_if_ns = optionalNumber(j, "t_what_if_ns");
  w.predicted_gain = optionalNumber(j, "predicted_gain");
  w.t_realised_ns = optionalNumber(j, "t_realised_ns");
  w.realised_gain = optionalNumber(j, "realised_gain");
  w.predicted_gain_unavailable = gainWithheldFromJson(j, "predicted_gain");
  w.realised_gain_unavailable = gainWithheldFromJson(j, "realised_gain");
  return w;
}

}  // namespace rooflab
