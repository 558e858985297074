#if ROOFLAB_HAVE_LIBCLANG
// The automatic mutants' walk: where things are in the preprocessed program, the text of edits, and the
// walk's entry (the functions the launched kernels reach, the structure grown to its fixed point).
#include "mutators/auto_mutation_walker.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>

namespace rooflab::auto_mutation {

void Walk::function(CXCursor f) {
  function_ = text(lc().clang_getCursorSpelling(f));
  for (CXCursor c : children(f))
    if (kindOf(c) == CXCursor_CompoundStmt) visit(c, Role::statement, false);
}

// file:line of the user's file (the preprocessed program's line directives give it).
std::string Walk::where(CXCursor c) const {
  CXString file;
  unsigned line = 0;
  lc().clang_getPresumedLocation(lc().clang_getCursorLocation(c), &file, &line, nullptr);
  std::string name = text(file);
  name = name.substr(name.find_last_of('/') + 1);
  return (name.empty() ? "?" : name) + ":" + std::to_string(line);
}

void Walk::problem(CXCursor c, const std::string& what) {
  if (kind_ && !analysing_) result.problems.push_back(where(c) + ": " + what);
}

void Walk::tally(CXCursor c, int SourceCensus::*quantity) {
  ++(result.census.*quantity);
  if (analysing_) return;
  CXString file;
  unsigned line = 0;
  lc().clang_getPresumedLocation(lc().clang_getCursorLocation(c), &file, &line, nullptr);
  std::string name = text(file);
  name = name.substr(name.find_last_of('/') + 1);
  ++(result.census_by_line[{name.empty() ? "?" : name, line}].*quantity);
}

// The main-file byte range of a cursor. An end inside a macro of OpenCL's own header (FLT_MAX,
// CLK_LOCAL_MEM_FENCE: the preprocessed program keeps them) ends after the macro's name.
bool Walk::range(CXCursor c, unsigned& begin, unsigned& end) const {
  const CXSourceRange extent = lc().clang_getCursorExtent(c);
  const CXSourceLocation b = lc().clang_getRangeStart(extent), e = lc().clang_getRangeEnd(extent);
  if (!lc().clang_Location_isFromMainFile(b) || !lc().clang_Location_isFromMainFile(e)) return false;
  unsigned b_file = 0, e_file = 0, e_spelled = 0;
  lc().clang_getExpansionLocation(b, nullptr, nullptr, nullptr, &b_file);
  lc().clang_getExpansionLocation(e, nullptr, nullptr, nullptr, &e_file);
  lc().clang_getSpellingLocation(e, nullptr, nullptr, nullptr, &e_spelled);
  if (e_file != e_spelled) {
    // e_file is where the macro's name begins: the range ends after that name (and its arguments).
    while (e_file < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[e_file])) || text_[e_file] == '_'))
      ++e_file;
    if (e_file < text_.size() && text_[e_file] == '(') {
      int depth = 0;
      do {
        if (text_[e_file] == '(') ++depth;
        if (text_[e_file] == ')') --depth;
        ++e_file;
      } while (e_file < text_.size() && depth > 0);
    }
  }
  if (e_file < b_file || e_file > text_.size()) return false;
  begin = b_file;
  end = e_file;
  return true;
}

SourceEdit::Piece Walk::piece(CXCursor c) const {
  SourceEdit::Piece p;
  range(c, p.begin, p.end);
  return p;
}

void Walk::edit(CXCursor c, std::vector<SourceEdit::Piece> pieces, std::initializer_list<MutantLineChangeKind> kinds) {
  if (analysing_ || !kind_) return;
  SourceEdit e;
  if (!range(c, e.begin, e.end)) {
    problem(c, "the access or operation has no place of its own in the preprocessed program (an internal limit)");
    return;
  }
  for (const SourceEdit::Piece& p : pieces)
    if (p.text.empty() && p.end <= p.begin) {
      problem(c, "an operand has no place of its own in the preprocessed program (an internal limit)");
      return;
    }
  e.pieces = std::move(pieces);
  for (const MutantLineChangeKind kind : kinds) result.changes.push_back({e.begin, kind});
  result.edits.push_back(std::move(e));
}

std::vector<std::pair<std::string, unsigned>> Walk::tokens(CXCursor c) const {
  CXToken* list = nullptr;
  unsigned count = 0;
  lc().clang_tokenize(unit_, lc().clang_getCursorExtent(c), &list, &count);
  std::vector<std::pair<std::string, unsigned>> out;
  for (unsigned i = 0; i < count; ++i) {
    unsigned offset = 0;
    lc().clang_getExpansionLocation(lc().clang_getTokenLocation(unit_, list[i]), nullptr, nullptr, nullptr, &offset);
    out.emplace_back(text(lc().clang_getTokenSpelling(unit_, list[i])), offset);
  }
  lc().clang_disposeTokens(unit_, list, count);
  return out;
}

