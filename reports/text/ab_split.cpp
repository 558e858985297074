#include "reports/text/ab_split.hpp"

#include <stdexcept>

namespace rooflab::reports {

std::pair<ResultsDocument, ResultsDocument> splitAbRun(const ResultsDocument& ab_run) {
  if (!ab_run.ab) throw std::invalid_argument("not an A/B run's results (it has no \"ab\"; `rooflab ab` writes one)");
  ResultsDocument sides[2];
  for (ResultsDocument& side : sides) {
    side = ab_run;
    side.records.clear();
    side.analysis.records.clear();
    side.ab.reset();
    side.summary.reset();
    side.cost.reset();
  }
  for (std::size_t i = 0; i < ab_run.records.size(); ++i) {
    const RunRecord& record = ab_run.records[i];
    if (!record.ab_side) continue;
    RunRecord copy = record;
    copy.ab_side.reset();
    ResultsDocument& side = sides[*record.ab_side == AbSide::baseline ? 0 : 1];
    side.records.push_back(std::move(copy));
    side.analysis.records.push_back(conclusionsOf(ab_run.analysis, i));
  }
  if (ab_run.ab->candidate_config) sides[1].config = ab_run.ab->candidate_config;
  for (const ResultsDocument& side : sides)
    if (side.records.empty()) throw std::invalid_argument("the A/B run has no record of one side");
  return {std::move(sides[0]), std::move(sides[1])};
}

}  // namespace rooflab::reports
