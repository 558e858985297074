#if ROOFLAB_HAVE_LIBCLANG
// The compute-only key threaded through a program's own functions (mutant_key.hpp): made-up values
// and guards inside a helper read the kernel's run-time argument, not prelude.cl's constant, because
// every function of the program that is not a kernel takes the key as its last parameter and every
// call of one passes it on. A kernel the variant launches gets the key as an argument (appended to
// its parameters when the program is built, as annotated kernels get it); a kernel it does not
// launch passes prelude.cl's constant, and is otherwise left as written.
#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "mutators/auto_mutation_walker.hpp"

namespace rooflab::auto_mutation {
namespace {

unsigned fileOffset(CXSourceLocation location) {
  unsigned offset = 0;
  lc().clang_getExpansionLocation(location, nullptr, nullptr, nullptr, &offset);
  return offset;
}

bool isWordAt(const std::string& text, std::size_t at, const std::string& word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return text.compare(at, word.size(), word) == 0 && (at == 0 || !ident(text[at - 1])) &&
         (at + word.size() >= text.size() || !ident(text[at + word.size()]));
}

// Whether the declaration (extent begin .. its name) says `kernel` or `__kernel`.
bool declaresKernel(CXCursor f, const std::string& text) {
  const unsigned begin = fileOffset(lc().clang_getRangeStart(lc().clang_getCursorExtent(f)));
  const unsigned name = fileOffset(lc().clang_getCursorLocation(f));
  for (unsigned at = begin; at < name && at < text.size(); ++at)
    if (isWordAt(text, at, "kernel") || isWordAt(text, at, "__kernel")) return true;
  return false;
}

bool inUserFile(CXCursor c, const std::vector<std::string>& skip_files) {
  const CXSourceLocation at = lc().clang_getCursorLocation(c);
  if (lc().clang_Location_isInSystemHeader(at) || !lc().clang_Location_isFromMainFile(at)) return false;
  CXFile file;
  lc().clang_getExpansionLocation(at, &file, nullptr, nullptr, nullptr);
  const std::string name = file ? text(lc().clang_getFileName(file)) : "";
  return std::find(skip_files.begin(), skip_files.end(), name) == skip_files.end();
}

SourceEdit insertion(unsigned at, std::string what) {
  SourceEdit e;
  e.begin = e.end = at;
  e.pieces.push_back({std::move(what), 0, 0});
  return e;
}

}  // namespace

void threadMutantKey(CXTranslationUnit unit, const std::string& main_text, const std::vector<std::string>& skip_files,
                     WalkResult& result) {
  const std::vector<CXCursor> top = children(lc().clang_getTranslationUnitCursor(unit));
  std::set<std::string> helpers;  // defined here, not kernels
  for (CXCursor c : top)
    if (kindOf(c) == CXCursor_FunctionDecl && lc().clang_isCursorDefinition(c) && inUserFile(c, skip_files) &&
        !declaresKernel(c, main_text))
      helpers.insert(text(lc().clang_getCursorSpelling(c)));
  if (helpers.empty()) return;
  const std::string parameter = std::string("const uint ") + kMutantKeyParameter;
  for (CXCursor c : top) {
    if (kindOf(c) != CXCursor_FunctionDecl || !inUserFile(c, skip_files)) continue;
    const std::string name = text(lc().clang_getCursorSpelling(c));
    if (helpers.count(name)) {
      // The parameter list: from the first '(' after the name to its ')'; `()` and `(void)` hold the key alone.
      std::size_t open = main_text.find('(', fileOffset(lc().clang_getCursorLocation(c)));
      std::size_t close = open;
      for (int depth = 0; close < main_text.size(); ++close) {
        if (main_text[close] == '(') ++depth;
        if (main_text[close] == ')' && --depth == 0) break;
      }
      if (open == std::string::npos || close >= main_text.size()) {
        result.problems.push_back("the parameters of '" + name +
                                  "' were not found in the preprocessed program (an internal limit)");
        return;
      }
      std::string inner = main_text.substr(open + 1, close - open - 1);
      inner.erase(std::remove_if(inner.begin(), inner.end(),
                                 [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }),
                  inner.end());
      if (inner.empty() || inner == "void") {
        SourceEdit e = insertion(static_cast<unsigned>(open + 1), parameter);
        e.end = static_cast<unsigned>(close);
        result.edits.push_back(std::move(e));
      } else {
        result.edits.push_back(insertion(static_cast<unsigned>(close), ", " + parameter));
      }
    }
    if (!lc().clang_isCursorDefinition(c)) continue;
    // Every call of a helper in this function passes the key on (a kernel the variant does not
    // launch passes prelude.cl's constant of the same name).
    std::function<void(CXCursor)> calls = [&](CXCursor x) {
      for (CXCursor child : children(x)) {
        if (kindOf(child) == CXCursor_CallExpr && helpers.count(text(lc().clang_getCursorSpelling(child)))) {
          const unsigned end = fileOffset(lc().clang_getRangeEnd(lc().clang_getCursorExtent(child)));
          if (end == 0 || end > main_text.size() || main_text[end - 1] != ')') {
            result.problems.push_back(
                "a call of '" + text(lc().clang_getCursorSpelling(child)) +
                "' has no closing parenthesis of its own in the preprocessed program (an internal limit)");
            return;
          }
          const bool no_arguments = lc().clang_Cursor_getNumArguments(child) == 0;
          result.edits.push_back(insertion(end - 1, (no_arguments ? "" : ", ") + std::string(kMutantKeyParameter)));
        }
        calls(child);
      }
    };
    calls(c);
  }
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
