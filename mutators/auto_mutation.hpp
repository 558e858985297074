#pragma once
// Automatic mutants of unannotated OpenCL C: the kernel program, preprocessed by clang and parsed
// with libclang, is rewritten into a compute-only or a memory-only mutant by textual edits over the
// parse's source ranges. The rewritten text is parsed again and its census checked against the original's, so a
// rewrite that would give a wrong mutant gives none, with the reason. docs/manifest.md, "Automatic
// mutants", says what each mutant keeps and what the rewriter declines.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/data/source_lines.hpp"
#include "mutators/opencl_preprocess.hpp"

namespace rooflab {

enum class AutoMutantKind { compute_only, memory_only };

// Whether this build can make automatic mutants, and why not ("built without libclang").
bool automaticMutantsAvailable();
std::string automaticMutantsOffReason();

// What the rewriter counts in a program, statically (each access or operation once, however often
// it runs), over the functions the launched kernels reach: the quantities a mutant must keep or lose.
struct SourceCensus {
  int global_loads =
      0;  // reads of global or constant memory (subscript, *, ->, a member or lane, vloadN, async copy in)
  int global_stores = 0;   // writes (=, op=, ++/--, vstoreN, async copy out)
  int global_atomics = 0;  // atomic read-modify-writes of global memory
  int float_ops = 0;       // floating-point + - * / (compound too) and math built-ins (fma, sqrt, dot, ...)
  int int_ops = 0;         // integer + - * / % & | ^ << >> (compound too)
  // The computation's structure: what decides an address, a branch, a loop bound or an integer
  // divisor. Its loads stay in the compute-only mutant, its operations in the memory-only one.
  int structure_loads = 0;
  int structure_float_ops = 0;
  int structure_int_ops = 0;
};

struct AutoMutationRequest {
  std::string source_text;    // the variant's program, as joined for the compiler
  std::string source_path;    // its first file's path: names it in messages; its folder is on the include path
  std::string source_folder;  // the family folder: the mutant's changed lines name headers under it relative to it
  std::vector<std::string>
      build_options;                 // the point's compiler options; -D, -U, -I and -cl-std reach the preprocessor
  std::vector<std::string> kernels;  // the kernels the variant launches (empty: every function)
  // For each launch, the buffer each argument is bound to ("" for a scalar or local one): a buffer
  // one launch writes and another reads as an address or a bound joins their kernels' structure.
  std::vector<std::vector<std::string>> kernel_buffers;
  std::vector<std::string> device_extensions;  // the device's extensions, for `#ifdef cl_khr_fp64` (empty: all)
  AutoMutantKind kind = AutoMutantKind::compute_only;
};

// Which arguments of one launched kernel its global accesses reach (argument indices, through
// helpers' parameters and pointer variables), as found in the original program: with a point's
// buffers they give bytes (each element once per launch).
struct KernelArgumentTraffic {
  std::set<int> loaded;       // read by the original's global loads
  std::set<int> kept_loaded;  // of those, read by the loads of the structure (compute-only keeps them)
  std::set<int> stored;       // written by its global stores, atomics and copies out
};

struct AutoMutant {
  AutoMutantKind kind = AutoMutantKind::compute_only;
  std::optional<std::string> source;  // the mutant's program (without any prelude); nullopt: none
  std::string reason;                 // why there is none
  // memory-only: set when the mutant is the kernel as written, because every operation decides an
  // address, a branch, a loop bound or a divisor: there is no arithmetic to remove, so the kernel's
  // own time is its memory-only time. Says where the first such floating-point operation is.
  std::string same_as_original;
  SourceCensus original;
  SourceCensus mutant;
  bool double_helpers = false;  // the mutant calls the prelude's double helpers
  // By launched kernel name; empty with `traffic_untraced` set when an access reaches memory
  // through a pointer that is not traced to a kernel argument.
  std::map<std::string, KernelArgumentTraffic> traffic;
  std::string traffic_untraced;  // "file:line: ..." of the first access not traced
  // The lines of the user's files the mutant changes, and how (empty when there is no mutant):
  // each edit's kind at the line its begin maps to through the preprocessed program's line
  // directives, named as SourceFileText names files (mutators/mutant_lines.hpp).
  std::vector<MutantLineChange> line_changes;
};

// The options the preprocessor gets for a request: its build options with rooflab's RL_MODE define
// set to normal, so that both mutants rewrite the program as the original is compiled and can share
// one preprocessing.
std::vector<std::string> preprocessorOptions(const std::vector<std::string>& build_options);
// The request's program preprocessed with those options (opencl_preprocess.hpp); its kind is not read.
PreprocessedSource expandForMutation(const AutoMutationRequest& request);

// The mutant of `request.kind`, or none with the reason: the program is preprocessed with the
// point's options (or `expanded`, expandForMutation's result for the same program and options),
// the preprocessed text rewritten, parsed again and counted.
AutoMutant mutateAutomatically(const AutoMutationRequest& request);
AutoMutant mutateAutomatically(const AutoMutationRequest& request, const PreprocessedSource& expanded);
std::string_view automaticMutantPrelude();
// What the OpenCL compiler builds for a mutant: prelude.cl, the automatic prelude, the mutant.
std::string automaticMutantProgram(const AutoMutant& mutant);

// Splits a compiler option string into words, as the OpenCL compiler reads it.
std::vector<std::string> splitBuildOptions(const std::string& options);

}  // namespace rooflab
