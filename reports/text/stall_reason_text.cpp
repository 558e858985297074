#include "reports/text/stall_reason_text.hpp"

#include <optional>
#include <utility>

#include "analyzer/data/diagnosis.hpp"

namespace rooflab::reports {
namespace {

constexpr std::string_view kCuptiStallPrefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::string_view kNotIssuedSuffix = "_not_issued";

struct KnownStall {
  std::string_view reason;
  std::string_view name;
  std::string_view waiting_on;
  std::string_view meaning;
  std::string_view group;  // for the reasons without a hot-line cause
};

// OpenCL's local memory is CUDA's shared memory, and CUDA's local memory is OpenCL's private memory
// when it spills: the words say both where a reader of either could be misled.
constexpr KnownStall kKnownStalls[] = {
    {"long_scoreboard", "long scoreboard", "waiting on global loads",
     "The warp needs the result of a global, private (spilled) or image load that has not arrived; more loads in "
     "flight per work-item, coalesced accesses or data reused from local memory or registers usually help.",
     ""},
    {"short_scoreboard", "short scoreboard", "waiting on a local-memory or special-function result",
     "The warp needs the result of a local (CUDA shared) memory access or of a special function such as sqrt or "
     "exp; fewer local-memory accesses, no bank conflicts or fewer special functions usually help.",
     ""},
    {"barrier", "barrier", "waiting at a work-group barrier",
     "The warp has reached a barrier and waits for the rest of its work-group; even work before the barrier, fewer "
     "barriers or smaller work-groups usually help.",
     ""},
    {"membar", "membar", "waiting on a memory fence",
     "The warp waits until its earlier memory operations are visible as a fence requires; fewer fences, or a "
     "narrower scope (work-group rather than device), usually help.",
     ""},
    {"mio_throttle", "MIO throttle", "waiting for the local-memory and special-instruction queue",
     "The queue of local (CUDA shared) memory, special-function and other MIO instructions is full; fewer and "
     "wider local-memory accesses, or fewer bank conflicts, usually help.",
     ""},
    {"lg_throttle", "LG throttle", "waiting for the global-memory instruction queue",
     "The queue of global and private-memory instructions is full; fewer, wider accesses (vector loads) or fewer "
     "register spills usually help.",
     ""},
    {"tex_throttle", "TEX throttle", "waiting for the texture unit's queue",
     "The texture (image) unit takes no more requests; fewer image reads, or reading buffers instead, usually "
     "help.",
     ""},
    {"math_pipe_throttle", "math pipe throttle", "waiting for a busy math pipeline",
     "The arithmetic pipeline the next instruction needs is busy: the line computes at that pipeline's rate; "
     "cheaper operations or a mix spread over several pipelines help.",
     "issue"},
    {"wait", "wait", "waiting on a fixed-latency result",
     "The next instruction depends on one that takes a fixed number of cycles; more independent work between "
     "dependent instructions, or more warps, usually hides it.",
     ""},
    {"not_selected", "not selected", "ready, but another warp issued",
     "The warp could have issued but the scheduler chose another: there are enough ready warps, and this is not "
     "a stall to remove.",
     "issue"},
    {"selected", "selected", "issuing an instruction",
     "The warp issued in the sampled cycle: the line is doing work, and only fewer instructions make it faster.",
     "issue"},
    {"no_instructions", "no instructions", "waiting for instructions to be fetched",
     "The warp's next instructions are not in the instruction cache yet; smaller code (less unrolling or "
     "inlining) usually helps.",
     "fetch"},
    {"branch_resolving", "branch resolving", "waiting for a branch target",
     "The warp waits for a branch's target or its divergence to be worked out; fewer or uniform branches usually "
     "help.",
     "fetch"},
    {"dispatch_stall", "dispatch stall", "held back at dispatch",
     "The instruction was chosen but the dispatcher could not send it on; this is rare and seldom something the "
     "code can change.",
     "issue"},
    {"drain", "drain", "waiting for its stores to drain at exit",
     "The warp has finished and waits until its last stores have left; fewer or better coalesced final stores "
     "help.",
     ""},
    {"imc_miss", "IMC miss", "waiting on a constant-cache miss",
     "The warp reads constant memory that is not cached yet; a small __constant block, or one address per warp, "
     "usually helps.",
     "fetch"},
    {"sleeping", "sleeping", "asleep",
     "Every thread of the warp is asleep or waiting for its other threads; this seldom arises in OpenCL code.",
     "other"},
    {"gmma", "GMMA", "waiting on a warp-group matrix operation",
     "The warp waits for the warp group's matrix multiply-accumulate instructions to be ready; this arises in "
     "tensor-core code, not in plain OpenCL.",
     "other"},
    {"misc", "misc", "stalled for a reason the hardware does not name",
     "The hardware names no more specific reason; the line's other stall reasons say more.", "other"},
};

const KnownStall* knownStall(std::string_view reason) {
  for (const KnownStall& stall : kKnownStalls)
    if (stall.reason == reason) return &stall;
  return nullptr;
}

// The reason without CUPTI's prefix and without its "_not_issued" suffix, and whether it had one.
std::pair<std::string_view, bool> bareReason(std::string_view reason) {
  if (reason.substr(0, kCuptiStallPrefix.size()) == kCuptiStallPrefix) reason.remove_prefix(kCuptiStallPrefix.size());
  const bool not_issued = reason.size() > kNotIssuedSuffix.size() &&
                          reason.substr(reason.size() - kNotIssuedSuffix.size()) == kNotIssuedSuffix;
  if (not_issued) reason.remove_suffix(kNotIssuedSuffix.size());
  return {reason, not_issued};
}

}  // namespace

StallReasonWords stallReasonWords(std::string_view reason) {
  const auto [bare, not_issued] = bareReason(reason);
  const KnownStall* known = knownStall(bare);
  if (known == nullptr) return {std::string(reason), "", ""};
  return {std::string(known->name) + (not_issued ? " (not issued)" : ""), std::string(known->waiting_on),
          std::string(known->meaning)};
}

std::string stallReasonGroup(std::string_view reason) {
  const std::string_view bare = bareReason(reason).first;
  if (const std::optional<HotLineCause> cause = causeOfStall(bare)) return toString(*cause);
  const KnownStall* known = knownStall(bare);
  return known != nullptr && !known->group.empty() ? std::string(known->group) : "other";
}

}  // namespace rooflab::reports
