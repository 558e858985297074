#include "analyzer/manifest/manifest_what_if.hpp"

#include <cmath>
#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "analyzer/data/counter_metrics.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/suggestion.hpp"

namespace rooflab {
namespace {

bool isWhatIfName(const std::string& s) {
  static const std::regex re("[A-Za-z0-9][A-Za-z0-9_-]*");
  return std::regex_match(s, re);
}

bool isMacroName(const std::string& s) {
  static const std::regex re("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(s, re);
}

// Whether `name` appears in `text` as a whole identifier (a define the sources test).
bool mentionsIdentifier(const std::string& text, const std::string& name) {
  auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const bool starts = at == 0 || !isWordChar(text[at - 1]);
    const std::size_t end = at + name.size();
    if (starts && (end == text.size() || !isWordChar(text[end]))) return true;
  }
  return false;
}

// `expect = { counter = "shared_bank_conflicts", to = 0 }`: one counter, one comparison.
WhatIfExpectation parseExpectation(const TomlReader& r) {
  r.rejectUnknownKeys({"counter", "to", "below", "ratio_below"});
  WhatIfExpectation e;
  e.counter = r.requireString("counter");
  std::vector<std::string> keys;
  for (const auto& metric : counters::derivedCounterTable()) keys.push_back(metric.raw_name);
  if (std::find(keys.begin(), keys.end(), e.counter) == keys.end())
    r.fail("counter", "unknown counter '" + e.counter + "'" + didYouMean(e.counter, keys) +
                          " (expectations name derived counter keys, docs/results-schema.md \"Counters\")");
  int comparisons = 0;
  for (WhatIfComparison c : {WhatIfComparison::to, WhatIfComparison::below, WhatIfComparison::ratio_below}) {
    const std::string key = toString(c);
    if (!r.has(key)) continue;
    const std::optional<double> value = r.optionalNumber(key);
    if (!value || !std::isfinite(*value)) r.fail(key, "must be a finite number");
    if (c == WhatIfComparison::ratio_below && *value <= 0)
      r.fail(key, "must be above 0 (a fraction of the original's value)");
    e.comparison = c;
    e.value = *value;
    ++comparisons;
  }
  if (comparisons != 1)
    r.fail("", "give exactly one of to, below or ratio_below (got " + std::to_string(comparisons) + ")");
  return e;
}

WhatIfSpec parseWhatIf(const TomlReader& r, const VariantSpec& variant, const std::string& source_text) {
  r.rejectUnknownKeys({"name", "define", "description", "expect", "realised_by"});
  WhatIfSpec w;
  w.where = r.where();
  w.name = r.requireString("name");
  if (!isWhatIfName(w.name)) r.fail("name", "'" + w.name + "' is not a valid what-if name (letters, digits, '-', '_')");
  w.define = r.requireString("define");
  if (!isMacroName(w.define)) r.fail("define", "'" + w.define + "' is not a valid macro name");
  for (const DefineSpec& d : variant.defines)
    if (d.name == w.define) r.fail("define", "'" + w.define + "' is already one of the variant's defines");
  // A define no source tests would run the original again and promise a gain of 1x as a finding.
  if (!mentionsIdentifier(source_text, w.define))
    r.fail("define", "'" + w.define + "' does not appear in the variant's sources (" +
                         variant.source.filename().string() +
                         " and the files it includes): the what-if would be the original");
  w.description = r.optionalString("description").value_or("");
  if (r.has("expect")) {
    const toml::table* expect = r.optionalTable("expect");
    if (!expect) r.fail("expect", "must be a table: { counter = \"...\", to | below | ratio_below = <number> }");
    w.expect = parseExpectation(r.sub(*expect, r.keyPath("expect")));
  }
  w.realised_by = r.optionalString("realised_by").value_or("");
  return w;
}

}  // namespace

std::vector<WhatIfSpec> parseWhatIfs(const TomlReader& r, const VariantSpec& variant, const std::string& source_text,
                                     InputErrorList& errors) {
  std::vector<WhatIfSpec> what_ifs;
  const toml::array* array = nullptr;
  errors.attempt([&] {
    array = r.optionalArray("what_if");
    if (!array && r.has("what_if")) r.fail("what_if", "must be an array of tables ([[variants.what_if]])");
  });
  if (!array) return what_ifs;
  std::set<std::string> names;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::table* t = array->get(i)->as_table();
    if (!t) {
      errors.add(r.error("what_if", "element " + std::to_string(i) + " must be a table"));
      continue;
    }
    errors.attempt([&] {
      WhatIfSpec w = parseWhatIf(r.sub(*t, r.keyPath("what_if") + "[" + std::to_string(i) + "]"), variant, source_text);
      if (!names.insert(w.name).second) r.fail("what_if", "duplicate what-if name '" + w.name + "'");
      what_ifs.push_back(std::move(w));
    });
  }
  return what_ifs;
}

void checkWhatIfTargets(const FamilyManifest& family) {
  std::vector<std::string> variant_names;
  for (const VariantSpec& v : family.variants) variant_names.push_back(v.name);
  InputErrorList errors;
  for (const VariantSpec& v : family.variants)
    for (const WhatIfSpec& w : v.what_ifs) {
      if (w.realised_by.empty()) continue;
      const std::string at = w.where.str() + ": what-if '" + w.name + "' of variant '" + v.name + "': realised_by: ";
      if (w.realised_by == v.name)
        errors.add(at + "names the variant itself (name the variant that makes the optimisation)");
      else if (!family.findVariant(w.realised_by))
        errors.add(at + "no variant '" + w.realised_by + "' in " + family.path.string() +
                   didYouMean(w.realised_by, variant_names));
    }
  errors.throwIfAny();
}

}  // namespace rooflab
