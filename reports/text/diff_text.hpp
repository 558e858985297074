#pragma once
// The words of `rooflab diff` beside its table: a point's name, the warnings and the refusals of a
// RunComparison (analyzer/data/run_comparison.hpp).
#include <string>

#include "analyzer/data/run_comparison.hpp"

namespace rooflab::reports {

// "+12.5%", "-3.0%": a relative change.
std::string signedPercent(double change);
// 0.05 -> "0.05", 20 -> "20": a setting as the user typed it.
std::string settingText(double value);
// "N=1024, TS=16"
std::string pointParamsText(const PointKey& key);
// "matmul/tiled16 N=1024 (normal)", "... (what-if no-bank-conflicts)"
std::string pointKeyText(const PointKey& key);
// "the runs were made on different devices: OLD ran on ...", "NEW ran on a noisy host: ..."
std::string warningText(const ComparisonWarning& warning);
// "the runs were made on different devices: ...", "nothing to compare: ..."
std::string refusalText(const ComparisonRefusal& refusal);

}  // namespace rooflab::reports
