#pragma once
// A kernel launch's work counted from its execution, not from a formula (docs/work-counts.md): the
// instructions oclgrind's simulator executed for one launch, and the floating-point operations and
// global memory accesses they make by rooflab's rule, scaled from the work-groups that ran to the
// whole launch. Types and their names only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

// One line of `oclgrind --inst-counts`: an instruction ("fadd", "call _Z3fmafff()", "load global")
// and how many times it executed; loads and stores carry the bytes they moved.
struct InstructionCount {
  std::string instruction;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
};

// The histogram of one launch, as oclgrind printed it for the kernel.
struct LaunchInstructionCounts {
  std::string kernel;
  std::vector<InstructionCount> instructions;
};

struct MeasuredWork {
  std::string kernel;
  // As counted over the work-groups that ran.
  double counted_flops = 0;
  std::uint64_t counted_global_loads = 0;  // element accesses (a vloadN call counts N)
  std::uint64_t counted_global_stores = 0;
  std::uint64_t counted_global_load_bytes = 0;
  std::uint64_t counted_global_store_bytes = 0;
  // The launch counted K of its N work-groups; the totals below are the counts times N / K.
  std::uint64_t counted_work_groups = 0;
  std::uint64_t total_work_groups = 0;
  double flops = 0;
  double global_accesses = 0;
  double bytes = 0;
  // The kernel called get_global_size or get_num_groups: in a launch cut to fewer work-groups its
  // work-items may do other work than in the whole launch, so scaled counts are in doubt.
  bool reads_launch_size = false;
  // Floating-point calls the rule does not count as flops (sqrt, exp, ...): said, not guessed.
  std::vector<InstructionCount> uncounted_calls;
};

// A captured family's launch counted after the capture (docs/capture.md, "Work counts"): its work,
// or why it stays "unmeasured".
struct FamilyWorkCount {
  std::string family;
  std::optional<MeasuredWork> work;
  std::string unmeasured_reason;  // with no work: oclgrind missing, timed out, the launch failed
  double wall_s = 0;              // the time the count took
};

}  // namespace rooflab