// A binary operator's spelling: the first token after its left operand.
std::string Walk::binaryOperator(CXCursor c, CXCursor lhs) const {
  unsigned lhs_end = 0;
  lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(lhs)), nullptr, nullptr, nullptr,
                                  &lhs_end);
  for (const auto& [spelling, offset] : tokens(c))
    if (offset >= lhs_end) return spelling;
  return "";
}

// The declaration a variable reference names (a VarDecl or ParmDecl), or a null cursor.
std::optional<CXCursor> Walk::variable(CXCursor ref) {
  ref = stripImplicit(ref);
  if (kindOf(ref) != CXCursor_DeclRefExpr) return std::nullopt;
  const CXCursor declared = lc().clang_getCursorReferenced(ref);
  const CXCursorKind k = kindOf(declared);
  if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return std::nullopt;
  return declared;
}

// The variable whose elements an access reaches: `a` of a[i], *(a + i), a[i].x, s.f, p->f.
std::optional<CXCursor> Walk::rootOf(CXCursor c) const {
  for (int guard = 0; guard < 64; ++guard) {
    c = stripImplicit(c);
    if (auto v = variable(c)) return v;
    const CXCursorKind k = kindOf(c);
    const auto parts = children(c);
    if (parts.empty()) return std::nullopt;
    if (k == CXCursor_CStyleCastExpr) {  // (global float*)p: the cast's operand is the last child
      c = parts.back();
      continue;
    }
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr || k == CXCursor_UnaryOperator ||
        isComponent(c)) {
      c = parts.front();
      continue;
    }
    if (k == CXCursor_BinaryOperator) {  // pointer arithmetic: the pointer operand
      c = isPointer(lc().clang_getCursorType(stripImplicit(parts[0]))) ? parts[0] : parts.back();
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

void Walk::addValue(CXCursor decl) {
  if (slice_.values.insert(declKey(decl)).second) grew_ = true;
}

void Walk::addContents(CXCursor decl) {
  if (slice_.contents.insert(declKey(decl)).second) grew_ = true;
}

// A read or write of global (or constant) memory: p[i], *p, p->f, p[i].f.
bool Walk::isGlobalAccess(CXCursor c) const {
  const CXCursorKind k = kindOf(c);
  if (k == CXCursor_MemberRefExpr) {
    // An array member (s->a, p[i].a) is an address in global memory; the subscript of it reads.
    if (isArray(lc().clang_getCursorType(c))) return false;
    const auto base = children(c);
    if (base.empty()) return false;
    const CXCursor b = stripImplicit(base[0]);
    if (isGlobalPointer(lc().clang_getCursorType(b))) return true;  // p->f
    return isGlobalAccess(b);                                       // p[i].f
  }
  if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_UnaryOperator) return false;
  const auto operands = children(c);
  if (operands.empty() || !isGlobalPointer(lc().clang_getCursorType(operands[0]))) return false;
  if (k == CXCursor_UnaryOperator) {
    const auto t = tokens(c);
    return !t.empty() && t.front().first == "*";
  }
  return true;
}

// Whether an expression is a vector component of a global element: `v[i].x`.
bool Walk::isGlobalComponent(CXCursor c) const {
  if (!isComponent(c)) return false;
  return isGlobalAccess(stripImplicit(children(c)[0]));
}

// The text of an element's address for a compute-only value: `&(p[i])`, `(p)` for p->f; a member
// or lane is set apart from its neighbours by a salt.
std::vector<SourceEdit::Piece> Walk::seedOf(CXCursor access) const {
  const CXCursorKind k = kindOf(access);
  if (k == CXCursor_MemberRefExpr || isComponent(access)) {
    const CXCursor base = stripImplicit(children(access)[0]);
    const unsigned salt =
        static_cast<unsigned>(std::hash<std::string>{}(text(lc().clang_getCursorSpelling(access))) & 0xffu);
    std::vector<SourceEdit::Piece> p;
    if (isGlobalPointer(lc().clang_getCursorType(base))) {
      p = {literal("rl_auto_seed((ulong)("), piece(base), literal(")) + " + std::to_string(salt) + "u")};
    } else {
      p = {literal("rl_auto_seed((ulong)(&("), piece(base), literal("))) + " + std::to_string(salt) + "u")};
    }
    return p;
  }
  return {literal("rl_auto_seed((ulong)(&("), piece(access), literal(")))")};
}

// The value of a compute-only load: made in registers from the element's address and the run-time key.
std::vector<SourceEdit::Piece> Walk::fakeLoad(const std::string& type, std::vector<SourceEdit::Piece> seed) {
  if (type.rfind("double", 0) == 0) result.double_helpers = true;
  std::vector<SourceEdit::Piece> p = {literal("rl_auto_fake_" + type + "(")};
  p.insert(p.end(), seed.begin(), seed.end());
  p.push_back(literal(std::string(", ") + kMutantKeyParameter + ")"));
  return p;
}

void Walk::structureLoad(CXCursor c) {
  tally(c, &SourceCensus::structure_loads);
  if (!analysing_ && result.first_structure_load.empty()) result.first_structure_load = where(c);
  // The compute-only mutant keeps it as it is: no edit says so, the line's change does.
  unsigned begin = 0, end = 0;
  if (computeOnly() && range(c, begin, end)) result.changes.push_back({begin, MutantLineChangeKind::kept});
}

void Walk::structureOperation(CXCursor c, bool floating) {
  tally(c, floating ? &SourceCensus::structure_float_ops : &SourceCensus::structure_int_ops);
  if (!analysing_ && floating && result.first_structure_float_op.empty()) result.first_structure_float_op = where(c);
}

void Walk::visitChildren(CXCursor c, Role role, bool seed) {
  for (CXCursor child : children(c)) visit(child, role, seed);
}

namespace {

// The user's functions defined in the program (not OpenCL's header, not rooflab's preludes).
std::map<std::string, CXCursor> userFunctions(CXTranslationUnit unit, const std::vector<std::string>& skip_files) {
  std::map<std::string, CXCursor> functions;
  for (CXCursor c : children(lc().clang_getTranslationUnitCursor(unit))) {
    if (kindOf(c) != CXCursor_FunctionDecl || !lc().clang_isCursorDefinition(c)) continue;
    const CXSourceLocation at = lc().clang_getCursorLocation(c);
    if (lc().clang_Location_isInSystemHeader(at)) continue;
    CXFile file;
    lc().clang_getExpansionLocation(at, &file, nullptr, nullptr, nullptr);
    const std::string name = file ? text(lc().clang_getFileName(file)) : "";
    if (std::find(skip_files.begin(), skip_files.end(), name) != skip_files.end()) continue;
    functions.emplace(text(lc().clang_getCursorSpelling(c)), c);
  }
  return functions;
}

// The functions `kernels` call, directly or not, with the kernels themselves; all when none are named.
std::vector<CXCursor> reachedFunctions(const std::map<std::string, CXCursor>& functions,
                                       const std::vector<std::string>& kernels) {
  std::vector<CXCursor> reached;
  if (kernels.empty()) {
    for (const auto& [name, f] : functions) reached.push_back(f);
    return reached;
  }
  std::set<std::string> seen;
  std::vector<std::string> pending(kernels.begin(), kernels.end());
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    const auto it = functions.find(name);
    if (it == functions.end() || !seen.insert(name).second) continue;
    reached.push_back(it->second);
    std::function<void(CXCursor)> scan = [&](CXCursor c) {
      for (CXCursor child : children(c)) {
        if (kindOf(child) == CXCursor_CallExpr) pending.push_back(text(lc().clang_getCursorSpelling(child)));
        scan(child);
      }
    };
    scan(it->second);
  }
  return reached;
}

}  // namespace

