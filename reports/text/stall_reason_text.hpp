#pragma once
// A warp stall reason of CUPTI's PC sampling in words: the name the CUDA profiler shows, what the
// sampled warp was waiting on, and what that usually means for the code.
#include <string>
#include <string_view>

namespace rooflab::reports {

struct StallReasonWords {
  std::string name;        // "long scoreboard"; for a reason this table lacks, the reason as given
  std::string waiting_on;  // "waiting on global loads"; empty for an unknown reason
  std::string meaning;     // one sentence: what it means and what usually helps; empty for an unknown reason
};

// `reason` as CUPTI names it, with or without its "smsp__pcsamp_warps_issue_stalled_" prefix
// ("long_scoreboard"); a "_not_issued" variant is said as its reason, "(not issued)" added to the name.
StallReasonWords stallReasonWords(std::string_view reason);

// What colours a reason in the source view: "memory", "dependency", "synchronisation" (the causes a
// diagnosis's hot line names, data/diagnosis.hpp), "issue" (the warp issued, or could have, or a math
// pipe was busy), "fetch" (instructions or a branch target not ready) or "other".
std::string stallReasonGroup(std::string_view reason);

}  // namespace rooflab::reports
