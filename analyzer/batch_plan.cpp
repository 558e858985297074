#include "analyzer/batch_plan.hpp"

#include <algorithm>
#include <set>

#include "analyzer/errors.hpp"

namespace rooflab {
namespace {

bool hasGlob(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

// Cartesian product of the study's swept parameters, in the order they were written.
std::vector<ParamValues> expandParams(const FamilyManifest& family, const StudySpec& study) {
  std::vector<ParamValues> points{family.params};
  for (const auto& [name, values] : study.params) {
    std::vector<ParamValues> next;
    for (const auto& base : points)
      for (double value : values) {
        ParamValues p = base;
        p[name] = value;
        next.push_back(std::move(p));
      }
    points = std::move(next);
  }
  return points;
}

// The study's variants, in pattern order; an input error for each pattern that matches none.
std::vector<const VariantSpec*> matchVariants(const FamilyManifest& family, const StudySpec& study, const std::string& at,
                                              std::vector<std::string>& input_errors) {
  std::vector<const VariantSpec*> variants;
  for (const auto& pattern : study.variants) {
    bool matched = false;
    for (const auto& v : family.variants)
      if (globMatch(pattern, v.name)) {
        matched = true;
        if (std::find(variants.begin(), variants.end(), &v) == variants.end()) variants.push_back(&v);
      }
    if (!matched)
      input_errors.push_back(at + ": " + (hasGlob(pattern) ? "pattern '" : "no variant '") + pattern +
                             (hasGlob(pattern) ? "' matches no variant" : "'"));
  }
  return variants;
}

// The study's sweep with the command line's --set values in place of its own, for the parameters its
// family declares; `used` collects the names that some study took.
StudySpec withParamOverrides(StudySpec study, const FamilyManifest& family, const std::vector<ParamOverride>& overrides,
                             std::set<std::string>& used) {
  for (const ParamOverride& o : overrides) {
    if (!family.params.count(o.name)) continue;
    used.insert(o.name);
    auto same = [&](const auto& p) { return p.first == o.name; };
    auto it = std::find_if(study.params.begin(), study.params.end(), same);
    if (it == study.params.end())
      study.params.emplace_back(o.name, o.values);
    else
      it->second = o.values;
  }
  return study;
}

}  // namespace

bool BatchPlan::closesGroup(std::size_t i) const {
  return i + 1 == points.size() || points[i + 1].point.variant != points[i].point.variant ||
         points[i + 1].point.params != points[i].point.params;
}

BatchPlan planBatch(const BatchConfig& config) {
  BatchPlan plan;
  FamilyDiscovery found = discoverFamilies(kernelSearchPath(config.run));
  plan.input_errors = found.errors;
  // The studied families only: the built-in ones are always found, and the batch counts what it runs.
  for (FamilyManifest& family : found.families)
    if (std::any_of(config.studies.begin(), config.studies.end(), [&](const StudySpec& s) { return s.family == family.name; }))
      plan.families.push_back(std::move(family));
  std::set<std::string> overrides_used;
  for (const auto& study_in : config.studies) {
    const std::string at = study_in.where.str() + ": study '" + study_in.family + "'";
    const FamilyManifest* family = nullptr;
    for (const auto& f : plan.families)
      if (f.name == study_in.family) family = &f;
    if (!family) {
      plan.input_errors.push_back(at + ": no family of that name in the kernel search path (see `rooflab list`)");
      continue;
    }
    const StudySpec study = withParamOverrides(study_in, *family, config.param_overrides, overrides_used);
    const std::size_t errors_before = plan.input_errors.size();
    for (const auto& [name, values] : study.params)
      if (!family->params.count(name))
        plan.input_errors.push_back(at + ": parameter '" + name + "' is not declared in " + family->path.string());
    const std::vector<const VariantSpec*> variants = matchVariants(*family, study, at, plan.input_errors);
    if (plan.input_errors.size() != errors_before) continue;
    const std::vector<RunMode>& modes = study.modes.empty() ? config.run.modes : study.modes;
    for (const ParamValues& params : expandParams(*family, study))
      for (const VariantSpec* v : variants)
        for (RunMode mode : modes) plan.points.push_back(planPoint(RunPoint{family, v, params, mode}));
  }
  // A name no studied family declares is a typo or the wrong config: nothing is run.
  for (const ParamOverride& o : config.param_overrides)
    if (!overrides_used.count(o.name))
      throw InputError("--set " + o.name + ": no studied family declares a parameter of that name");
  return plan;
}

}  // namespace rooflab
