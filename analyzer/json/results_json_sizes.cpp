// The JSON edge of size rules (a study's params in the config as run) and of what they chose
// (results.size_choices; docs/results-schema.md, "Size choices").
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

json toJson(const SizeRuleSpec& rule) {
  json j = {{"rule", rule.rule},
            {"waves", rule.waves},
            {"min_kernel_us", rule.min_kernel_us},
            {"memory_fraction", rule.memory_fraction},
            {"sweep_factor", rule.sweep_factor}};
  if (rule.min) j["min"] = *rule.min;
  if (rule.max) j["max"] = *rule.max;
  if (rule.sweep_from) j["sweep_from"] = *rule.sweep_from;
  return j;
}

SizeRuleSpec sizeRuleFromJson(const std::string& param, const json& j) {
  SizeRuleSpec rule;
  rule.param = param;
  rule.rule = textOr(j, "rule", rule.rule);
  rule.waves = numberOr(j, "waves", rule.waves);
  rule.min_kernel_us = numberOr(j, "min_kernel_us", rule.min_kernel_us);
  rule.memory_fraction = numberOr(j, "memory_fraction", rule.memory_fraction);
  rule.sweep_factor = numberOr(j, "sweep_factor", rule.sweep_factor);
  rule.min = optionalNumber(j, "min");
  rule.max = optionalNumber(j, "max");
  rule.sweep_from = optionalNumber(j, "sweep_from");
  return rule;
}

json toJson(const SizeChoice& c) {
  json j = {{"family", c.family},
            {"study", c.study_index},
            {"param", c.rule.param},
            {"rule", toJson(c.rule)},
            {"value", c.value},
            {"values", c.values},
            {"limited_by", toString(c.limited_by)},
            {"compute_units", c.compute_units},
            {"work_groups_needed", c.work_groups_needed},
            {"fewest_work_groups", finiteOrNull(c.fewest_work_groups)},
            {"fewest_variant", textOrNull(c.fewest_variant)},
            {"estimated_kernel_us", finiteOrNull(c.estimated_kernel_us)},
            {"roofs", textOrNull(c.roofs)},
            {"buffer_bytes", c.buffer_bytes},
            {"largest_buffer_bytes", c.largest_buffer_bytes},
            {"max_alloc_bytes", c.max_alloc_bytes},
            {"cache_bytes", c.cache_bytes}};
  // An older file's sentence, written back as it was; a newer file has the figures alone.
  if (c.why_as_saved) j["why"] = *c.why_as_saved;
  if (c.work_unmeasured) j["work_unmeasured"] = true;  // written only then: older results re-write unchanged
  return j;
}

SizeChoice sizeChoiceFromJson(const json& j) {
  SizeChoice c;
  c.family = textOr(j, "family");
  c.study_index = integerOr<std::size_t>(j, "study", 0);
  c.rule = sizeRuleFromJson(textOr(j, "param"), objectOrEmpty(j, "rule"));
  c.value = numberOr(j, "value", 0);
  if (const json* values = member(j, "values"); values != nullptr && values->is_array())
    for (const json& value : *values)
      if (value.is_number()) c.values.push_back(value.get<double>());
  c.limited_by = parseSizeLimit(textOr(j, "limited_by")).value_or(SizeLimit::smallest);
  c.compute_units = integerOr<std::uint32_t>(j, "compute_units", 0);
  c.work_groups_needed = numberOr(j, "work_groups_needed", 0);
  c.fewest_work_groups = optionalNumber(j, "fewest_work_groups");
  c.fewest_variant = textOr(j, "fewest_variant");
  c.estimated_kernel_us = optionalNumber(j, "estimated_kernel_us");
  c.roofs = textOr(j, "roofs");
  c.work_unmeasured = boolOr(j, "work_unmeasured", false);
  c.buffer_bytes = numberOr(j, "buffer_bytes", 0);
  c.largest_buffer_bytes = numberOr(j, "largest_buffer_bytes", 0);
  c.max_alloc_bytes = integerOr<std::uint64_t>(j, "max_alloc_bytes", 0);
  c.cache_bytes = integerOr<std::uint64_t>(j, "cache_bytes", 0);
  c.why_as_saved = optionalText(j, "why");
  return c;
}

}  // namespace rooflab