WalkResult walkKernelSource(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind,
                            const std::vector<std::string>& kernels,
                            const std::vector<std::vector<std::string>>& kernel_buffers,
                            const std::vector<std::string>& skip_files) {
  const std::map<std::string, CXCursor> functions = userFunctions(unit, skip_files);
  const std::vector<CXCursor> reached = reachedFunctions(functions, kernels);
  // Kernel parameters bound to the same buffer by the variant's launches.
  std::map<std::string, std::vector<unsigned>> buffer_params;
  for (std::size_t k = 0; k < kernels.size() && k < kernel_buffers.size(); ++k) {
    const auto f = functions.find(kernels[k]);
    if (f == functions.end()) continue;
    std::size_t index = 0;
    for (CXCursor p : children(f->second)) {
      if (kindOf(p) != CXCursor_ParmDecl) continue;
      if (index < kernel_buffers[k].size() && !kernel_buffers[k][index].empty())
        buffer_params[kernel_buffers[k][index]].push_back(declKey(p));
      ++index;
    }
  }
  // The structure grows through assignments, arrays, calls and buffers in any order: walk until it stops.
  Slice slice;
  for (int round = 0; round < 32; ++round) {
    Walk analysis(unit, main_text, kind, slice, functions, true);
    for (CXCursor f : reached) analysis.function(f);
    bool grew = analysis.grew_;
    for (const auto& [buffer, params] : buffer_params) {
      const bool any =
          std::any_of(params.begin(), params.end(), [&](unsigned p) { return slice.contents.count(p) > 0; });
      if (any)
        for (unsigned p : params) grew = slice.contents.insert(p).second || grew;
    }
    if (!grew) break;
  }
  Walk walk(unit, main_text, kind, slice, functions, false);
  // Only a memory-only fold asks which values came from memory.
  const std::set<unsigned> memory_data =
      kind == AutoMutantKind::memory_only ? walk.memoryData(reached) : std::set<unsigned>{};
  if (kind == AutoMutantKind::memory_only) walk.memory_data_ = &memory_data;
  for (CXCursor f : reached) walk.function(f);
  if (kind == AutoMutantKind::compute_only) threadMutantKey(unit, main_text, skip_files, walk.result);
  resolveTraffic(walk.accesses_, walk.aliases_, functions, kernels, walk.result);
  return walk.result;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
