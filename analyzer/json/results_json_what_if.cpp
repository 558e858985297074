// The JSON edge of a what-if record's result: docs/results-schema.md, "What-if".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

json toJson(const WhatIfRun& run, const WhatIfOutcome& w) {
  json j = {{"name", run.name},
            {"define", run.define},
            {"expect", nullptr},
            {"realised_by", textOrNull(run.realised_by)},
            {"check", toString(w.check)},
            {"check_detail", w.check_detail},
            {"counter_original", finiteOrNull(w.counter_original)},
            {"counter_what_if", finiteOrNull(w.counter_what_if)},
            {"t_ns", finiteOrNull(w.t_ns)},
            {"t_what_if_ns", finiteOrNull(w.t_what_if_ns)},
            {"predicted_gain", finiteOrNull(w.predicted_gain)},
            {"t_realised_ns", finiteOrNull(w.t_realised_ns)},
            {"realised_gain", finiteOrNull(w.realised_gain)}};
  // Only when a gain is withheld, so that older results re-write unchanged.
  if (!w.predicted_gain_unavailable.empty()) j["predicted_gain_unavailable"] = w.predicted_gain_unavailable;
  if (!w.realised_gain_unavailable.empty()) j["realised_gain_unavailable"] = w.realised_gain_unavailable;
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
  w.check_detail = textOr(j, "check_detail");
  w.counter_original = optionalNumber(j, "counter_original");
  w.counter_what_if = optionalNumber(j, "counter_what_if");
  w.t_ns = optionalNumber(j, "t_ns");
  w.t_what_if_ns = optionalNumber(j, "t_what_if_ns");
  w.predicted_gain = optionalNumber(j, "predicted_gain");
  w.t_realised_ns = optionalNumber(j, "t_realised_ns");
  w.realised_gain = optionalNumber(j, "realised_gain");
  w.predicted_gain_unavailable = textOr(j, "predicted_gain_unavailable");
  w.realised_gain_unavailable = textOr(j, "realised_gain_unavailable");
  return w;
}

}  // namespace rooflab
