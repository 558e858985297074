#pragma once
// What part of a batch a document holds, in words for every report: a part run says which part of how
// many it is; a merged document says which parts it joined and which it lacks. A whole run says nothing.
#include <string>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// "part 2 of 3 of batch 0123456789abcdef (--shard 2/3): 4 of its 12 points; `rooflab merge` joins the
// parts", "merged from parts 1 and 3 of 3 of batch ...; part 2 is missing (`rooflab run --shard 2/3`,
// then merge again); 2 points of the parts given have no record", or "" for a whole run.
std::string batchPartText(const AnalysedResults& results);

}  // namespace rooflab::reports
