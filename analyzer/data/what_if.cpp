// A what-if's names, as manifests and results files spell them.
#include "analyzer/data/what_if.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<WhatIfComparison> kWhatIfComparisonNames[] = {
    {WhatIfComparison::to, "to"},
    {WhatIfComparison::below, "below"},
    {WhatIfComparison::ratio_below, "ratio_below"},
};

std::string toString(WhatIfComparison comparison) { return nameOf(kWhatIfComparisonNames, comparison); }

std::optional<WhatIfComparison> parseWhatIfComparison(std::string_view text) {
  return valueOf(kWhatIfComparisonNames, text);
}

constexpr EnumName<WhatIfCheck> kWhatIfCheckNames[] = {
    {WhatIfCheck::met, "met"},
    {WhatIfCheck::failed, "failed"},
    {WhatIfCheck::not_checked, "not_checked"},
};

std::string toString(WhatIfCheck check) { return nameOf(kWhatIfCheckNames, check); }

std::optional<WhatIfCheck> parseWhatIfCheck(std::string_view text) { return valueOf(kWhatIfCheckNames, text); }

constexpr EnumName<WhatIfCheckBasis> kWhatIfCheckBasisNames[] = {
    {WhatIfCheckBasis::counters_compared, "counters_compared"},
    {WhatIfCheckBasis::no_expectation, "no_expectation"},
    {WhatIfCheckBasis::what_if_did_not_run, "what_if_did_not_run"},
    {WhatIfCheckBasis::original_missing, "original_missing"},
    {WhatIfCheckBasis::no_counters, "no_counters"},
    {WhatIfCheckBasis::counter_missing, "counter_missing"},
    {WhatIfCheckBasis::original_counter_zero, "original_counter_zero"},
};

std::string toString(WhatIfCheckBasis basis) { return nameOf(kWhatIfCheckBasisNames, basis); }

std::optional<WhatIfCheckBasis> parseWhatIfCheckBasis(std::string_view text) {
  return valueOf(kWhatIfCheckBasisNames, text);
}

constexpr EnumName<WhatIfRecordRole> kWhatIfRecordRoleNames[] = {
    {WhatIfRecordRole::original, "original"},
    {WhatIfRecordRole::what_if, "what_if"},
    {WhatIfRecordRole::realisation, "realisation"},
};

std::string toString(WhatIfRecordRole role) { return nameOf(kWhatIfRecordRoleNames, role); }

std::optional<WhatIfRecordRole> parseWhatIfRecordRole(std::string_view text) {
  return valueOf(kWhatIfRecordRoleNames, text);
}

constexpr EnumName<WhatIfGainBlock> kWhatIfGainBlockNames[] = {
    {WhatIfGainBlock::not_run, "not_run"},           {WhatIfGainBlock::run_ended, "run_ended"},
    {WhatIfGainBlock::no_median, "no_median"},       {WhatIfGainBlock::verification_failed, "verification_failed"},
    {WhatIfGainBlock::not_verified, "not_verified"},
};

std::string toString(WhatIfGainBlock block) { return nameOf(kWhatIfGainBlockNames, block); }

std::optional<WhatIfGainBlock> parseWhatIfGainBlock(std::string_view text) {
  return valueOf(kWhatIfGainBlockNames, text);
}

}  // namespace rooflab
