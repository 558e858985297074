#pragma once
// Building the variants' OpenCL programs: the source the compiler gets, the options of each mode,
// and one cache of built programs for the whole batch.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "analyzer/support/cl.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/run/nvidia_build.hpp"
#include "analyzer/run/program_builds.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/data/run_record.hpp"
#include "mutators/auto_mutation.hpp"

namespace rooflab {

// The source handed to the OpenCL compiler: the prelude, then the kernel file with #line so that
// build logs point at the user's file and line.
std::string composeKernelSource(const std::string& file_text, const std::string& file_name);

// A mutant of an unannotated kernel that the rewriter could not make: the point is skipped, with why.
class MutantUnavailable : public VariantError {
 public:
  using VariantError::VariantError;
};

// Programs cached by (source file, options, padded kernels); built on background threads when
// queued (ProgramBuilds), else on the calling thread.
// The options a point's program is built with, but for the device's own (NVIDIA's verbose build).
std::string programOptions(const ResolvedPoint& point, RunMode mode);

// What the rewriter is given for an automatic mutant of `variant` in `mode` (compute-only or
// memory-only), built with `options`, on a device with `device_extensions` (empty: all).
AutoMutationRequest automaticMutationRequest(const VariantSpec& variant, RunMode mode, const std::string& options,
                                             std::vector<std::string> device_extensions);

class VariantPrograms {
 public:
  VariantPrograms(const cl::Context& context, const SelectedDevice& device, const RunSettings& settings);

  // "-D RL_MODE=<mode>", then the point's defines and build options (and NVIDIA's register log).
  std::string options(const ResolvedPoint& point, RunMode mode) const;

  // Starts building, in the background and in this order, the programs that these points will
  // need. Optional: build() builds whatever was not queued itself.
  void queue(const std::vector<const PlannedPoint*>& points);
  int backgroundThreads() const { return builds_->threads(); }
  bool backgroundIdle() { return builds_->idle(); }

  // The point's variant built with `options`, a compute-only mutant's launched kernels taking the
  // key (mutators/mutant_key.hpp), with the occupancy pad parameter added to the kernels in
  // `pad_kernels`. Sets the record's build seconds; a failed build sets its build log and throws
  // VariantError. A mutant of an unannotated variant is its automatic mutant (the record gets its
  // source check, with the global bytes its accesses reach at the resolved point's sizes), or
  // MutantUnavailable when there is none.
  cl::Program build(const ResolvedPoint& point, const std::string& options, RunRecord& record,
                    const std::set<std::string>& pad_kernels = {});
  cl::Program build(const RunPoint& point, const std::string& options, RunRecord& record,
                    const std::set<std::string>& pad_kernels = {});

  // OpenCL's registers per kernel for a program with this PTX (NVIDIA), or nullptr.
  const std::map<std::string, int>* openclRegisters(const std::string& ptx) const { return registers_.find(ptx); }

 private:
  static std::string key(const RunPoint& point, const std::string& options);
  // The point's automatic mutant, made once per (source, options); throws MutantUnavailable.
  const AutoMutant& automaticMutant(const RunPoint& point, const std::string& options);
  // An annotated mutant's changed lines (annotated_lines.hpp), found once per files and mode.
  const std::vector<MutantLineChange>& annotatedLines(const RunPoint& point);
  cl::Program buildProgram(const RunPoint& point, const ResolvedPoint* resolved, const std::string& options,
                           RunRecord& record, const std::set<std::string>& pad_kernels);
  void keepMutantSource(const std::string& program, const RunPoint& point, const std::string& options) const;
  void keepBinary(const cl::Program& program, const RunPoint& point, const std::string& options) const;

  cl::Context context_;
  SelectedDevice device_;
  std::string binaries_dir_;                    // where each built program's binary is kept; empty: nowhere
  std::vector<std::string> device_extensions_;  // CL_DEVICE_EXTENSIONS, read once
  std::map<std::string, cl::Program> programs_;
  std::map<std::string, PreprocessedSource> expansions_;  // by sources and preprocessor options
  std::map<std::string, AutoMutant> automatic_mutants_;
  std::map<std::string, std::vector<MutantLineChange>> annotated_lines_;  // by sources and mode
  nvidia::RegisterLog registers_;
  std::unique_ptr<ProgramBuilds> builds_;  // declared last: destroyed (threads joined) first
};

}  // namespace rooflab
