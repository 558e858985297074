#pragma once
// What a point's end-to-end runs conclude (docs/end-to-end.md): each run's prediction from the link
// and launch ceilings and the bound of the whole, the overlap what-if of each chunk count, and the
// best strategy with what it wins over the worst.
#include "analyzer/data/run_record.hpp"
#include "analyzer/diagnose/end_to_end_model.hpp"

namespace rooflab {

// The predictions, bounds, overlap what-ifs and verdict of a record's end-to-end runs (`record` has
// end_to_end). Runs whose ceilings are missing get no prediction, and their basis says why.
EndToEndAnalysis analyseEndToEnd(const RunRecord& record, const EndToEndCeilings& ceilings);

}  // namespace rooflab
