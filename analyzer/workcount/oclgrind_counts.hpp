#pragma once
// A launch's work counted by oclgrind (docs/work-counts.md): a program that makes the launch runs
// under `oclgrind --inst-counts`, whose per-launch histogram of executed instructions is read back
// and turned into flops and global memory accesses by one stated rule, scaled from the work-groups
// that ran to the whole launch.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/work_count.hpp"

namespace rooflab {

// The oclgrind executable on the PATH, or nullopt when it is not installed.
std::optional<std::string> findOclgrind();

// What `oclgrind --inst-counts COMMAND...` printed (its histograms are on stdout, with the program's
// own output) and how it ended.
struct OclgrindRun {
  std::string output;  // stdout and stderr together
  int exit_code = 0;
  bool timed_out = false;
};

// Runs `command` under `oclgrind --inst-counts`, killed after `timeout_s`. Throws std::runtime_error
// when oclgrind is not installed or cannot be started.
OclgrindRun runUnderOclgrind(const std::vector<std::string>& command, double timeout_s);

// Every "Instructions executed for kernel 'K':" block of `output`, one per launch, in order.
std::vector<LaunchInstructionCounts> parseOclgrindInstCounts(const std::string& output);

// The work of one launch by the rule: fadd, fsub, fmul, fdiv, frem and fneg are one flop, fma, mad
// and llvm.fmuladd two, each times the lanes its name shows (llvm.fmuladd.v4f32, Dv4_); loads and
// stores in the global address space are one element access each, a vloadN or vstoreN of global
// memory N, with their bytes. `counted_work_groups` of `total_work_groups` ran: the totals scale by
// total / counted.
MeasuredWork measuredWork(const LaunchInstructionCounts& counts, std::uint64_t counted_work_groups,
                          std::uint64_t total_work_groups);

// The lines a family.toml gets for a launch whose manifest said flops = "unmeasured":
//   # counted by oclgrind --inst-counts, scaled from K of N work-groups
//   flops = "<n>"
//   global_accesses = "<n>"
//   bytes = "<n>"
std::string familyWorkToml(const MeasuredWork& work);

}  // namespace rooflab
