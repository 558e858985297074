// A what-if's names, as manifests and results files spell them.
#include "analyzer/data/what_if.hpp"

#include "analyzer/support/format.hpp"

namespace rooflab {

std::string toString(WhatIfComparison comparison) {
  switch (comparison) {
    case WhatIfComparison::to: return "to";
    case WhatIfComparison::below: return "below";
    case WhatIfComparison::ratio_below: return "ratio_below";
  }
  return "?";
}

std::optional<WhatIfComparison> parseWhatIfComparison(std::string_view text) {
  for (WhatIfComparison c : {WhatIfComparison::to, WhatIfComparison::below, WhatIfComparison::ratio_below})
    if (toString(c) == text) return c;
  return std::nullopt;
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

std::string toString(WhatIfCheck check) {
  switch (check) {
    case WhatIfCheck::met: return "met";
    case WhatIfCheck::failed: return "failed";
    case WhatIfCheck::not_checked: return "not_checked";
  }
  return "?";
}

std::optional<WhatIfCheck> parseWhatIfCheck(std::string_view text) {
  for (WhatIfCheck c : {WhatIfCheck::met, WhatIfCheck::failed, WhatIfCheck::not_checked})
    if (toString(c) == text) return c;
  return std::nullopt;
}

}  // namespace rooflab
