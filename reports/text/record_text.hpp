#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/data/analysis.hpp"

// How parts of a record read in every report.
namespace rooflab::reports {

// One parameter value as the results file writes it: whole numbers exactly ("1024"), others so
// that they read back as the same double ("0.5").
std::string paramValueText(double value);
// "N=1024, TS=16" (separator ", ") or "N=1024;TS=16" (CSV). Names follow the record's param_order
// (the manifest's order) where it has one, then the rest alphabetically.
std::string recordParamsText(const RunRecord& record, std::string_view separator = ", ");
// The same of params in `order` first, then the rest by name.
std::string paramsText(const ParamValues& params, const std::vector<std::string>& order,
                       std::string_view separator = ", ");
// "passed (rel. err 1.7e-07)", "FAILED (rel. err 0.41, 49152 wrong)", "reference", "not checked".
std::string verificationText(const RunRecord& record);
// How well the median kernel time is known, for records measured to a noise target:
// "±1.2% (95% interval), converged", "±14% (95% interval), NOT converged", "" for older records.
std::string noiseText(const RunRecord& record);
// Whether a record was measured to a noise target and missed it.
bool missedNoiseTarget(const RunRecord& record);
// "unplaced: work not measured" when the record has no position on the roofline (its DRAM
// placement on a model is unplaced: docs/manifest.md, "Work that is not known"); nullopt otherwise.
std::optional<std::string> unplacedText(const AnalysedRecord& record);
// The first line of an error, for places with room for one line only.
std::string firstLine(std::string_view text);

}  // namespace rooflab::reports
