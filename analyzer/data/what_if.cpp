// A what-if's names, as manifests and results files spell them.
#include "analyzer/data/what_if.hpp"

#include "analyzer/support/enum_names.hpp"

#include "analyzer/support/format.hpp"

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

std::string describe(const WhatIfExpectation& expectation) {
  const std::string value = formatNumber(expectation.value);
  switch (expectation.comparison) {
    case WhatIfComparison::to: return expectation.counter + " to " + value;
    case WhatIfComparison::below: return expectation.counter + " below " + value;
    case WhatIfComparison::ratio_below: return expectation.counter + " below " + value + " x the original's";
  }
  return expectation.counter;
}

constexpr EnumName<WhatIfCheck> kWhatIfCheckNames[] = {
    {WhatIfCheck::met, "met"},
    {WhatIfCheck::failed, "failed"},
    {WhatIfCheck::not_checked, "not_checked"},
};

std::string toString(WhatIfCheck check) { return nameOf(kWhatIfCheckNames, check); }

std::optional<WhatIfCheck> parseWhatIfCheck(std::string_view text) { return valueOf(kWhatIfCheckNames, text); }

}  // namespace rooflab
