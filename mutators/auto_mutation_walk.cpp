#if ROOFLAB_HAVE_LIBCLANG
#include "mutators/auto_mutation_walk.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "mutators/auto_mutation_types.hpp"

namespace rooflab::auto_mutation {
namespace {

using namespace clang_types;

enum class Role {
  value,         // read
  statement,     // an expression statement: a store may become a statement of its own
  store_target,  // the left side of an assignment
  address_of,    // the operand of &
  increment,     // the operand of ++ or --
};

// The computation's structure: what decides an address, a branch, a loop bound or an integer
// divisor, found backwards from those uses through assignments, arrays and helper functions. Made
// up values never reach it: compute-only keeps its loads, memory-only its arithmetic.
struct Slice {
  std::set<unsigned> values;        // variables and parameters whose value is in it (by declaration)
  std::set<unsigned> contents;      // arrays and pointees whose elements are (by the array's or pointer's declaration)
  std::set<std::string> returning;  // functions whose result is
  std::size_t size() const { return values.size() + contents.size() + returning.size(); }
};

// A declaration's identity: its offset in the (preprocessed, single) main file, plus one.
unsigned declKey(CXCursor decl) {
  unsigned offset = 0;
  lc().clang_getExpansionLocation(lc().clang_getCursorLocation(decl), nullptr, nullptr, nullptr, &offset);
  return offset + 1;
}

CXCursorKind kindOf(CXCursor c) { return lc().clang_getCursorKind(c); }

// Parentheses and implicit conversions (libclang shows those as unexposed expressions of one child
// with the same extent) are looked through.
CXCursor stripImplicit(CXCursor c) {
  for (;;) {
    const CXCursorKind k = kindOf(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) return c;
    const auto inner = children(c);
    if (inner.size() != 1) return c;
    if (k == CXCursor_UnexposedExpr) {
      // A vector component (`v[i].x`) is unexposed too, and longer than its operand.
      unsigned outer_end = 0, inner_end = 0;
      lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(c)), nullptr, nullptr, nullptr,
                                      &outer_end);
      lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(inner[0])), nullptr, nullptr,
                                      nullptr, &inner_end);
      if (outer_end != inner_end) return c;
    }
    c = inner[0];
  }
}

// Whether `c` is an unexposed vector component (`e.x`, `e.s01`): one operand, a longer extent.
bool isComponent(CXCursor c) {
  if (kindOf(c) != CXCursor_UnexposedExpr) return false;
  const auto inner = children(c);
  if (inner.size() != 1) return false;
  unsigned outer_end = 0, inner_end = 0;
  lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(c)), nullptr, nullptr, nullptr,
                                  &outer_end);
  lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(inner[0])), nullptr, nullptr, nullptr,
                                  &inner_end);
  return outer_end > inner_end;
}

