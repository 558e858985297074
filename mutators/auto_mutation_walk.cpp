#if ROOFLAB_HAVE_LIBCLANG
#include "mutators/auto_mutation_walk.hpp"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include "mutators/auto_mutation_types.hpp"

namespace rooflab::auto_mutation {
namespace {

using namespace clang_types;

enum class Role {
  value,          // read
  statement,      // an expression statement: a store may become a statement of its own
  store_target,   // the left side of an assignment
  partial_store,  // under a lane or member that is assigned
  address_of,     // the operand of &
  increment,      // the operand of ++ or --
};

class Walk {
 public:
  Walk(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind)
      : unit_(unit), text_(main_text), kind_(kind) {}

  void function(CXCursor f, bool editable) {
    editable_ = editable;
    for (CXCursor c : children(f))
      if (lc().clang_getCursorKind(c) == CXCursor_CompoundStmt) visit(c, Role::statement, false);
  }

  WalkResult result;

 private:
  bool computeOnly() const { return kind_ == AutoMutantKind::compute_only; }
  bool memoryOnly() const { return kind_ == AutoMutantKind::memory_only; }

  std::string where(CXCursor c) const {
    CXFile file;
    unsigned line = 0;
    lc().clang_getExpansionLocation(lc().clang_getCursorLocation(c), &file, &line, nullptr, nullptr);
    std::string name = file ? text(lc().clang_getFileName(file)) : "?";
    name = name.substr(name.find_last_of('/') + 1);
    return name + ":" + std::to_string(line);
  }

  void problem(CXCursor c, const std::string& what) {
    if (kind_) result.problems.push_back(where(c) + ": " + what);
  }

  // The main-file byte range of a cursor; false when it is not all written in the main file or
  // when it begins or ends inside a macro's body (no faithful text to edit).
  bool range(CXCursor c, unsigned& begin, unsigned& end) const {
    const CXSourceRange extent = lc().clang_getCursorExtent(c);
    const CXSourceLocation b = lc().clang_getRangeStart(extent), e = lc().clang_getRangeEnd(extent);
    if (!lc().clang_Location_isFromMainFile(b) || !lc().clang_Location_isFromMainFile(e)) return false;
    unsigned b_file = 0, e_file = 0, b_spelled = 0, e_spelled = 0;
    lc().clang_getExpansionLocation(b, nullptr, nullptr, nullptr, &b_file);
    lc().clang_getExpansionLocation(e, nullptr, nullptr, nullptr, &e_file);
    lc().clang_getSpellingLocation(b, nullptr, nullptr, nullptr, &b_spelled);
    lc().clang_getSpellingLocation(e, nullptr, nullptr, nullptr, &e_spelled);
    if (b_file != b_spelled || e_file != e_spelled || e_file < b_file || e_file > text_.size()) return false;
    begin = b_file;
    end = e_file;
    return true;
  }

  SourceEdit::Piece piece(CXCursor c) const {
    SourceEdit::Piece p;
    range(c, p.begin, p.end);
    return p;
  }
  static SourceEdit::Piece literal(std::string s) { return {std::move(s), 0, 0}; }

  void edit(CXCursor c, std::vector<SourceEdit::Piece> pieces) {
    SourceEdit e;
    if (!editable_ || !range(c, e.begin, e.end)) {
      problem(c, "the access or operation is written inside a macro or an included file, which the rewriter does not edit");
      return;
    }
    for (const SourceEdit::Piece& p : pieces)
      if (p.text.empty() && p.end <= p.begin) {
        problem(c, "an operand is written inside a macro, which the rewriter does not edit");
        return;
      }
    e.pieces = std::move(pieces);
    result.edits.push_back(std::move(e));
  }

  std::vector<std::pair<std::string, unsigned>> tokens(CXCursor c) const {
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
  std::string binaryOperator(CXCursor c, CXCursor lhs) const {
    unsigned lhs_end = 0;
    lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(lhs)), nullptr, nullptr, nullptr, &lhs_end);
    for (const auto& [spelling, offset] : tokens(c))
      if (offset >= lhs_end) return spelling;
    return "";
  }

  static CXCursor stripParens(CXCursor c) {
    while (lc().clang_getCursorKind(c) == CXCursor_ParenExpr) {
      const auto inner = children(c);
      if (inner.size() != 1) break;
      c = inner[0];
    }
    return c;
  }

  // A read or write through a global (or constant) pointer: p[i] or *p.
  bool isGlobalAccess(CXCursor c) const {
    const CXCursorKind k = lc().clang_getCursorKind(c);
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_UnaryOperator) return false;
    const auto operands = children(c);
    if (operands.empty() || !isGlobalPointer(lc().clang_getCursorType(operands[0]))) return false;
    if (k == CXCursor_UnaryOperator) {
      const auto t = tokens(c);
      return !t.empty() && t.front().first == "*";
    }
    return true;
  }

