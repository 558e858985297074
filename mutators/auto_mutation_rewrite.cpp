#if ROOFLAB_HAVE_LIBCLANG
// The automatic mutants' rewrites of global accesses and operators: made-up loads, guarded stores,
// folds of arithmetic outside the structure.
#include "mutators/auto_mutation_walker.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>

namespace rooflab::auto_mutation {

void Walk::access(CXCursor c, Role role, bool seed) {
  accessOperands(c);
  const CXType type = lc().clang_getCursorType(c);
  const auto root = rootOf(c);
  switch (role) {
    case Role::store_target:
    case Role::address_of: return;  // the assignment counts the store; & reads nothing
    case Role::increment:
      tally(c, &SourceCensus::global_loads);
      tally(c, &SourceCensus::global_stores);
      traffic(c, c, true, false, true);
      return;  // unary() rewrites it
    case Role::value:
    case Role::statement: break;
  }
  tally(c, &SourceCensus::global_loads);
  traffic(c, c, true, seed, false);
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
    return problem(c,
                   "a global load of type '" + text(lc().clang_getTypeSpelling(type)) + "' has no register stand-in");
  edit(c, fakeLoad(name, seedOf(c)), {MutantLineChangeKind::made_up});
}

// A compute-only global store: computed, then kept behind a condition that is false at run time.
void Walk::guardedStore(CXCursor c, Role role, const std::string& type, std::vector<SourceEdit::Piece> value,
                        std::vector<SourceEdit::Piece> store, std::vector<SourceEdit::Piece> before, bool made_up) {
  if (role != Role::statement) return problem(c, "a global store used inside an expression is not rewritten");
  if (!hasBits(type)) return problem(c, "a global store of type '" + type + "' is not rewritten");
  if (type.rfind("double", 0) == 0) result.double_helpers = true;
  std::vector<SourceEdit::Piece> p = {literal("do { ")};
  p.insert(p.end(), before.begin(), before.end());
  p.push_back(literal(type + " rl_auto_v = ("));
  p.insert(p.end(), value.begin(), value.end());
  p.push_back(literal("); if (rl_auto_bits_" + type + "(rl_auto_v) == " + kMutantKeyParameter + ") "));
  p.insert(p.end(), store.begin(), store.end());
  p.push_back(literal("; } while (0)"));
  if (made_up) return edit(c, std::move(p), {MutantLineChangeKind::made_up, MutantLineChangeKind::guarded});
  edit(c, std::move(p), {MutantLineChangeKind::guarded});
}

Walk::FoldOperand Walk::operand(CXCursor c, std::vector<SourceEdit::Piece> pieces) const {
  return {std::move(pieces), carriesData(c) || hasSideEffects(c), kindOf(stripImplicit(c)) == CXCursor_DeclRefExpr};
}

// A memory-only fold in place of a floating-point operation of type `type`. Arithmetic on values
// that never came from memory (a chain of registers, a scalar argument, a literal) is dropped: the
// mutant's loads stay live through the values that did, and the mutant never runs longer chains
// of operations than the original.
void Walk::fold(CXCursor c, const std::string& type, std::vector<FoldOperand> operands,
                std::vector<SourceEdit::Piece> prefix) {
  if (!hasFold(type)) return problem(c, "arithmetic of type '" + type + "' is not folded");
  const bool one_operand = operands.size() == 1;
  std::vector<FoldOperand> kept;
  for (const FoldOperand& o : operands)
    if (o.kept) kept.push_back(o);
  // An element alone (`counts[bin] += 1` would become `counts[bin] = counts[bin]`) is a copy the
  // compiler may delete with the access, and the loads that only its address needed: such a fold
  // keeps one dropped operand.
  if (kept.size() == 1 && operands.size() > 1 && !kept[0].plain_variable)
    for (const FoldOperand& o : operands)
      if (!o.kept) {
        kept.push_back(o);
        break;
      }
  std::vector<SourceEdit::Piece> p = std::move(prefix);
  if (kept.empty()) {
    p.push_back(literal("(" + type + ")("));
    p.insert(p.end(), operands[0].pieces.begin(), operands[0].pieces.end());
    p.push_back(literal(")"));
    return edit(c, std::move(p), {MutantLineChangeKind::folded});
  }
  if (type.rfind("double", 0) == 0) result.double_helpers = true;
  std::vector<SourceEdit::Piece> acc = {literal("(" + type + ")(")};
  acc.insert(acc.end(), kept[0].pieces.begin(), kept[0].pieces.end());
  acc.push_back(literal(")"));
  for (std::size_t i = 1; i < kept.size(); ++i) {
    std::vector<SourceEdit::Piece> next = {literal("rl_auto_fold_" + type + "(")};
    next.insert(next.end(), acc.begin(), acc.end());
    next.push_back(literal(", (" + type + ")("));
    next.insert(next.end(), kept[i].pieces.begin(), kept[i].pieces.end());
    next.push_back(literal("))"));
    acc = std::move(next);
  }
  if (one_operand) {  // keep a one-operand function's argument live, not its value
    std::vector<SourceEdit::Piece> next = {literal("rl_auto_fold_" + type + "(")};
    next.insert(next.end(), acc.begin(), acc.end());
    next.push_back(literal(", (" + type + ")(0.5f))"));
    acc = std::move(next);
  }
  p.insert(p.end(), acc.begin(), acc.end());
  edit(c, std::move(p), {MutantLineChangeKind::folded});
}

// Whether evaluating `c` twice could differ from once: an assignment, ++/-- or a call inside it.
bool Walk::hasSideEffects(CXCursor c) const {
  static const std::set<std::string> writes = {
      "++", "--", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  for (const auto& [spelling, offset] : tokens(c))
    if (writes.count(spelling)) return true;
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

void Walk::unary(CXCursor c, Role role, bool seed) {
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
  incrementStore(c, role, target, first == "--" || last == "--");
}

void Walk::binary(CXCursor c, Role role, bool seed, bool compound) {
  const auto operands = children(c);
  if (operands.size() != 2) return visitChildren(c, Role::value, seed);
  const CXCursor lhs = operands[0], rhs = operands[1];
  const std::string op = binaryOperator(c, lhs);
  const bool arithmetic =
      op == "+" || op == "-" || op == "*" || op == "/" || op == "+=" || op == "-=" || op == "*=" || op == "/=";
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
    tally(c, floating_op ? &SourceCensus::float_ops : &SourceCensus::int_ops);
    if (seed) {
      structureOperation(c, floating_op);
      return;
    }
    if (!memoryOnly()) return;
    return fold(c, type, {operand(lhs), operand(rhs)});
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
    tally(c, floating_op ? &SourceCensus::float_ops : &SourceCensus::int_ops);
    if (target_in_slice) structureOperation(c, floating_op);
  }
  if (global_store) {
    tally(c, &SourceCensus::global_stores);
    if (compound) tally(c, &SourceCensus::global_loads);
    traffic(c, target, compound, compound && target_in_slice, true);
  } else if (op == "=") {
    if (const auto v = variable(target)) alias(*v, rhs);  // a pointer variable pointed elsewhere
  }
  if (computeOnly() && global_store && !target_in_slice) {
    if (compound) return compoundStore(c, role, lhs, rhs, op);
    const std::string stored = openclTypeName(lc().clang_getCursorType(target));
    return guardedStore(c, role, stored, {literal("("), piece(rhs), literal(")")},
                        {piece(lhs), literal(" = rl_auto_v")});
  }
  if (memoryOnly() && compound && counted && !target_in_slice) compoundFold(c, role, lhs, rhs, type);
}

// Whether an expression holds an operation the census counts (so that writing it twice would count it twice).
bool Walk::computesSomething(CXCursor c) const {
  for (CXCursor child : children(c)) {
    const CXCursorKind k = kindOf(child);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_CallExpr) return true;
    if (computesSomething(child)) return true;
  }
  return false;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
