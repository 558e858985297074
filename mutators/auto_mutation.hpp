#pragma once
// Automatic mutants of unannotated OpenCL C: the kernel source, parsed with libclang, is
// rewritten into a compute-only or a memory-only mutant by textual edits over the parse's source
// ranges. The rewritten text is parsed again and its census checked against the original's, so a
// rewrite that would give a wrong mutant gives none, with the reason. docs/manifest.md, "Automatic
// mutants", says what each mutant keeps and what the rewriter declines.
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

enum class AutoMutantKind { compute_only, memory_only };

// Whether this build can make automatic mutants, and why not ("built without libclang").
bool automaticMutantsAvailable();
std::string automaticMutantsOffReason();

// What the rewriter counts in a source, statically (each access or operation once, however often
// it runs): the quantities a mutant must keep or lose.
struct SourceCensus {
  int global_loads = 0;   // reads through a global or constant pointer (subscript, *, vloadN)
  int global_stores = 0;  // writes through one (an assignment, a compound assignment, vstoreN)
  int float_ops = 0;      // floating-point + - * / (compound too) and math built-ins (fma, sqrt, ...)
};

struct AutoMutationRequest {
  std::string source_text;                // the variant's kernel source, as written
  std::string source_path;                // its path: names it in messages, and #include is relative to it
  std::vector<std::string> build_options; // the point's compiler options; -D and -I reach the parse
  AutoMutantKind kind = AutoMutantKind::compute_only;
};

struct AutoMutant {
  std::optional<std::string> source;  // the mutant's kernel source (without any prelude); nullopt: none
  std::string reason;                 // why there is none
  SourceCensus original;
  SourceCensus mutant;
};

// The mutant of `request.kind`, or none with the reason. The mutant's text needs prelude.cl and
// then automaticMutantPrelude() in front of it.
AutoMutant mutateAutomatically(const AutoMutationRequest& request);
std::string_view automaticMutantPrelude();

// Splits a compiler option string into words, as the OpenCL compiler reads it.
std::vector<std::string> splitBuildOptions(const std::string& options);

}  // namespace rooflab
