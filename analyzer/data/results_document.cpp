#include "analyzer/data/results_document.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<BatchStatus> kBatchStatusNames[] = {
    {BatchStatus::running, "running"},         {BatchStatus::complete, "complete"},
    {BatchStatus::interrupted, "interrupted"}, {BatchStatus::timed_out, "timed_out"},
    {BatchStatus::incomplete, "incomplete"},
};

std::string toString(BatchStatus status) { return nameOf(kBatchStatusNames, status); }

std::optional<BatchStatus> parseBatchStatus(std::string_view text) { return valueOf(kBatchStatusNames, text); }

constexpr EnumName<RooflineModelRole> kRooflineModelRoleNames[] = {
    {RooflineModelRole::reference, "reference"},
    {RooflineModelRole::measured, "measured"},
    {RooflineModelRole::datasheet, "datasheet"},
};

std::string toString(RooflineModelRole role) { return nameOf(kRooflineModelRoleNames, role); }

std::optional<RooflineModelRole> parseRooflineModelRole(std::string_view text) {
  return valueOf(kRooflineModelRoleNames, text);
}

AnalysedResults::AnalysedResults(const ResultsDocument& document) : ResultsHeader(document) {
  records.reserve(document.records.size());
  for (std::size_t i = 0; i < document.records.size(); ++i)
    records.emplace_back(document.records[i], conclusionsOf(document.analysis, i));
}

}  // namespace rooflab
