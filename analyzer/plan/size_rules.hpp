#pragma once
// Size rules (docs/config.md, "Size rules"): a study param given as `"fill"` gets the smallest size
// that fills the device that runs it: enough work-groups for several waves on every compute unit,
// a kernel time well above a launch's latency at the device's roofs, within its allocation limit
// and a share of its memory, and rounded to a size that every studied variant accepts (the checks
// that plan every point). The rule's own mistakes are input errors found before any device work
// (sizeRuleProblems); the choice needs the device and is made once it is open (chooseRuleSize).
#include <string>
#include <vector>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/size_choice.hpp"

namespace rooflab {

// The sizes a rule chooses among, ascending, within [low, high]: 1, 2, 3, then 4, 5, 6 and 7 times
// each power of two (each at most 25% above the last), so that a chosen size stays round.
std::vector<double> sizeCandidates(double low, double high);

// What a rule needs of the device, read once it is open.
struct SizeDevice {
  DeviceInfo info;
  const DeviceModel* roofs = nullptr;  // the device's roofs: measured, else its datasheet; null: none known
  std::string roofs_name;              // "measured" or "datasheet"
};

// One study's rule with what it applies to: `points` are the study's other params (each
// combination of its sweep, family defaults beneath), without the rule's param.
struct SizeRuleStudy {
  const FamilyManifest* family = nullptr;
  std::vector<const VariantSpec*> variants;
  std::vector<ParamValues> points;
  const SizeRuleSpec* rule = nullptr;
  std::size_t study_index = 0;
};

// Why the rule can never be met, whatever the device (no size within its bounds that every studied
// variant accepts); "" when it can.
std::string sizeRuleProblem(const SizeRuleStudy& study);

// The rule's size on this device, and why. Throws InputError (naming the study) when no size that
// every variant accepts fits the device's memory.
SizeChoice chooseRuleSize(const SizeRuleStudy& study, const SizeDevice& device);

}  // namespace rooflab
