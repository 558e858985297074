// The JSON edge of tuning: results.tuning (docs/results-schema.md, "Tuning") and the lines of
// <out>/tune-journal.jsonl.
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json valuesObject(const ParamValues& values) {
  json j = json::object();
  for (const auto& [name, value] : values) j[name] = value;
  return j;
}

ParamValues valuesFrom(const json& j) {
  ParamValues values;
  for (const auto& [name, value] : j.items())
    if (value.is_number()) values[name] = value.get<double>();
  return values;
}

std::vector<double> numbersOf(const json& j, std::string_view key) {
  std::vector<double> numbers;
  if (const json* list = member(j, key); list != nullptr && list->is_array())
    for (const json& value : *list)
      if (value.is_number()) numbers.push_back(value.get<double>());
  return numbers;
}

json toJson(const TunedConfiguration& c) {
  json j = {{"values", c.values}, {"outcome", toString(c.outcome)}};
  if (!c.reason.empty()) j["reason"] = c.reason;
  if (c.order) j["order"] = *c.order;
  if (c.resumed) j["resumed"] = true;
  if (c.median_ns) j["median_ns"] = finiteOrNull(*c.median_ns);
  if (c.lower_ns) j["lower_ns"] = finiteOrNull(*c.lower_ns);
  if (c.upper_ns) j["upper_ns"] = finiteOrNull(*c.upper_ns);
  if (c.rate) j["rate"] = finiteOrNull(*c.rate);
  return j;
}

TunedConfiguration tunedConfigurationFromJson(const json& j) {
  TunedConfiguration c;
  c.values = numbersOf(j, "values");
  c.outcome = parseConfigurationOutcome(textOr(j, "outcome")).value_or(ConfigurationOutcome::not_evaluated);
  c.reason = textOr(j, "reason");
  c.order = optionalInteger<std::size_t>(j, "order");
  c.resumed = boolOr(j, "resumed", false);
  c.median_ns = optionalNumber(j, "median_ns");
  c.lower_ns = optionalNumber(j, "lower_ns");
  c.upper_ns = optionalNumber(j, "upper_ns");
  c.rate = optionalNumber(j, "rate");
  return c;
}

}  // namespace

json toJson(const TuningResult& t) {
  json dimensions = json::array(), configurations = json::array();
  for (const TuningDimension& d : t.dimensions)
    dimensions.push_back({{"name", d.name}, {"kind", d.kind}, {"values", d.values}});
  for (const TunedConfiguration& c : t.configurations) configurations.push_back(toJson(c));
  json j = {{"family", t.family},
            {"variant", t.variant},
            {"params", valuesObject(t.params)},
            {"param_order", t.param_order},
            {"searcher", toString(t.searcher)},
            {"budget_evaluations", t.budget_evaluations ? json(*t.budget_evaluations) : json(nullptr)},
            {"budget_seconds", finiteOrNull(t.budget_seconds)},
            {"dimensions", dimensions},
            {"constraints", t.constraints},
            {"configurations", configurations},
            {"valid", t.valid},
            {"evaluations", t.evaluations},
            {"best", t.best ? json(*t.best) : json(nullptr)},
            {"baseline", t.baseline ? json(*t.baseline) : json(nullptr)},
            {"rate_unit", t.rate_unit},
            {"roof_rate", finiteOrNull(t.roof_rate)},
            {"stop_reason", t.stop_reason},
            {"seconds", t.seconds},
            {"tuned_variant", textOrNull(t.tuned_variant)},
            {"manifest_snippet", textOrNull(t.manifest_snippet)}};
  return j;
}

TuningResult tuningResultFromJson(const json& j) {
  TuningResult t;
  t.family = textOr(j, "family");
  t.variant = textOr(j, "variant");
  t.params = valuesFrom(objectOrEmpty(j, "params"));
  t.param_order = textList(j, "param_order");
  t.searcher = parseTuneSearcher(textOr(j, "searcher")).value_or(TuneSearcher::guided);
  t.budget_evaluations = optionalInteger<std::size_t>(j, "budget_evaluations");
  t.budget_seconds = optionalNumber(j, "budget_seconds");
  if (const json* dimensions = member(j, "dimensions"); dimensions != nullptr && dimensions->is_array())
    for (const json& d : *dimensions)
      if (d.is_object()) t.dimensions.push_back({textOr(d, "name"), textOr(d, "kind"), numbersOf(d, "values")});
  t.constraints = textList(j, "constraints");
  if (const json* configurations = member(j, "configurations"); configurations != nullptr && configurations->is_array())
    for (const json& c : *configurations)
      if (c.is_object()) t.configurations.push_back(tunedConfigurationFromJson(c));
  t.valid = integerOr<std::size_t>(j, "valid", 0);
  t.evaluations = integerOr<std::size_t>(j, "evaluations", 0);
  t.best = optionalInteger<std::size_t>(j, "best");
  if (t.best && *t.best >= t.configurations.size()) t.best.reset();
  t.baseline = optionalInteger<std::size_t>(j, "baseline");
  if (t.baseline && *t.baseline >= t.configurations.size()) t.baseline.reset();
  t.rate_unit = textOr(j, "rate_unit", t.rate_unit);
  t.roof_rate = optionalNumber(j, "roof_rate");
  t.stop_reason = textOr(j, "stop_reason");
  t.seconds = numberOr(j, "seconds", 0);
  t.tuned_variant = textOr(j, "tuned_variant");
  t.manifest_snippet = textOr(j, "manifest_snippet");
  return t;
}

std::string encodeTuneJournalLine(const TuneJournalEntry& entry) {
  const json j = {{"tune_journal", 1},
                  {"device", entry.device},
                  {"family", entry.family},
                  {"variant", entry.variant},
                  {"params", valuesObject(entry.params)},
                  {"configuration", valuesObject(entry.configuration)},
                  {"identity", entry.identity},
                  {"record", toJson(entry.record)}};
  return j.dump();
}

std::optional<TuneJournalEntry> decodeTuneJournalLine(const std::string& line) {
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || member(j, "tune_journal") == nullptr) return std::nullopt;
  const json* record = member(j, "record");
  if (record == nullptr || !record->is_object()) return std::nullopt;
  TuneJournalEntry entry;
  entry.device = textOr(j, "device");
  entry.family = textOr(j, "family");
  entry.variant = textOr(j, "variant");
  entry.params = valuesFrom(objectOrEmpty(j, "params"));
  entry.configuration = valuesFrom(objectOrEmpty(j, "configuration"));
  if (const json* identity = member(j, "identity"); identity != nullptr && identity->is_object())
    for (const auto& [name, value] : identity->items())
      if (value.is_string()) entry.identity[name] = value.get<std::string>();
  try {
    entry.record = runRecordFromJson(*record);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return entry;
}

}  // namespace rooflab