bool isPointer(CXType t) { return lc().clang_getCanonicalType(t).kind == CXType_Pointer; }
bool isArray(CXType t) {
  const CXTypeKind k = lc().clang_getCanonicalType(t).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

class Walk {
 public:
  Walk(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind, Slice& slice,
       const std::map<std::string, CXCursor>& functions, bool analysing)
      : unit_(unit), text_(main_text), kind_(kind), slice_(slice), functions_(functions), analysing_(analysing) {}

  void function(CXCursor f) {
    function_ = text(lc().clang_getCursorSpelling(f));
    for (CXCursor c : children(f))
      if (kindOf(c) == CXCursor_CompoundStmt) visit(c, Role::statement, false);
  }

  WalkResult result;

 private:
  bool computeOnly() const { return !analysing_ && kind_ == AutoMutantKind::compute_only; }
  bool memoryOnly() const { return !analysing_ && kind_ == AutoMutantKind::memory_only; }

  // file:line of the user's file (the preprocessed program's line directives give it).
  std::string where(CXCursor c) const {
    CXString file;
    unsigned line = 0;
    lc().clang_getPresumedLocation(lc().clang_getCursorLocation(c), &file, &line, nullptr);
    std::string name = text(file);
    name = name.substr(name.find_last_of('/') + 1);
    return (name.empty() ? "?" : name) + ":" + std::to_string(line);
  }

  void problem(CXCursor c, const std::string& what) {
    if (kind_ && !analysing_) result.problems.push_back(where(c) + ": " + what);
  }

  // The main-file byte range of a cursor. An end inside a macro of OpenCL's own header (FLT_MAX,
  // CLK_LOCAL_MEM_FENCE: the preprocessed program keeps them) ends after the macro's name.
  bool range(CXCursor c, unsigned& begin, unsigned& end) const {
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

  SourceEdit::Piece piece(CXCursor c) const {
    SourceEdit::Piece p;
    range(c, p.begin, p.end);
    return p;
  }
  static SourceEdit::Piece literal(std::string s) { return {std::move(s), 0, 0}; }

  void edit(CXCursor c, std::vector<SourceEdit::Piece> pieces) {
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
    lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(lhs)), nullptr, nullptr, nullptr,
                                    &lhs_end);
    for (const auto& [spelling, offset] : tokens(c))
      if (offset >= lhs_end) return spelling;
    return "";
  }

  // The declaration a variable reference names (a VarDecl or ParmDecl), or a null cursor.
  static std::optional<CXCursor> variable(CXCursor ref) {
    ref = stripImplicit(ref);
    if (kindOf(ref) != CXCursor_DeclRefExpr) return std::nullopt;
    const CXCursor declared = lc().clang_getCursorReferenced(ref);
    const CXCursorKind k = kindOf(declared);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return std::nullopt;
    return declared;
  }

  // The variable whose elements an access reaches: `a` of a[i], *(a + i), a[i].x, s.f, p->f.
  std::optional<CXCursor> rootOf(CXCursor c) const {
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

  void addValue(CXCursor decl) {
    if (slice_.values.insert(declKey(decl)).second) grew_ = true;
  }
  void addContents(CXCursor decl) {
    if (slice_.contents.insert(declKey(decl)).second) grew_ = true;
  }
  bool valueInSlice(CXCursor decl) const { return slice_.values.count(declKey(decl)) > 0; }
  bool contentsInSlice(CXCursor decl) const { return slice_.contents.count(declKey(decl)) > 0; }

  // A read or write of global (or constant) memory: p[i], *p, p->f, p[i].f.
  bool isGlobalAccess(CXCursor c) const {
    const CXCursorKind k = kindOf(c);
    if (k == CXCursor_MemberRefExpr) {
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
  bool isGlobalComponent(CXCursor c) const {
    if (!isComponent(c)) return false;
    return isGlobalAccess(stripImplicit(children(c)[0]));
  }

  // The text of an element's address for a compute-only value: `&(p[i])`, `(p)` for p->f; a member
  // or lane is set apart from its neighbours by a salt.
  std::vector<SourceEdit::Piece> seedOf(CXCursor access) const {
    const CXCursorKind k = kindOf(access);
    if (k == CXCursor_MemberRefExpr || isComponent(access)) {
      const CXCursor base = stripImplicit(children(access)[0]);
      const unsigned salt = static_cast<unsigned>(std::hash<std::string>{}(text(lc().clang_getCursorSpelling(access))) & 0xffu);
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

  // The value of a compute-only load: made in registers from the element's address.
  std::vector<SourceEdit::Piece> fakeLoad(const std::string& type, std::vector<SourceEdit::Piece> seed) {
    if (type.rfind("double", 0) == 0) result.double_helpers = true;
    std::vector<SourceEdit::Piece> p = {literal("rl_auto_fake_" + type + "(")};
    p.insert(p.end(), seed.begin(), seed.end());
    p.push_back(literal(")"));
    return p;
  }

  void structureLoad(CXCursor c) {
    ++result.census.structure_loads;
    if (!analysing_ && result.first_structure_load.empty()) result.first_structure_load = where(c);
  }
  void structureOperation(CXCursor c, bool floating) {
    ++(floating ? result.census.structure_float_ops : result.census.structure_int_ops);
    if (!analysing_ && floating && result.first_structure_float_op.empty()) result.first_structure_float_op = where(c);
  }

  void visitChildren(CXCursor c, Role role, bool seed) {
    for (CXCursor child : children(c)) visit(child, role, seed);
  }

  void visit(CXCursor c, Role role, bool seed) {
    const CXCursorKind k = kindOf(c);
    switch (k) {
      case CXCursor_ArraySubscriptExpr:
      case CXCursor_UnaryOperator:
        if (isGlobalAccess(c)) return access(c, role, seed);
        if (k == CXCursor_UnaryOperator) return unary(c, role, seed);
        return localSubscript(c, role, seed);
      case CXCursor_MemberRefExpr:
        if (isGlobalAccess(c)) return access(c, role, seed);
        return member(c, role, seed);
      case CXCursor_BinaryOperator: return binary(c, role, seed, false);
      case CXCursor_CompoundAssignOperator: return binary(c, role, seed, true);
      case CXCursor_CallExpr: return call(c, role, seed);
      case CXCursor_ParenExpr: return visitChildren(c, role, seed);
      case CXCursor_UnexposedExpr:
        if (isGlobalComponent(c)) return access(c, role, seed);
        if (isComponent(c)) return member(c, role, seed);
        return visitChildren(c, role == Role::store_target || role == Role::address_of ? role : Role::value, seed);
      case CXCursor_DeclRefExpr: {
        if (!seed || role == Role::address_of) return;  // &x: x's place, not its value
        if (const auto declared = variable(c); declared && !isArray(lc().clang_getCursorType(*declared)))
          addValue(*declared);
        return;
      }
      case CXCursor_VarDecl: {
        // Only the initializer: an array's size is a constant the rewrite must leave alone.
        const CXCursor init = lc().clang_Cursor_getVarDeclInitializer(c);
        if (lc().clang_Cursor_isNull(init)) return;
        const CXType type = lc().clang_getCursorType(c);
        const bool in_slice = isArray(type) ? contentsInSlice(c) : valueInSlice(c);
        return visit(init, Role::value, seed || in_slice);
      }
      case CXCursor_CaseStmt: {
        // The label is a constant; the statement after it is not.
        const auto parts = children(c);
        if (!parts.empty()) visit(parts.back(), Role::statement, false);
        return;
      }
      case CXCursor_ReturnStmt: return visitChildren(c, Role::value, seed || slice_.returning.count(function_) > 0);
      case CXCursor_CompoundStmt: return visitChildren(c, Role::statement, false);
      case CXCursor_UnaryExpr: return;  // sizeof, alignof, vec_step: their operand is not evaluated
      case CXCursor_WhileStmt: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], i == 0 ? Role::value : Role::statement, i == 0);
        return;
      }
      case CXCursor_IfStmt:
      case CXCursor_SwitchStmt: {
        // A condition that only picks values (a clamp, a running minimum) is not the structure; one
        // that decides how much work or memory traffic happens is.
        const auto parts = children(c);
        bool steering = false;
        for (std::size_t i = 1; i < parts.size() && !steering; ++i) steering = steers(parts[i]);
        for (std::size_t i = 0; i < parts.size(); ++i)
          visit(parts[i], i == 0 ? Role::value : Role::statement, i == 0 && steering);
        return;
      }
      case CXCursor_ForStmt: {
        // init, condition, increment decide the trip count; the last part is the body.
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i) {
          const bool body = i + 1 == parts.size();
          const bool declaration = kindOf(parts[i]) == CXCursor_DeclStmt;
          visit(parts[i], body ? Role::statement : Role::value, !body && !declaration);
        }
        return;
      }
      case CXCursor_DoStmt: {
        const auto parts = children(c);
        for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], i == 0 ? Role::statement : Role::value, i != 0);
        return;
      }
      case CXCursor_ConditionalOperator: {
        const auto parts = children(c);
        bool steering = false;
        for (std::size_t i = 1; i < parts.size() && !steering; ++i) steering = steers(parts[i]);
        for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], Role::value, seed || (i == 0 && steering));
        return;
      }
      case CXCursor_DeclStmt:
      case CXCursor_DefaultStmt:
      case CXCursor_LabelStmt: return visitChildren(c, Role::statement, false);
      default: return visitChildren(c, Role::value, seed);
    }
  }

  // Whether a branch arm decides how much work or memory traffic the kernel does, so that its
  // condition must be computed from real values: it loops, synchronises, leaves, calls one of the
  // user's functions, touches local memory or atomics, or (memory-only, where they all happen)
  // global memory. Compute-only makes up its global loads and guards its stores, so a condition
  // choosing between them changes no traffic there.
  bool steers(CXCursor arm) const {
    bool found = false;
    std::function<void(CXCursor)> scan = [&](CXCursor x) {
      if (found) return;
      const CXCursorKind k = kindOf(x);
      if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_ReturnStmt ||
          k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt) {
        found = true;
        return;
      }
      if (k == CXCursor_CallExpr) {
        const std::string name = text(lc().clang_getCursorSpelling(x));
        static const std::regex moves("barrier|mem_fence|read_mem_fence|write_mem_fence|work_group_barrier|"
                                      "wait_group_events|async_work_group_.*|prefetch|atomic_.*|atom_.*|"
                                      "read_image.*|write_image.*");
        static const std::regex global_vectors("vload.*|vstore.*");
        if (functions_.count(name) || std::regex_match(name, moves) ||
            (kind_ != AutoMutantKind::compute_only && std::regex_match(name, global_vectors))) {
          found = true;
          return;
        }
      }
      if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator || k == CXCursor_MemberRefExpr) {
        if (isGlobalAccess(x)) {
          if (kind_ != AutoMutantKind::compute_only) {
            found = true;
            return;
          }
        } else if (k == CXCursor_ArraySubscriptExpr) {
          if (const auto root = rootOf(x)) {
            CXType t = lc().clang_getCursorType(*root);
            const CXType element = isPointer(t) ? lc().clang_getPointeeType(t) : t;
            if (lc().clang_getAddressSpace(element) == kLocalSpace) {
              found = true;
              return;
            }
          }
        }
      }
      for (CXCursor child : children(x)) scan(child);
    };
    scan(arm);
    return found;
  }

  // A subscript of a private or local array (or pointer): its index is an address; reading it in
  // the structure puts the array's contents there.
  void localSubscript(CXCursor c, Role role, bool seed) {
    const auto parts = children(c);
    // The base is an address (a[i] of a[i][j] reads nothing); the indices are the structure.
    for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], i == 0 ? Role::address_of : Role::value, true);
    if (seed && (role == Role::value || role == Role::statement))
      if (const auto root = rootOf(c)) addContents(*root);
  }

  // A member of a private struct or a lane of a private vector: read in the structure, its variable is.
  void member(CXCursor c, Role role, bool seed) {
    const auto parts = children(c);
    for (CXCursor p : parts) visit(p, role == Role::store_target ? Role::store_target : Role::value, seed);
    if (seed && role == Role::value)
      if (const auto root = rootOf(c)) {
        if (isArray(lc().clang_getCursorType(*root))) addContents(*root);
        else addValue(*root);
      }
  }

  // The address of a global access: the pointer and index (or the element of a member) are the structure.
  void accessOperands(CXCursor c) {
    if (kindOf(c) == CXCursor_MemberRefExpr || isComponent(c)) {
      const CXCursor base = stripImplicit(children(c)[0]);
      if (isGlobalAccess(base)) return accessOperands(base);
      return visit(base, Role::value, true);
    }
    for (CXCursor operand : children(c)) visit(operand, Role::value, true);
  }

  void access(CXCursor c, Role role, bool seed) {
    accessOperands(c);
    const CXType type = lc().clang_getCursorType(c);
    const auto root = rootOf(c);
    switch (role) {
      case Role::store_target:
      case Role::address_of: return;  // the assignment counts the store; & reads nothing
      case Role::increment:
        ++result.census.global_loads;
        ++result.census.global_stores;
        return;  // unary() rewrites it
      case Role::value:
      case Role::statement: break;
    }
    ++result.census.global_loads;
    if (seed) {
      // The loaded value decides the structure: both mutants keep this load, and whatever the
      // kernel stored into the same buffer feeds it.
      structureLoad(c);
      if (root) addContents(*root);
      return;
    }
    if (!computeOnly()) return;
    const std::string name = openclTypeName(type);
    if (isPointer(type)) return problem(c, "a pointer loaded from global memory cannot be made up in registers");
    if (!hasFake(name))
      return problem(c, "a global load of type '" + text(lc().clang_getTypeSpelling(type)) + "' has no register stand-in");
    edit(c, fakeLoad(name, seedOf(c)));
  }

  // A compute-only global store: computed, then kept behind a condition that is false at run time.
  void guardedStore(CXCursor c, Role role, const std::string& type, std::vector<SourceEdit::Piece> value,
                    std::vector<SourceEdit::Piece> store) {
    if (role != Role::statement) return problem(c, "a global store used inside an expression is not rewritten");
    if (!hasBits(type)) return problem(c, "a global store of type '" + type + "' is not rewritten");
    if (type.rfind("double", 0) == 0) result.double_helpers = true;
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
    if (!hasFold(type)) return problem(c, "arithmetic of type '" + type + "' is not folded");
    if (type.rfind("double", 0) == 0) result.double_helpers = true;
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

  // Whether evaluating `c` twice could differ from once: an assignment, ++/-- or a call inside it.
  bool hasSideEffects(CXCursor c) const {
    for (const auto& [spelling, offset] : tokens(c))
      if (spelling == "++" || spelling == "--" || spelling == "=" || spelling.find("=") != std::string::npos) {
        if (spelling != "==" && spelling != "<=" && spelling != ">=" && spelling != "!=") return true;
      }
    // OpenCL's built-ins are pure (get_global_id, min, floor) except those that move or order data.
    static const std::regex effects("atomic_.*|atom_.*|vstore.*|write_image.*|async_work_group_.*|barrier|.*mem_fence|"
                                    "prefetch|printf");
    std::function<bool(CXCursor)> calls = [&](CXCursor x) {
      for (CXCursor child : children(x)) {
        if (kindOf(child) == CXCursor_CallExpr) {
          const std::string name = text(lc().clang_getCursorSpelling(child));
          if (functions_.count(name) || std::regex_match(name, effects)) return true;
        }
        if (calls(child)) return true;
      }
      return false;
    };
    return calls(c);
  }

  void unary(CXCursor c, Role role, bool seed) {
    const auto t = tokens(c);
    const std::string first = t.empty() ? "" : t.front().first, last = t.empty() ? "" : t.back().first;
    const bool increment = first == "++" || first == "--" || last == "++" || last == "--";
    Role operand_role = Role::value;
    if (first == "&") operand_role = Role::address_of;
    if (increment) operand_role = Role::increment;
    const auto parts = children(c);
    for (CXCursor child : parts) visit(child, operand_role, seed);
    if (!increment || parts.empty()) return;
    const CXCursor target = stripImplicit(parts[0]);
    if (!isGlobalAccess(target) && !isGlobalComponent(target)) return;
    if (!computeOnly()) return;
    // p[i]++ as a statement: the new value made from a register stand-in, stored behind the guard.
    const std::string type = openclTypeName(lc().clang_getCursorType(target));
    if (!hasFake(type)) return problem(c, "++ or -- on a global element of type '" + type + "' is not rewritten");
    std::vector<SourceEdit::Piece> value = fakeLoad(type, seedOf(target));
    value.push_back(literal(std::string(first == "--" || last == "--" ? " - " : " + ") + "(" + type + ")1"));
    guardedStore(c, role, type, value, {piece(target), literal(" = rl_auto_v")});
  }

  void binary(CXCursor c, Role role, bool seed, bool compound) {
    const auto operands = children(c);
    if (operands.size() != 2) return visitChildren(c, Role::value, seed);
    const CXCursor lhs = operands[0], rhs = operands[1];
    const std::string op = binaryOperator(c, lhs);
    const bool arithmetic = op == "+" || op == "-" || op == "*" || op == "/" || op == "+=" || op == "-=" ||
                            op == "*=" || op == "/=";
    const bool integer_op = op == "+" || op == "-" || op == "*" || op == "/" || op == "%" || op == "&" || op == "|" ||
                            op == "^" || op == "<<" || op == ">>" || op == "+=" || op == "-=" || op == "*=" ||
                            op == "/=" || op == "%=" || op == "&=" || op == "|=" || op == "^=" || op == "<<=" ||
                            op == ">>=";
    const CXType type_of = lc().clang_getCursorType(c);
    const bool floating_op = arithmetic && isFloating(type_of);
    const bool counted_int = integer_op && isIntegral(type_of);
    const bool divides = counted_int && (op == "/" || op == "%" || op == "/=" || op == "%=");
    const std::string type = openclTypeName(type_of);
    if (op != "=" && !compound) {
      const bool pointer_arithmetic = isPointer(type_of);
      visit(lhs, Role::value, seed || pointer_arithmetic);
      visit(rhs, Role::value, seed || divides || pointer_arithmetic);  // a made-up divisor could be 0
      if (!floating_op && !counted_int) return;
      ++(floating_op ? result.census.float_ops : result.census.int_ops);
      if (seed) {
        structureOperation(c, floating_op);
        return;
      }
      if (!memoryOnly()) return;
      return fold(c, type, {{piece(lhs)}, {piece(rhs)}});
    }
    // An assignment: its value is in the structure when its target is.
    const CXCursor target = stripImplicit(lhs);
    const bool global_store = isGlobalAccess(target) || isGlobalComponent(target);
    bool target_in_slice = seed;
    if (const auto v = variable(target)) {
      target_in_slice = target_in_slice || valueInSlice(*v);
    } else if (const auto root = rootOf(target)) {
      target_in_slice = target_in_slice || contentsInSlice(*root);
    }
    visit(lhs, Role::store_target, false);  // an element's address is the structure (access, localSubscript)
    visit(rhs, Role::value, target_in_slice || divides);
    const bool counted = floating_op || (compound && counted_int);
    if (counted) {
      ++(floating_op ? result.census.float_ops : result.census.int_ops);
      if (target_in_slice) structureOperation(c, floating_op);
    }
    if (global_store) {
      ++result.census.global_stores;
      if (compound) ++result.census.global_loads;
    }
    if (computeOnly() && global_store && !target_in_slice) {
      const std::string stored = openclTypeName(lc().clang_getCursorType(target));
      std::vector<SourceEdit::Piece> value = {literal("("), piece(rhs), literal(")")};
      if (compound) {
        if (!hasFake(stored)) return problem(c, "a compound assignment to a global '" + stored + "' is not rewritten");
        value = fakeLoad(stored, seedOf(target));
        value.push_back(literal(" " + op.substr(0, op.size() - 1) + " ("));
        value.push_back(piece(rhs));
        value.push_back(literal(")"));
      }
      return guardedStore(c, role, stored, value, {piece(lhs), literal(" = rl_auto_v")});
    }
    if (memoryOnly() && compound && counted && !target_in_slice) {
      if (hasSideEffects(lhs)) return problem(c, "a compound assignment whose target has side effects is not folded");
      if (!computesSomething(lhs)) return fold(c, type, {{piece(lhs)}, {piece(rhs)}}, {piece(lhs), literal(" = ")});
      // t[f(i)] += v: the element's address is computed once, as the kernel does.
      if (role != Role::statement || isComponent(target))
        return problem(c, "a compound assignment to a computed element is not folded here");
      static const char* const spaces[] = {"__private", "__global", "__local", "__constant", "__private"};
      const unsigned space = lc().clang_getAddressSpace(lc().clang_getCursorType(target));
      const std::string pointer = std::string(space < 5 ? spaces[space] : "__private") + " " + type + "* rl_auto_p";
      std::vector<SourceEdit::Piece> p = {literal("do { " + pointer + " = &("), piece(lhs), literal("); *rl_auto_p = ")};
      const std::size_t edits_before = result.edits.size();
      fold(c, type, {{literal("*rl_auto_p")}, {piece(rhs)}}, p);
      if (result.edits.size() > edits_before) result.edits.back().pieces.push_back(literal("; } while (0)"));
    }
  }

  // Whether an expression holds an operation the census counts (so that writing it twice would count it twice).
  bool computesSomething(CXCursor c) const {
    for (CXCursor child : children(c)) {
      const CXCursorKind k = kindOf(child);
      if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_CallExpr) return true;
      if (computesSomething(child)) return true;
    }
    return false;
  }

  // A user function's arguments join the structure where its parameters do; its result where the
  // call does.
  void userCall(CXCursor c, const std::string& name, const std::vector<CXCursor>& args, bool seed) {
    const CXCursor f = functions_.at(name);
    if (seed && slice_.returning.insert(name).second) grew_ = true;
    std::vector<CXCursor> params;
    for (CXCursor p : children(f))
      if (kindOf(p) == CXCursor_ParmDecl) params.push_back(p);
    for (std::size_t i = 0; i < args.size(); ++i) {
      const bool param_value = i < params.size() && valueInSlice(params[i]);
      const bool param_contents = i < params.size() && contentsInSlice(params[i]);
      visit(args[i], Role::value, seed || param_value);
      if (param_contents)
        if (const auto root = rootOf(args[i])) addContents(*root);
    }
    (void)c;
  }

  void call(CXCursor c, Role role, bool seed) {
    const std::string name = text(lc().clang_getCursorSpelling(c));
    const int n = lc().clang_Cursor_getNumArguments(c);
    std::vector<CXCursor> args;
    for (int i = 0; i < n; ++i) args.push_back(lc().clang_Cursor_getArgument(c, static_cast<unsigned>(i)));
    if (functions_.count(name)) return userCall(c, name, args, seed);
    if (name.rfind("rl_auto_async_out_", 0) == 0) ++result.census.global_stores;  // a mutant's guarded copy out
    bool any_global = false;
    for (CXCursor a : args) any_global = any_global || isGlobalPointer(lc().clang_getCursorType(a));
    static const std::regex vload("vload(2|3|4|8|16)"), vstore("vstore(2|3|4|8|16)");
    std::smatch lanes;
    if (std::regex_match(name, lanes, vload) && n == 2 && any_global) {
      visit(args[0], Role::value, true);
      visit(args[1], Role::value, true);
      ++result.census.global_loads;
      if (seed) {
        structureLoad(c);
        if (const auto root = rootOf(args[1])) addContents(*root);
        return;
      }
      if (!computeOnly()) return;
      const std::string type = openclTypeName(lc().clang_getCursorType(c));
      if (!hasFake(type)) return problem(c, "a vload of type '" + type + "' has no register stand-in");
      // The address computed in the prelude: no operation of the mutant's own that the original lacks.
      return edit(c, fakeLoad(type, {literal("rl_auto_seed_vector((ulong)("), piece(args[1]), literal("), (ulong)("),
                                     piece(args[0]), literal("), " + lanes[1].str() + "u, (uint)sizeof(*("),
                                     piece(args[1]), literal(")))")}));
    }
    if (std::regex_match(name, lanes, vstore) && n == 3 && any_global) {
      const auto root = rootOf(args[2]);
      visit(args[0], Role::value, seed || (root && contentsInSlice(*root)));
      visit(args[1], Role::value, true);
      visit(args[2], Role::value, true);
      ++result.census.global_stores;
      if (!computeOnly()) return;
      const std::string type = openclTypeName(lc().clang_getCursorType(args[0]));
      return guardedStore(c, role, type, {piece(args[0])},
                          {literal(name + "(rl_auto_v, "), piece(args[1]), literal(", "), piece(args[2]), literal(")")});
    }
    if ((name.rfind("atomic_", 0) == 0 || name.rfind("atom_", 0) == 0) && any_global) return atomic(c, role, seed, name, args);
    if (name == "async_work_group_copy" && n == 4) return asyncCopy(c, role, seed, args);
    if (name == "async_work_group_strided_copy" && any_global) {
      for (CXCursor a : args) visit(a, Role::value, true);
      ++result.census.global_loads;
      if (computeOnly()) problem(c, "'async_work_group_strided_copy' moves global data and is not rewritten");
      return;
    }
    if (name == "prefetch") {
      for (CXCursor a : args) visit(a, Role::value, true);
      if (computeOnly()) edit(c, {literal("((void)0)")});  // a hint that moves global data: dropped
      return;
    }
    if (name.rfind("read_image", 0) == 0 || name.rfind("write_image", 0) == 0) {
      for (CXCursor a : args) visit(a, Role::value, true);
      ++(name[0] == 'r' ? result.census.global_loads : result.census.global_stores);
      if (computeOnly()) problem(c, "'" + name + "' moves image data and is not rewritten");
      return;
    }
    const bool select_call = name == "select" && n == 3;
    // Synchronisation takes constant flags and the events of copies: never folded.
    static const std::set<std::string> synchronisation = {"barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
                                                          "work_group_barrier"};
    const bool synchronises = synchronisation.count(name) > 0;
    for (int i = 0; i < n; ++i) visit(args[i], Role::value, seed || synchronises || (select_call && i == 2));
    if (!isFloating(lc().clang_getCursorType(c)) && name != "dot" && name != "length" && name != "distance") return;
    const std::string type = openclTypeName(lc().clang_getCursorType(c));
    if (mathBuiltins().count(name)) {
      ++result.census.float_ops;
      if (seed) {
        structureOperation(c, true);
        return;
      }
      if (!memoryOnly()) return;
      std::vector<std::vector<SourceEdit::Piece>> operands;
      for (CXCursor a : args) {
        if (!isFloating(lc().clang_getCursorType(a))) return problem(c, "'" + name + "' with a non-floating argument is not folded");
        operands.push_back({piece(a)});
      }
      return fold(c, type, operands);
    }
    if (name == "dot" || name == "length" || name == "distance" || name == "normalize" || name == "cross") {
      ++result.census.float_ops;
      if (seed) {
        structureOperation(c, true);
        return;
      }
      if (!memoryOnly()) return;
      // Vector to scalar: the lanes of each operand folded together first.
      if (name == "normalize" || name == "cross") {
        std::vector<std::vector<SourceEdit::Piece>> operands;
        for (CXCursor a : args) operands.push_back({piece(a)});
        return fold(c, type, operands);
      }
      std::vector<std::vector<SourceEdit::Piece>> operands;
      for (CXCursor a : args) {
        const std::string arg_type = openclTypeName(lc().clang_getCursorType(a));
        if (arg_type == type) {
          operands.push_back({piece(a)});
        } else {
          if (!hasFold(arg_type)) return problem(c, "'" + name + "' of '" + arg_type + "' is not folded");
          operands.push_back({literal("rl_auto_lanes_" + arg_type + "("), piece(a), literal(")")});
        }
      }
      return fold(c, type, operands);
    }
  }

  // An atomic read-modify-write of global memory: memory-only keeps it; compute-only computes its
  // operand and keeps the atomic behind the run-time false condition.
  void atomic(CXCursor c, Role role, bool seed, const std::string& name, const std::vector<CXCursor>& args) {
    const auto root = args.empty() ? std::nullopt : rootOf(args[0]);
    for (std::size_t i = 0; i < args.size(); ++i)
      visit(args[i], Role::value, i == 0 || seed || (root && contentsInSlice(*root)));
    ++result.census.global_atomics;
    if (seed && root) addContents(*root);
    if (!computeOnly()) return;
    if (role != Role::statement)
      return problem(c, "the value an atomic ('" + name + "') reads from global memory is used; it cannot be made up");
    if (args.size() >= 2) {
      const std::string type = openclTypeName(lc().clang_getCursorType(args.back()));
      std::vector<SourceEdit::Piece> call = {literal(name + "(")};
      for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        call.push_back(piece(args[i]));
        call.push_back(literal(", "));
      }
      call.push_back(literal("rl_auto_v)"));
      return guardedStore(c, role, type, {piece(args.back())}, call);
    }
    // atomic_inc(p): no operand to compute; kept behind a condition the compiler cannot decide.
    edit(c, {literal("do { if (rl_auto_bits_uint((uint)get_global_id(0)) == RL_NEVER_BITS) "), piece(c),
             literal("; } while (0)")});
  }

  // async_work_group_copy(dst, src, n, event): global to local is a load, local to global a store.
  void asyncCopy(CXCursor c, Role role, bool seed, const std::vector<CXCursor>& args) {
    (void)role;
    for (CXCursor a : args) visit(a, Role::value, true);
    const bool from_global = isGlobalPointer(lc().clang_getCursorType(args[1]));
    if (!from_global) {
      ++result.census.global_stores;
      if (!computeOnly()) return;
      // Each work item reads its share of the local data and stores it behind the run-time false
      // condition; an empty copy gives the kernel its event.
      const std::string type = openclTypeName(lc().clang_getPointeeType(lc().clang_getCursorType(args[0])));
      if (!hasBits(type)) return problem(c, "'async_work_group_copy' of '" + type + "' to global memory is not rewritten");
      if (type.rfind("double", 0) == 0) result.double_helpers = true;
      return edit(c, {literal("rl_auto_async_out_" + type + "("), piece(args[0]), literal(", "), piece(args[1]),
                       literal(", (size_t)("), piece(args[2]), literal("), "), piece(args[3]), literal(")")});
    }
    ++result.census.global_loads;
    const auto local_root = rootOf(args[0]);
    if (seed || (local_root && contentsInSlice(*local_root))) {
      structureLoad(c);
      if (const auto root = rootOf(args[1])) addContents(*root);
      return;
    }
    if (!computeOnly()) return;
    // The local copy filled with register stand-ins by the work-group, and an empty copy for the event.
    const CXType pointee = lc().clang_getPointeeType(lc().clang_getCursorType(args[0]));
    const std::string type = openclTypeName(pointee);
    if (!hasFake(type)) return problem(c, "'async_work_group_copy' of '" + type + "' has no register stand-in");
    if (type.rfind("double", 0) == 0) result.double_helpers = true;
    edit(c, {literal("(rl_auto_fill_local_" + type + "("), piece(args[0]), literal(", (ulong)("), piece(args[1]),
             literal("), (size_t)("), piece(args[2]), literal(")), rl_auto_async_none_" + type + "("), piece(args[0]),
             literal(", "), piece(args[1]), literal(", "), piece(args[3]), literal("))")});
  }

  CXTranslationUnit unit_;
  const std::string& text_;
  std::optional<AutoMutantKind> kind_;
  Slice& slice_;
  const std::map<std::string, CXCursor>& functions_;
  bool analysing_;
  std::string function_;

 public:
  bool grew_ = false;
};

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
      const bool any = std::any_of(params.begin(), params.end(), [&](unsigned p) { return slice.contents.count(p) > 0; });
      if (any)
        for (unsigned p : params) grew = slice.contents.insert(p).second || grew;
    }
    if (!grew) break;
  }
  Walk walk(unit, main_text, kind, slice, functions, false);
  for (CXCursor f : reached) walk.function(f);
  return walk.result;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