  // The value of a compute-only load: made in registers from the element's address.
  std::vector<SourceEdit::Piece> fakeLoad(const std::string& type, const std::vector<SourceEdit::Piece>& address) {
    std::vector<SourceEdit::Piece> p = {literal("rl_auto_fake_" + type + "(rl_auto_seed((ulong)(")};
    p.insert(p.end(), address.begin(), address.end());
    p.push_back(literal(")))"));
    return p;
  }

  void visitChildren(CXCursor c, Role role, bool seed) {
    const bool integral = isIntegral(lc().clang_getCursorType(c));
    for (CXCursor child : children(c))
      visit(child, role, seed || (integral && isFloating(lc().clang_getCursorType(child))));
  }

  void visit(CXCursor c, Role role, bool seed) {
    switch (lc().clang_getCursorKind(c)) {
      case CXCursor_ArraySubscriptExpr:
      case CXCursor_UnaryOperator:
        if (isGlobalAccess(c)) return access(c, role, seed);
        if (lc().clang_getCursorKind(c) == CXCursor_UnaryOperator) return unary(c, seed);
        return visitChildren(c, Role::value, true);  // an index addresses memory
      case CXCursor_BinaryOperator: return binary(c, role, seed, false);
      case CXCursor_CompoundAssignOperator: return binary(c, role, seed, true);
      case CXCursor_CallExpr: return call(c, role, seed);
      case CXCursor_ParenExpr: return visitChildren(c, role, seed);
      case CXCursor_UnexposedExpr:
      case CXCursor_MemberRefExpr:
        return visitChildren(c, role == Role::store_target || role == Role::partial_store ? Role::partial_store : Role::value,
                             seed);
      case CXCursor_DeclRefExpr: {
        const CXCursor declared = lc().clang_getCursorReferenced(c);
        if (seed && memoryOnly() && lc().clang_getCursorKind(declared) == CXCursor_VarDecl &&
            isFloating(lc().clang_getCursorType(declared)))
          problem(c, "a floating-point variable decides a branch or an address; the rewriter does not slice "
                     "floating-point arithmetic, so it makes no memory-only mutant");
        return;
      }
      case CXCursor_CompoundStmt: return visitChildren(c, Role::statement, false);
      case CXCursor_IfStmt:
      case CXCursor_WhileStmt: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i)
          visit(parts[i], i == 0 ? Role::value : Role::statement, i == 0);
        return;
      }
      case CXCursor_ForStmt: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i)
          visit(parts[i], i + 1 == parts.size() ? Role::statement : Role::value, i + 1 != parts.size());
        return;
      }
      case CXCursor_DoStmt: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], i == 0 ? Role::statement : Role::value, i != 0);
        return;
      }
      case CXCursor_ConditionalOperator: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], Role::value, seed || i == 0);
        return;
      }
      default: return visitChildren(c, Role::value, seed);
    }
  }

  void unary(CXCursor c, bool seed) {
    const auto t = tokens(c);
    const std::string first = t.empty() ? "" : t.front().first, last = t.empty() ? "" : t.back().first;
    Role role = Role::value;
    if (first == "&") role = Role::address_of;
    if (first == "++" || first == "--" || last == "++" || last == "--") role = Role::increment;
    for (CXCursor child : children(c)) visit(child, role, seed);
  }

  void access(CXCursor c, Role role, bool seed) {
    const auto operands = children(c);
    visit(operands[0], Role::value, true);
    if (operands.size() > 1) visit(operands[1], Role::value, true);
    const CXType type = lc().clang_getCursorType(c);
    switch (role) {
      case Role::store_target:
      case Role::address_of: return;  // the assignment counts the store; & reads nothing
      case Role::partial_store:
        ++result.census.global_stores;
        if (computeOnly()) problem(c, "a store into one lane or member of a global element is not rewritten");
        return;
      case Role::increment:
        ++result.census.global_loads;
        ++result.census.global_stores;
        if (computeOnly()) problem(c, "++ or -- on global memory is not rewritten");
        return;
      case Role::value:
      case Role::statement: break;
    }
    (void)seed;
    ++result.census.global_loads;
    if (!computeOnly()) return;
    const std::string name = openclTypeName(type);
    if (lc().clang_getCanonicalType(type).kind == CXType_Pointer)
      return problem(c, "a pointer loaded from global memory cannot be made up in registers");
    if (!hasFake(name))
      return problem(c, "a global load of type '" + text(lc().clang_getTypeSpelling(type)) + "' has no register stand-in");
    edit(c, fakeLoad(name, {literal("&("), piece(c), literal(")")}));
  }

  // A compute-only global store: computed, then kept behind a condition that is false at run time.
  void guardedStore(CXCursor c, Role role, const std::string& type, std::vector<SourceEdit::Piece> value,
                    std::vector<SourceEdit::Piece> store) {
    if (role != Role::statement) return problem(c, "a global store used inside an expression is not rewritten");
    if (!hasBits(type)) return problem(c, "a global store of type '" + type + "' is not rewritten");
    std::vector<SourceEdit::Piece> p = {literal("do { " + type + " rl_auto_v = (")};
    p.insert(p.end(), value.begin(), value.end());
    p.push_back(literal("); if (rl_auto_bits_" + type + "(rl_auto_v) == RL_NEVER_BITS) "));
    p.insert(p.end(), store.begin(), store.end());
    p.push_back(literal("; } while (0)"));
    edit(c, std::move(p));
  }

  // A memory-only fold in place of a floating-point operation of type `type`.
  void fold(CXCursor c, const std::string& type, const std::vector<std::vector<SourceEdit::Piece>>& operands,
            std::vector<SourceEdit::Piece> prefix = {}) {
    if (!hasFold(type)) return problem(c, "floating-point arithmetic of type '" + type + "' is not folded");
    std::vector<SourceEdit::Piece> p = std::move(prefix);
    std::vector<SourceEdit::Piece> acc = {literal("(" + type + ")(")};
    acc.insert(acc.end(), operands[0].begin(), operands[0].end());
    acc.push_back(literal(")"));
    for (std::size_t i = 1; i < operands.size(); ++i) {
      std::vector<SourceEdit::Piece> next = {literal("rl_auto_fold_" + type + "(")};
      next.insert(next.end(), acc.begin(), acc.end());
      next.push_back(literal(", (" + type + ")("));
      next.insert(next.end(), operands[i].begin(), operands[i].end());
      next.push_back(literal("))"));
      acc = std::move(next);
    }
    if (operands.size() == 1) {  // keep a one-operand function's argument live, not its value
      std::vector<SourceEdit::Piece> next = {literal("rl_auto_fold_" + type + "(")};
      next.insert(next.end(), acc.begin(), acc.end());
      next.push_back(literal(", (" + type + ")(0.5f))"));
      acc = std::move(next);
    }
    p.insert(p.end(), acc.begin(), acc.end());
    edit(c, std::move(p));
  }

  bool hasSideEffects(CXCursor c) const {
    for (const auto& [spelling, offset] : tokens(c))
      if (spelling == "++" || spelling == "--" || spelling == "=" || spelling == "(") return true;
    return false;
  }

  void binary(CXCursor c, Role role, bool seed, bool compound) {
    const auto operands = children(c);
    if (operands.size() != 2) return visitChildren(c, Role::value, seed);
    const CXCursor lhs = operands[0], rhs = operands[1];
    const std::string op = binaryOperator(c, lhs);
    const bool arithmetic = op == "+" || op == "-" || op == "*" || op == "/" || op == "+=" || op == "-=" ||
                            op == "*=" || op == "/=";
    const bool floating_op = arithmetic && isFloating(lc().clang_getCursorType(c));
    const std::string type = openclTypeName(lc().clang_getCursorType(c));
    if (op != "=" && !compound) {
      visitChildren(c, Role::value, seed);
      if (!floating_op) return;
      ++result.census.float_ops;
      if (!memoryOnly()) return;
      if (seed) return problem(c, "a floating-point result decides a branch or an address; the rewriter does not "
                                  "slice floating-point arithmetic, so it makes no memory-only mutant");
      return fold(c, type, {{piece(lhs)}, {piece(rhs)}});
    }
    const CXCursor target = stripParens(lhs);
    const bool global_store = isGlobalAccess(target);
    visit(lhs, Role::store_target, seed);
    visit(rhs, Role::value, seed);
    if (floating_op) ++result.census.float_ops;
    if (global_store) {
      ++result.census.global_stores;
      if (compound) ++result.census.global_loads;
    }
    if (computeOnly() && global_store) {
      const std::string stored = openclTypeName(lc().clang_getCursorType(target));
      std::vector<SourceEdit::Piece> value = {literal("("), piece(rhs), literal(")")};
      if (compound) {
        value = fakeLoad(stored, {literal("&("), piece(lhs), literal(")")});
        value.push_back(literal(" " + op.substr(0, op.size() - 1) + " ("));
        value.push_back(piece(rhs));
        value.push_back(literal(")"));
      }
      return guardedStore(c, role, stored, value, {piece(lhs), literal(" = rl_auto_v")});
    }
    if (memoryOnly() && compound && floating_op) {
      if (hasSideEffects(lhs)) return problem(c, "a compound assignment whose target has side effects is not folded");
      fold(c, type, {{piece(lhs)}, {piece(rhs)}}, {piece(lhs), literal(" = ")});
    }
  }

  void call(CXCursor c, Role role, bool seed) {
    const std::string name = text(lc().clang_getCursorSpelling(c));
    const int n = lc().clang_Cursor_getNumArguments(c);
    std::vector<CXCursor> args;
    for (int i = 0; i < n; ++i) args.push_back(lc().clang_Cursor_getArgument(c, static_cast<unsigned>(i)));
    bool any_global = false;
    for (CXCursor a : args) any_global = any_global || isGlobalPointer(lc().clang_getCursorType(a));
    static const std::regex vload("vload(2|3|4|8|16)"), vstore("vstore(2|3|4|8|16)");
    std::smatch lanes;
    const bool addresses = name.rfind("vload", 0) == 0 || name.rfind("vstore", 0) == 0;
    for (int i = 0; i < n; ++i) visit(args[i], Role::value, seed || (addresses && (i > 0 || name[1] == 'l')));
    if (std::regex_match(name, lanes, vload) && n == 2 && any_global) {
      ++result.census.global_loads;
      if (!computeOnly()) return;
      const std::string type = openclTypeName(lc().clang_getCursorType(c));
      if (!hasFake(type)) return problem(c, "a vload of type '" + type + "' has no register stand-in");
      return edit(c, fakeLoad(type, {literal("("), piece(args[1]), literal(") + (size_t)("), piece(args[0]),
                                     literal(") * " + lanes[1].str())}));
    }
    if (std::regex_match(name, lanes, vstore) && n == 3 && any_global) {
      ++result.census.global_stores;
      if (!computeOnly()) return;
      const std::string type = openclTypeName(lc().clang_getCursorType(args[0]));
      return guardedStore(c, role, type, {piece(args[0])},
                          {literal(name + "(rl_auto_v, "), piece(args[1]), literal(", "), piece(args[2]), literal(")")});
    }
    if ((name.rfind("atomic_", 0) == 0 || name.rfind("atom_", 0) == 0) && any_global) {
      ++result.census.global_loads;
      ++result.census.global_stores;
      if (computeOnly()) problem(c, "atomic operations on global memory are not rewritten");
      return;
    }
    if (!isFloating(lc().clang_getCursorType(c))) return;
    const std::string type = openclTypeName(lc().clang_getCursorType(c));
    if (mathBuiltins().count(name)) {
      ++result.census.float_ops;
      if (!memoryOnly()) return;
      if (seed) return problem(c, "a floating-point result decides a branch or an address; the rewriter does not "
                                  "slice floating-point arithmetic, so it makes no memory-only mutant");
      std::vector<std::vector<SourceEdit::Piece>> operands;
      for (CXCursor a : args) {
        if (!isFloating(lc().clang_getCursorType(a))) return problem(c, "'" + name + "' with a non-floating argument is not folded");
        operands.push_back({piece(a)});
      }
      return fold(c, type, operands);
    }
    if (name == "dot" || name == "length" || name == "distance" || name == "normalize" || name == "cross") {
      ++result.census.float_ops;
      if (memoryOnly()) problem(c, "'" + name + "' is not folded");
    }
  }

  CXTranslationUnit unit_;
  const std::string& text_;
  std::optional<AutoMutantKind> kind_;
  bool editable_ = true;
};

}  // namespace

WalkResult walkKernelSource(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind,
                            const std::vector<std::string>& skip_files) {
  Walk walk(unit, main_text, kind);
  for (CXCursor c : children(lc().clang_getTranslationUnitCursor(unit))) {
    if (lc().clang_getCursorKind(c) != CXCursor_FunctionDecl || !lc().clang_isCursorDefinition(c)) continue;
    const CXSourceLocation at = lc().clang_getCursorLocation(c);
    if (lc().clang_Location_isInSystemHeader(at)) continue;
    CXFile file;
    lc().clang_getExpansionLocation(at, &file, nullptr, nullptr, nullptr);
    const std::string name = file ? text(lc().clang_getFileName(file)) : "";
    if (std::find(skip_files.begin(), skip_files.end(), name) != skip_files.end()) continue;
    walk.function(c, lc().clang_Location_isFromMainFile(at) != 0);
  }
  return walk.result;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
