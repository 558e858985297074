#include "mutators/auto_mutation.hpp"

#include <sstream>

#include "embedded_auto_mutation_prelude.hpp"
#include "embedded_kernel_prelude.hpp"
#include "mutators/opencl_preprocess.hpp"

#if ROOFLAB_HAVE_LIBCLANG
#include <filesystem>
#include <memory>

#include "mutators/auto_mutation_walk.hpp"
#endif

namespace rooflab {

std::vector<std::string> splitBuildOptions(const std::string& options) {
  std::istringstream in(options);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string_view automaticMutantPrelude() { return embedded::auto_mutation_prelude; }

std::vector<std::string> preprocessorOptions(const std::vector<std::string>& build_options) {
  std::vector<std::string> options = build_options;
  for (std::size_t i = 0; i < options.size(); ++i) {
    std::string& w = options[i];
    if (w == "-D" && i + 1 < options.size() && options[i + 1].rfind("RL_MODE=", 0) == 0) options[i + 1] = "RL_MODE=0";
    else if (w.rfind("-DRL_MODE=", 0) == 0) w = "-DRL_MODE=0";
  }
  return options;
}

std::string automaticMutantProgram(const AutoMutant& mutant) {
  std::string program(embedded::kernel_prelude);
  program += "\n";
  if (mutant.double_helpers) program += "#define RL_AUTO_DOUBLE 1\n";
  program += automaticMutantPrelude();
  program += "\n";
  if (mutant.source) program += *mutant.source;
  return program;
}

#if !ROOFLAB_HAVE_LIBCLANG

bool automaticMutantsAvailable() { return false; }
std::string automaticMutantsOffReason() { return "automatic mutants off: built without libclang"; }

PreprocessedSource expandForMutation(const AutoMutationRequest&) { return {"", automaticMutantsOffReason()}; }

AutoMutant mutateAutomatically(const AutoMutationRequest& request, const PreprocessedSource&) {
  return mutateAutomatically(request);
}

AutoMutant mutateAutomatically(const AutoMutationRequest& request) {
  AutoMutant none;
  none.kind = request.kind;
  none.reason = automaticMutantsOffReason();
  return none;
}

#else

using auto_mutation::lc;

bool automaticMutantsAvailable() { return automaticMutantsOffReason().empty(); }
std::string automaticMutantsOffReason() {
  if (!auto_mutation::libclangLoadError().empty()) return auto_mutation::libclangLoadError();
  return openclPreprocessorOffReason();
}

namespace {

// rooflab's preludes, seen by the parse of a mutant as included files of these names.
constexpr const char* kPreludePath = "/rooflab-virtual/prelude.cl";
constexpr const char* kAutoPreludePath = "/rooflab-virtual/auto_prelude.cl";

struct ParsedSource {
  CXIndex index = nullptr;
  CXTranslationUnit unit = nullptr;
  std::string error;  // the first error clang reported, "" when none
  ~ParsedSource() {
    if (unit) lc().clang_disposeTranslationUnit(unit);
    if (index) lc().clang_disposeIndex(index);
  }
};

// Parses a preprocessed program (`text`, as if it were the file at `path`); with_preludes: behind
// rooflab's preludes, as a mutant is built (double_helpers: with the double ones).
std::unique_ptr<ParsedSource> parse(const std::string& path, const std::string& text,
                                    const std::vector<std::string>& options, bool with_preludes,
                                    bool double_helpers = false, bool compute_only = false) {
  auto parsed = std::make_unique<ParsedSource>();
  std::vector<std::string> args = {
      "-x", "cl", "-Xclang", "-finclude-default-header", "-resource-dir", ROOFLAB_LIBCLANG_RESOURCE_DIR};
  args.push_back("-cl-std=" + openclStandard(options));  // the only option a preprocessed program needs
  if (double_helpers) args.push_back("-DRL_AUTO_DOUBLE=1");
  if (compute_only) args.push_back("-DRL_MODE=1");  // prelude.cl's key constant, as the mutant is built
  std::vector<CXUnsavedFile> files = {{path.c_str(), text.c_str(), static_cast<unsigned long>(text.size())}};
  if (with_preludes) {
    for (const char* prelude : {kPreludePath, kAutoPreludePath}) {
      args.push_back("-include");
      args.push_back(prelude);
    }
    files.push_back(
        {kPreludePath, embedded::kernel_prelude.data(), static_cast<unsigned long>(embedded::kernel_prelude.size())});
    files.push_back({kAutoPreludePath, embedded::auto_mutation_prelude.data(),
                     static_cast<unsigned long>(embedded::auto_mutation_prelude.size())});
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  parsed->index = lc().clang_createIndex(0, 0);
  const CXErrorCode code = lc().clang_parseTranslationUnit2(
      parsed->index, path.c_str(), argv.data(), static_cast<int>(argv.size()), files.data(),
      static_cast<unsigned>(files.size()), CXTranslationUnit_None, &parsed->unit);
  if (code != CXError_Success || !parsed->unit) {
    parsed->error = "libclang could not parse " + path + " (error " + std::to_string(code) + ")";
    return parsed;
  }
  for (unsigned i = 0; i < lc().clang_getNumDiagnostics(parsed->unit) && parsed->error.empty(); ++i) {
    CXDiagnostic d = lc().clang_getDiagnostic(parsed->unit, i);
    if (lc().clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      // file:line:column by the file's name only, so that messages do not depend on where it lies.
      CXString file;
      unsigned line = 0, column = 0;
      lc().clang_getPresumedLocation(lc().clang_getDiagnosticLocation(d), &file, &line, &column);
      std::string where = std::filesystem::path(lc().clang_getCString(file)).filename().string();
      lc().clang_disposeString(file);
      if (where.empty()) where = "?";
      CXString what = lc().clang_getDiagnosticSpelling(d);
      parsed->error =
          where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + lc().clang_getCString(what);
      lc().clang_disposeString(what);
    }
    lc().clang_disposeDiagnostic(d);
  }
  return parsed;
}

// The census a mutant of `kind` must have, from the original's.
SourceCensus required(AutoMutantKind kind, const SourceCensus& original) {
  SourceCensus r = original;
  if (kind == AutoMutantKind::compute_only) {
    r.global_loads = original.structure_loads;
  } else {
    r.float_ops = original.structure_float_ops;
    r.int_ops = original.structure_int_ops;
  }
  return r;
}

// "12 integer operations where it must have 8 (4 more)" for each quantity that differs; "" when none does.
std::string differences(const SourceCensus& must, const SourceCensus& has) {
  std::string out;
  for (const auto& [quantity, name] :
       {std::pair<int SourceCensus::*, const char*>{&SourceCensus::global_loads, "global loads"},
        {&SourceCensus::global_stores, "global stores"},
        {&SourceCensus::global_atomics, "global atomics"},
        {&SourceCensus::float_ops, "floating-point operations"},
        {&SourceCensus::int_ops, "integer operations"}}) {
    const int n = has.*quantity, m = must.*quantity;
    if (n == m) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + name + " where it must have " + std::to_string(m) +
           " (" + std::to_string(n > m ? n - m : m - n) + (n > m ? " more" : " fewer") + ")";
  }
  return out;
}

// What the mutant must keep and lose, by the census of its program: "" when it does; otherwise the
// first line of the user's file whose census differs (the whole program's when no line's does).
std::string censusMismatch(AutoMutantKind kind, const auto_mutation::WalkResult& original,
                           const auto_mutation::WalkResult& mutant, const std::string& name) {
  const std::string whole = differences(required(kind, original.census), mutant.census);
  if (whole.empty()) return "";
  std::string where = name, what = whole;
  std::map<std::pair<std::string, unsigned>, SourceCensus> lines = original.census_by_line;
  for (const auto& [line, census] : mutant.census_by_line) lines.emplace(line, SourceCensus{});
  for (const auto& [line, census] : lines) {
    const auto found = mutant.census_by_line.find(line);
    const std::string here =
        differences(required(kind, census), found == mutant.census_by_line.end() ? SourceCensus{} : found->second);
    if (here.empty()) continue;
    where = line.first + ":" + std::to_string(line.second);
    what = here;
    break;
  }
  return where + ": the rewritten line has " + what +
         (kind == AutoMutantKind::compute_only
              ? " (compute-only keeps every operation and only the global loads that decide addresses, branches, "
                "bounds or divisors"
              : " (memory-only keeps every global access and only the operations that decide addresses, branches, "
                "bounds or divisors") +
         "; in the whole program: " + whole + ")";
}

}  // namespace

PreprocessedSource expandForMutation(const AutoMutationRequest& request) {
  if (!automaticMutantsAvailable()) return {"", automaticMutantsOffReason()};
  // What the compiler sees: macros expanded, #if branches chosen, headers inlined.
  PreprocessRequest preprocess;
  preprocess.source_text = request.source_text;
  preprocess.source_path = request.source_path;
  preprocess.build_options = preprocessorOptions(request.build_options);
  preprocess.device_extensions = request.device_extensions;
  return preprocessOpenclSource(preprocess);
}

AutoMutant mutateAutomatically(const AutoMutationRequest& request) {
  if (!automaticMutantsAvailable()) {
    AutoMutant out;
    out.kind = request.kind;
    out.reason = automaticMutantsOffReason();
    return out;
  }
  return mutateAutomatically(request, expandForMutation(request));
}

AutoMutant mutateAutomatically(const AutoMutationRequest& request, const PreprocessedSource& expanded) {
  AutoMutant out;
  out.kind = request.kind;
  if (!automaticMutantsAvailable()) {
    out.reason = automaticMutantsOffReason();
    return out;
  }
  const std::string name = std::filesystem::path(request.source_path).filename().string();
  if (!expanded.error.empty()) {
    out.reason = expanded.error;
    return out;
  }
  const auto original = parse(request.source_path, expanded.text, request.build_options, false);
  if (!original->error.empty()) {
    out.reason = "libclang cannot parse " + name + ": " + original->error;
    return out;
  }
  const auto walk = auto_mutation::walkKernelSource(original->unit, expanded.text, request.kind, request.kernels,
                                                    request.kernel_buffers, {});
  out.original = walk.census;
  out.traffic = walk.traffic;
  out.traffic_untraced = walk.traffic_untraced;
  if (!walk.problems.empty()) {
    out.reason = walk.problems.front();
    if (walk.problems.size() > 1) out.reason += " (and " + std::to_string(walk.problems.size() - 1) + " more)";
    return out;
  }
  // A mutant that could drop nothing of what it should drop is the kernel itself: say why instead.
  const SourceCensus& c = walk.census;
  if (request.kind == AutoMutantKind::compute_only && c.global_loads > 0 && c.structure_loads == c.global_loads) {
    out.reason = "no compute-only mutant is possible: every global load decides an address, a branch, a loop bound or "
                 "a divisor (the first at " +
                 walk.first_structure_load +
                 "), so none can be made up and the mutant would read all that the kernel reads";
    return out;
  }
  // A memory-only mutant keeps every operation that steers memory: when that is all of them (a
  // search), the kernel is its own memory-only mutant, which is a measurement, not a refusal.
  if (request.kind == AutoMutantKind::memory_only && c.structure_float_ops > 0 &&
      c.structure_float_ops + c.structure_int_ops == c.float_ops + c.int_ops)
    out.same_as_original = "every operation decides an address, a branch, a loop bound or a divisor (the first "
                           "floating-point one at " +
                           walk.first_structure_float_op +
                           "): there is no arithmetic to remove, so the memory-only mutant is the kernel as written";
  const std::string rewritten = auto_mutation::applyEdits(expanded.text, walk.edits);
  out.double_helpers = walk.double_helpers;
  const auto mutant = parse(request.source_path, rewritten, request.build_options, true, walk.double_helpers,
                            request.kind == AutoMutantKind::compute_only);
  if (!mutant->error.empty()) {
    out.reason = "the rewritten " + name + " does not parse (a rewriter fault): " + mutant->error;
    return out;
  }
  const auto mutant_walk = auto_mutation::walkKernelSource(mutant->unit, rewritten, std::nullopt, request.kernels,
                                                           request.kernel_buffers, {kPreludePath, kAutoPreludePath});
  out.mutant = mutant_walk.census;
  out.reason = censusMismatch(request.kind, walk, mutant_walk, name);
  if (!out.reason.empty()) return out;
  out.source = rewritten;
  // An edit's begin is its line: the accesses and operations inside a longer edit (the value of a
  // guarded store) are edits or kept loads of their own, at their own lines.
  out.line_changes = lineChangesOfOffsets(expanded.text, walk.changes,
                                          joinedProgramNaming(request.source_text, request.source_folder));
  return out;
}

#endif

}  // namespace rooflab
