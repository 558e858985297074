#include "mutators/auto_mutation.hpp"

#include <sstream>

#include "embedded_auto_mutation_prelude.hpp"
#include "embedded_kernel_prelude.hpp"

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

#if !ROOFLAB_HAVE_LIBCLANG

bool automaticMutantsAvailable() { return false; }
std::string automaticMutantsOffReason() { return "automatic mutants off: built without libclang"; }

AutoMutant mutateAutomatically(const AutoMutationRequest&) {
  AutoMutant none;
  none.reason = automaticMutantsOffReason();
  return none;
}

#else

using auto_mutation::lc;

bool automaticMutantsAvailable() { return auto_mutation::libclangLoadError().empty(); }
std::string automaticMutantsOffReason() { return auto_mutation::libclangLoadError(); }

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

// The build options that change what the parse sees: -D and -I (each as one word).
std::vector<std::string> preprocessorOptions(const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if ((o == "-D" || o == "-I") && i + 1 < options.size()) {
      out.push_back(o + options[++i]);
    } else if (o.rfind("-D", 0) == 0 || o.rfind("-I", 0) == 0) {
      out.push_back(o);
    }
  }
  return out;
}

std::unique_ptr<ParsedSource> parse(const std::string& path, const std::string& text,
                                    const std::vector<std::string>& options, bool with_preludes) {
  auto parsed = std::make_unique<ParsedSource>();
  std::vector<std::string> args = {"-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                                   "-resource-dir", ROOFLAB_LIBCLANG_RESOURCE_DIR};
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (!folder.empty()) args.push_back("-I" + folder);
  for (const std::string& o : preprocessorOptions(options)) args.push_back(o);
  std::vector<CXUnsavedFile> files = {{path.c_str(), text.c_str(), static_cast<unsigned long>(text.size())}};
  if (with_preludes) {
    for (const char* prelude : {kPreludePath, kAutoPreludePath}) {
      args.push_back("-include");
      args.push_back(prelude);
    }
    files.push_back({kPreludePath, embedded::kernel_prelude.data(), static_cast<unsigned long>(embedded::kernel_prelude.size())});
    files.push_back({kAutoPreludePath, embedded::auto_mutation_prelude.data(),
                     static_cast<unsigned long>(embedded::auto_mutation_prelude.size())});
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  parsed->index = lc().clang_createIndex(0, 0);
  const CXErrorCode code = lc().clang_parseTranslationUnit2(parsed->index, path.c_str(), argv.data(), static_cast<int>(argv.size()),
                                                       files.data(), static_cast<unsigned>(files.size()),
                                                       CXTranslationUnit_None, &parsed->unit);
  if (code != CXError_Success || !parsed->unit) {
    parsed->error = "libclang could not parse " + path + " (error " + std::to_string(code) + ")";
    return parsed;
  }
  for (unsigned i = 0; i < lc().clang_getNumDiagnostics(parsed->unit) && parsed->error.empty(); ++i) {
    CXDiagnostic d = lc().clang_getDiagnostic(parsed->unit, i);
    if (lc().clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      // file:line:column by the file's name only, so that messages do not depend on where it lies.
      CXFile file = nullptr;
      unsigned line = 0, column = 0;
      lc().clang_getExpansionLocation(lc().clang_getDiagnosticLocation(d), &file, &line, &column, nullptr);
      std::string where = "?";
      if (file) {
        CXString name = lc().clang_getFileName(file);
        where = std::filesystem::path(lc().clang_getCString(name)).filename().string();
        lc().clang_disposeString(name);
      }
      CXString what = lc().clang_getDiagnosticSpelling(d);
      parsed->error = where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + lc().clang_getCString(what);
      lc().clang_disposeString(what);
    }
    lc().clang_disposeDiagnostic(d);
  }
  return parsed;
}

std::string describe(const SourceCensus& c) {
  return std::to_string(c.global_loads) + " global loads, " + std::to_string(c.global_stores) + " global stores, " +
         std::to_string(c.float_ops) + " floating-point operations";
}

// What the mutant must keep and lose, by the census of its source: "" when it does.
std::string censusMismatch(AutoMutantKind kind, const SourceCensus& original, const SourceCensus& mutant) {
  const bool ok = kind == AutoMutantKind::compute_only
                      ? mutant.global_loads == 0 && mutant.global_stores == original.global_stores &&
                            mutant.float_ops == original.float_ops
                      : mutant.global_loads == original.global_loads && mutant.global_stores == original.global_stores &&
                            mutant.float_ops == 0;
  if (ok) return "";
  return "the rewritten source has " + describe(mutant) + " where the original has " + describe(original) +
         (kind == AutoMutantKind::compute_only ? " (compute-only must have no global load and every operation)"
                                               : " (memory-only must keep every global access and no operation)");
}

}  // namespace

AutoMutant mutateAutomatically(const AutoMutationRequest& request) {
  AutoMutant out;
  if (!automaticMutantsAvailable()) {
    out.reason = automaticMutantsOffReason();
    return out;
  }
  const std::string name = std::filesystem::path(request.source_path).filename().string();
  const auto original = parse(request.source_path, request.source_text, request.build_options, false);
  if (!original->error.empty()) {
    out.reason = "libclang cannot parse " + name + ": " + original->error;
    return out;
  }
  const auto walk = auto_mutation::walkKernelSource(original->unit, request.source_text, request.kind, {});
  out.original = walk.census;
  if (!walk.problems.empty()) {
    out.reason = walk.problems.front();
    if (walk.problems.size() > 1) out.reason += " (and " + std::to_string(walk.problems.size() - 1) + " more)";
    return out;
  }
  const std::string rewritten = auto_mutation::applyEdits(request.source_text, walk.edits);
  const auto mutant = parse(request.source_path, rewritten, request.build_options, true);
  if (!mutant->error.empty()) {
    out.reason = "the rewritten " + name + " does not parse (a rewriter fault): " + mutant->error;
    return out;
  }
  out.mutant =
      auto_mutation::walkKernelSource(mutant->unit, rewritten, std::nullopt, {kPreludePath, kAutoPreludePath}).census;
  out.reason = censusMismatch(request.kind, out.original, out.mutant);
  if (out.reason.empty()) out.source = rewritten;
  return out;
}

#endif

}  // namespace rooflab
