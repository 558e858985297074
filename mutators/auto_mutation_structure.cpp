#if ROOFLAB_HAVE_LIBCLANG
// The automatic mutants' walk through statements: which conditions, indices and arguments belong to
// the computation's structure, and how it grows through variables, arrays and helper functions.
#include "mutators/auto_mutation_walker.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>

namespace rooflab::auto_mutation {

void Walk::visit(CXCursor c, Role role, bool seed) {
  const CXCursorKind k = kindOf(c);
  switch (k) {
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
      if (isGlobalAccess(c)) return access(c, role, seed);
      if (k == CXCursor_UnaryOperator) return unary(c, role, seed);
      return localSubscript(c, role, seed);
    case CXCursor_MemberRefExpr:
      if (isArray(lc().clang_getCursorType(c))) {
        // s->a, p[i].a: where the array is, the structure (the subscript around it is the access).
        const auto base = children(c);
        const CXCursor b = base.empty() ? c : stripImplicit(base[0]);
        if (!base.empty() && isGlobalPointer(lc().clang_getCursorType(b))) return visit(b, Role::value, true);
        if (!base.empty() && isGlobalAccess(b)) return accessOperands(b);
      }
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
    case CXCursor_ConditionalOperator: {
      const auto parts = children(c);
      bool steering = false;
      for (std::size_t i = 1; i < parts.size() && !steering; ++i) steering = steers(parts[i]);
      for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], Role::value, seed || (i == 0 && steering));
      return;
    }
    case CXCursor_UnaryExpr: return;  // sizeof, alignof, vec_step: their operand is not evaluated
    default: return visitStatement(c, seed);
  }
}

// Statements, and the declarations they hold; visit takes the expressions.
void Walk::visitStatement(CXCursor c, bool seed) {
  switch (kindOf(c)) {
    case CXCursor_VarDecl: {
      // Only the initializer: an array's size is a constant the rewrite must leave alone.
      const CXCursor init = lc().clang_Cursor_getVarDeclInitializer(c);
      if (lc().clang_Cursor_isNull(init)) return;
      const CXType type = lc().clang_getCursorType(c);
      alias(c, init);
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
bool Walk::steers(CXCursor arm) const {
  bool found = false;
  std::function<void(CXCursor)> scan = [&](CXCursor x) {
    if (found) return;
    const CXCursorKind k = kindOf(x);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_ReturnStmt ||
        k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt) {
      found = true;
      return;
    }
    // An arm that sets what decides the structure (lo = mid + 1 in a search) is control it depends on.
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) {
      const auto parts = children(x);
      if (!parts.empty() && assignsStructure(x, parts[0])) {
        found = true;
        return;
      }
    }
    if (k == CXCursor_VarDecl && (valueInSlice(x) || contentsInSlice(x))) {
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

// Whether `op` (an assignment, a compound assignment, ++ or --) writes a variable or array of the
// structure through its target `target`.
bool Walk::assignsStructure(CXCursor op, CXCursor target) const {
  const CXCursorKind k = kindOf(op);
  if (k == CXCursor_BinaryOperator && binaryOperator(op, target) != "=") return false;
  if (k == CXCursor_UnaryOperator) {
    const auto t = tokens(op);
    const bool increment = !t.empty() && (t.front().first == "++" || t.front().first == "--" ||
                                          t.back().first == "++" || t.back().first == "--");
    if (!increment) return false;
  }
  const CXCursor stripped = stripImplicit(target);
  if (const auto v = variable(stripped)) return valueInSlice(*v);
  if (const auto root = rootOf(stripped)) return contentsInSlice(*root);
  return false;
}

// A subscript of a private or local array (or pointer): its index is an address; reading it in
// the structure puts the array's contents there.
void Walk::localSubscript(CXCursor c, Role role, bool seed) {
  const auto parts = children(c);
  // The base is an address (a[i] of a[i][j] reads nothing); the indices are the structure.
  for (std::size_t i = 0; i < parts.size(); ++i) visit(parts[i], i == 0 ? Role::address_of : Role::value, true);
  if (seed && (role == Role::value || role == Role::statement))
    if (const auto root = rootOf(c)) addContents(*root);
}

// A member of a private struct or a lane of a private vector: read in the structure, its variable is.
void Walk::member(CXCursor c, Role role, bool seed) {
  const auto parts = children(c);
  for (CXCursor p : parts) visit(p, role == Role::store_target ? Role::store_target : Role::value, seed);
  if (seed && role == Role::value)
    if (const auto root = rootOf(c)) {
      if (isArray(lc().clang_getCursorType(*root))) addContents(*root);
      else addValue(*root);
    }
}

// The address of a global access: the pointer and index (or the element of a member) are the structure.
void Walk::accessOperands(CXCursor c) {
  if (kindOf(c) == CXCursor_MemberRefExpr || isComponent(c)) {
    const CXCursor base = stripImplicit(children(c)[0]);
    if (isGlobalAccess(base)) return accessOperands(base);
    return visit(base, Role::value, true);
  }
  for (CXCursor operand : children(c)) visit(operand, Role::value, true);
}

// A user function's arguments join the structure where its parameters do; its result where the
// call does.
void Walk::userCall(CXCursor c, const std::string& name, const std::vector<CXCursor>& args, bool seed) {
  const CXCursor f = functions_.at(name);
  if (seed && slice_.returning.insert(name).second) grew_ = true;
  std::vector<CXCursor> params;
  for (CXCursor p : children(f))
    if (kindOf(p) == CXCursor_ParmDecl) params.push_back(p);
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i < params.size()) alias(params[i], args[i]);
    const bool param_value = i < params.size() && valueInSlice(params[i]);
    const bool param_contents = i < params.size() && contentsInSlice(params[i]);
    visit(args[i], Role::value, seed || param_value);
    if (param_contents)
      if (const auto root = rootOf(args[i])) addContents(*root);
  }
  (void)c;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
