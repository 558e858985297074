#pragma once
// `rooflab merge`: the parts of one batch (`rooflab run --shard I/N`, run anywhere: a Slurm job
// array's tasks) joined into one results document, as one run of the whole batch would have made it.
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

struct PartDocument {
  std::string path;  // as the user named it, for messages
  ResultsDocument document;
  // The pid of the run still writing the part's folder (it holds the folder's lock): its missing
  // points are still to come, not lost.
  std::optional<std::string> running_pid = std::nullopt;
};

struct MergeOutcome {
  ResultsDocument merged;
  std::vector<std::string> messages;  // missing parts and points, duplicates: a line each
  ExitCode exit_code = ExitCode::ok;  // variant_failed when a record failed or a point is missing
};

// Joins the parts: every record once, in plan order, with the document's header (config, device,
// models) from the lowest part and its summary counted over the records; the what-ifs analysed again
// (a what-if's realised_by variant may have run in another part). A point no part has a record of
// makes the document `incomplete` and the outcome say which; a record two parts hold is kept from
// the first named and reported. Throws InputError (exit 2) for a part without a batch identity and
// for parts of different batches, of different splits (N) or run on different devices.
MergeOutcome mergeParts(const std::vector<PartDocument>& parts);

}  // namespace rooflab
