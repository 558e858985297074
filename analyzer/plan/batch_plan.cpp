#include "analyzer/plan/batch_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "analyzer/plan/argument_check.hpp"
#include "analyzer/plan/end_to_end_plan.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/suggestion.hpp"
#include "analyzer/plan/size_rules.hpp"

namespace rooflab {
namespace {

bool hasGlob(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

std::vector<std::string> variantNames(const FamilyManifest& family) {
  std::vector<std::string> names;
  for (const auto& v : family.variants) names.push_back(v.name);
  return names;
}

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
std::vector<const VariantSpec*> matchVariants(const FamilyManifest& family, const StudySpec& study,
                                              const std::string& at, std::vector<std::string>& input_errors) {
  std::vector<const VariantSpec*> variants;
  for (const auto& pattern : study.variants) {
    bool matched = false;
    for (const auto& v : family.variants)
      if (globMatch(pattern, v.name)) {
        matched = true;
        if (std::find(variants.begin(), variants.end(), &v) == variants.end()) variants.push_back(&v);
      }
    if (!matched)
      input_errors.push_back(
          at + ": " + (hasGlob(pattern) ? "pattern '" : "no variant '") + pattern +
          (hasGlob(pattern) ? "' matches no variant" : "'" + didYouMean(pattern, variantNames(family))));
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
    // An explicit number wins over a rule.
    study.size_rules.erase(std::remove_if(study.size_rules.begin(), study.size_rules.end(),
                                          [&](const SizeRuleSpec& rule) { return rule.param == o.name; }),
                           study.size_rules.end());
    auto same = [&](const auto& p) { return p.first == o.name; };
    auto it = std::find_if(study.params.begin(), study.params.end(), same);
    if (it == study.params.end()) study.params.emplace_back(o.name, o.values);
    else it->second = o.values;
  }
  return study;
}

// Where a study's family is, or an input error that says why it is not there.
const FamilyManifest* studiedFamily(const BatchPlan& plan, const FamilyDiscovery& found, const std::string& name,
                                    const std::string& at, std::vector<std::string>& input_errors) {
  for (const auto& f : plan.families)
    if (f.name == name) return &f;
  if (auto broken = found.broken.find(name); broken != found.broken.end()) {
    input_errors.insert(input_errors.end(), broken->second.begin(), broken->second.end());
    return nullptr;
  }
  std::vector<std::string> names;
  for (const auto& f : plan.families) names.push_back(f.name);
  input_errors.push_back(at + ": no family of that name in the kernel search path" + didYouMean(name, names) +
                         " (see `rooflab list`)");
  return nullptr;
}

// A broken manifest stops the batch only when a study names its family; the others are warnings.
void sortDiscoveryProblems(const BatchConfig& config, const FamilyDiscovery& found, BatchPlan& plan) {
  plan.warnings = found.warnings;
  auto isWhy = [](const std::vector<std::string>& why, const std::string& error) {
    return std::find(why.begin(), why.end(), error) != why.end();
  };
  for (const std::string& error : found.errors) {
    bool studied = true;
    for (const auto& [folder, why] : found.broken)
      if (isWhy(why, error)) {
        studied = false;
        for (const auto& study : config.studies) studied = studied || study.family == folder;
      }
    if (!studied) plan.warnings.push_back(error + " (no study names this family; skipped)");
    else if (std::none_of(found.broken.begin(), found.broken.end(),
                          [&](const auto& b) { return isWhy(b.second, error); }))
      plan.input_errors.push_back(error);
  }
}

void checkReferenceModel(const RunSettings& run, std::vector<std::string>& input_errors) {
  try {
    const std::vector<DeviceModel> models = loadDeviceModels();
    if (findDeviceModel(models, run.reference_model)) return;
    std::vector<std::string> keys;
    for (const auto& m : models) keys.push_back(m.key);
    input_errors.push_back("reference_model '" + run.reference_model + "' not found in " +
                           defaultDeviceModelDir().string() + didYouMean(run.reference_model, keys));
  } catch (const InputError& e) {
    input_errors.push_back(e.what());
  }
}

// The points a mode makes of a variant: one (no what-if) for normal and the mutants, one per declared
// what-if for "what-if" (none for a variant that declares none).
std::vector<const WhatIfSpec*> pointsOfMode(const VariantSpec& variant, RunMode mode) {
  if (mode != RunMode::what_if) return {nullptr};
  std::vector<const WhatIfSpec*> what_ifs;
  for (const WhatIfSpec& w : variant.what_ifs) what_ifs.push_back(&w);
  return what_ifs;
}

// How many points a study expands to, counted before it is expanded (a sweep of a million points is
// refused at once, not after planning it), saturating instead of overflowing.
double studyPointCount(const BatchConfig& config, const StudySpec& study,
                       const std::vector<const VariantSpec*>& variants) {
  double count = 0;
  const std::vector<RunMode>& modes = study.modes.empty() ? config.run.modes : study.modes;
  for (const VariantSpec* v : variants)
    for (RunMode mode : modes) count += static_cast<double>(pointsOfMode(*v, mode).size());
  for (const auto& [name, values] : study.params) count *= static_cast<double>(values.size());
  return count;
}

std::string formatCount(double count) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", count);
  return text;
}

// One of a study's rules with what it applies to: the study's variants at each combination of its
// other params (each other rule's param at its family default).
SizeRuleStudy ruleStudy(const StudySpec& study, const FamilyManifest& family,
                        const std::vector<const VariantSpec*>& variants, const SizeRuleSpec& rule,
                        std::size_t study_index) {
  return SizeRuleStudy{&family, variants, expandParams(family, study), &rule, study_index};
}

// Resolves the points of one study; a point that cannot be resolved for input reasons is an input
// error (once per message: the modes of a point fail alike).
void planStudy(const BatchConfig& config, const StudySpec& study, const FamilyManifest& family,
               const std::vector<const VariantSpec*>& variants, ArgumentChecker& arguments, BatchPlan& plan) {
  const std::vector<RunMode>& modes = study.modes.empty() ? config.run.modes : study.modes;
  for (const ParamValues& params : expandParams(family, study))
    for (const VariantSpec* v : variants)
      for (RunMode mode : modes)
        for (const WhatIfSpec* what_if : pointsOfMode(*v, mode)) {
          throwIfStopRequested("planning the batch");
          PlannedPoint planned = planPoint(RunPoint{&family, v, params, mode, what_if});
          if (planned.resolved) try {
              planned.resolved->end_to_end = planEndToEnd(study, *planned.resolved);
            } catch (const InputError& e) {
              planned.resolve_error = std::string("end_to_end: ") + e.what();
              planned.bad_input = true;
            }
          if (planned.resolved) {
            ArgumentProblems problems = arguments.check(family, *v, planned.resolved->program_options);
            for (std::string& e : problems.errors) plan.input_errors.push_back(std::move(e));
            for (std::string& w : problems.warnings) plan.warnings.push_back(std::move(w));
          }
          if (!planned.bad_input) {
            plan.points.push_back(std::move(planned));
            continue;
          }
          const std::string error = study.where.str() + ": study '" + family.name + "' at " +
                                    paramsLabel(params, family.param_order) + ": " + planned.resolve_error;
          if (std::find(plan.input_errors.begin(), plan.input_errors.end(), error) == plan.input_errors.end())
            plan.input_errors.push_back(error);
        }
}

}  // namespace

BatchPlan planBatch(const BatchConfig& config) {
  BatchPlan plan;
  FamilyDiscovery found = discoverFamilies(kernelSearchPath(config.run));
  plan.families = std::move(found.families);
  sortDiscoveryProblems(config, found, plan);
  checkReferenceModel(config.run, plan.input_errors);
  std::set<std::string> overrides_used;
  struct Expandable {
    StudySpec study;
    const FamilyManifest* family;
    std::vector<const VariantSpec*> variants;
  };
  std::vector<Expandable> studies;
  double point_count = 0;
  for (const auto& study_in : config.studies) {
    const std::string at = study_in.where.str() + ": study '" + study_in.family + "'";
    const FamilyManifest* family = studiedFamily(plan, found, study_in.family, at, plan.input_errors);
    if (!family) continue;
    const StudySpec study = withParamOverrides(study_in, *family, config.param_overrides, overrides_used);
    const std::size_t errors_before = plan.input_errors.size();
    for (const auto& [name, values] : study.params)
      if (!family->params.count(name))
        plan.input_errors.push_back(at + ": parameter '" + name + "' is not declared in " + family->path.string() +
                                    didYouMean(name, family->param_order));
    for (const SizeRuleSpec& rule : study.size_rules)
      if (!family->params.count(rule.param))
        plan.input_errors.push_back(rule.where.str() + ": study '" + family->name + "': parameter '" + rule.param +
                                    "' is not declared in " + family->path.string() +
                                    didYouMean(rule.param, family->param_order));
    const std::vector<const VariantSpec*> variants = matchVariants(*family, study, at, plan.input_errors);
    if (const std::string problem = endToEndStudyProblem(study, study.modes.empty() ? config.run.modes : study.modes);
        !problem.empty())
      plan.input_errors.push_back(at + ": " + problem);
    if (plan.input_errors.size() != errors_before) continue;
    for (const SizeRuleSpec& rule : study.size_rules) {
      const std::string problem = sizeRuleProblem(ruleStudy(study, *family, variants, rule, 0));
      if (!problem.empty())
        plan.input_errors.push_back(rule.where.str() + ": study '" + family->name + "': " + rule.param + ": " +
                                    problem);
    }
    if (plan.input_errors.size() != errors_before) continue;
    point_count += studyPointCount(config, study, variants);
    studies.push_back({study, family, variants});
  }
  if (point_count > static_cast<double>(config.run.max_points))
    plan.input_errors.push_back("the batch has " + formatCount(point_count) + " points, more than [run] max_points = " +
                                std::to_string(config.run.max_points) + "; narrow the sweep or raise max_points");
  else {
    ArgumentChecker arguments;
    for (const Expandable& e : studies) planStudy(config, e.study, *e.family, e.variants, arguments, plan);
  }
  // A name no studied family declares is a typo or the wrong config: nothing is run.
  for (const ParamOverride& o : config.param_overrides)
    if (!overrides_used.count(o.name))
      throw InputError("--set " + o.name + ": no studied family declares a parameter of that name");
  return plan;
}

bool hasSizeRules(const BatchConfig& config) {
  return std::any_of(config.studies.begin(), config.studies.end(),
                     [](const StudySpec& study) { return !study.size_rules.empty(); });
}

std::vector<SizeChoice> chooseSizes(const BatchConfig& config, const BatchPlan& plan, const SizeDevice& device) {
  std::vector<SizeChoice> choices;
  std::set<std::string> overrides_used;
  for (std::size_t i = 0; i < config.studies.size(); ++i) {
    const auto family = std::find_if(plan.families.begin(), plan.families.end(),
                                     [&](const FamilyManifest& f) { return f.name == config.studies[i].family; });
    if (config.studies[i].size_rules.empty() || family == plan.families.end()) continue;
    const StudySpec study = withParamOverrides(config.studies[i], *family, config.param_overrides, overrides_used);
    std::vector<std::string> unused_errors;  // the plan found them already
    const std::vector<const VariantSpec*> variants = matchVariants(*family, study, "", unused_errors);
    if (variants.empty()) continue;
    for (const SizeRuleSpec& rule : study.size_rules)
      choices.push_back(chooseRuleSize(ruleStudy(study, *family, variants, rule, i), device));
  }
  return choices;
}

BatchConfig withChosenSizes(BatchConfig config, const std::vector<SizeChoice>& choices) {
  for (const SizeChoice& choice : choices) {
    StudySpec& study = config.studies.at(choice.study_index);
    study.size_rules.erase(std::remove_if(study.size_rules.begin(), study.size_rules.end(),
                                          [&](const SizeRuleSpec& rule) { return rule.param == choice.rule.param; }),
                           study.size_rules.end());
    study.params.emplace_back(choice.rule.param, choice.values);
  }
  return config;
}

}  // namespace rooflab
