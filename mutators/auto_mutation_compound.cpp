#if ROOFLAB_HAVE_LIBCLANG
// The automatic mutants' rewrites of a global element's read-modify-write (`c[2*i+1] *= beta`,
// `p[i].x += v`, `v[i].s0 -= w`, `c[k++] |= m`, `a[j*n+i]++`): its address is taken once, into a
// pointer, so that the index's operations are counted, and its side effects happen, once, as in the
// kernel; writing the target twice would make the mutant's census differ from the original's.
#include "mutators/auto_mutation_walker.hpp"

#include <cctype>

namespace rooflab::auto_mutation {

std::optional<Walk::OnceAddressed> Walk::addressOnce(CXCursor target) {
  // A vector lane has no address of its own: the vector's is taken, the lane read through it.
  const bool lane = isComponent(target);
  const CXCursor element = lane ? stripImplicit(children(target)[0]) : target;
  const CXType element_type = lc().clang_getCursorType(element);
  const std::string type = openclTypeName(element_type);
  if (type.empty()) {
    problem(target, "a read-modify-write of an element of type '" + text(lc().clang_getTypeSpelling(element_type)) +
                        "' is not rewritten");
    return std::nullopt;
  }
  static const char* const spaces[] = {"__private", "__global", "__local", "__constant", "__private"};
  const unsigned space = lc().clang_getAddressSpace(element_type);
  OnceAddressed out;
  out.declaration = {literal(std::string(space < 5 ? spaces[space] : "__private") + " " + type + "* rl_auto_p = &("),
                     piece(element), literal("); ")};
  out.access = "(*rl_auto_p)";
  out.seed = {literal("rl_auto_seed((ulong)(rl_auto_p))")};
  if (lane) {
    unsigned element_begin = 0, element_end = 0, target_begin = 0, target_end = 0;
    if (!range(element, element_begin, element_end) || !range(target, target_begin, target_end)) {
      problem(target, "a vector lane has no place of its own in the preprocessed program (an internal limit)");
      return std::nullopt;
    }
    const std::string suffix = text_.substr(element_end, target_end - element_end);  // ".s0", ".y"
    out.access += suffix;
    out.seed = {literal("rl_auto_seed_lane((ulong)(rl_auto_p), " +
                        std::to_string(std::hash<std::string>{}(suffix)&0xffu) + "u)")};
  }
  return out;
}

bool Walk::addressedOnce(CXCursor target) const { return computesSomething(target) || hasSideEffects(target); }

void Walk::compoundStore(CXCursor c, Role role, CXCursor lhs, CXCursor rhs, const std::string& op) {
  const CXCursor target = stripImplicit(lhs);
  const std::string stored = openclTypeName(lc().clang_getCursorType(target));
  if (!hasFake(stored)) return problem(c, "a compound assignment to a global '" + stored + "' is not rewritten");
  const std::string operation = " " + op.substr(0, op.size() - 1) + " (";
  if (!addressedOnce(target)) {
    std::vector<SourceEdit::Piece> value = fakeLoad(stored, seedOf(target));
    value.insert(value.end(), {literal(operation), piece(rhs), literal(")")});
    return guardedStore(c, role, stored, value, {piece(lhs), literal(" = rl_auto_v")}, {}, true);
  }
  const auto once = addressOnce(target);
  if (!once) return;
  std::vector<SourceEdit::Piece> value = fakeLoad(stored, once->seed);
  value.insert(value.end(), {literal(operation), piece(rhs), literal(")")});
  guardedStore(c, role, stored, value, {literal(once->access + " = rl_auto_v")}, once->declaration, true);
}

void Walk::incrementStore(CXCursor c, Role role, CXCursor target, bool decrement) {
  const std::string type = openclTypeName(lc().clang_getCursorType(target));
  // A scalar of the prelude's types (OpenCL has no ++ on vectors).
  if (!hasFake(type) || std::isdigit(static_cast<unsigned char>(type.back())))
    return problem(c, "++ or -- on a global element of type '" + type + "' is not rewritten");
  if (type == "double") result.double_helpers = true;
  // The step in a helper: the original's ++ is no operation the census counts, nor may the mutant's be.
  const auto stepped = [&](std::vector<SourceEdit::Piece> seed) {
    std::vector<SourceEdit::Piece> value = {literal("rl_auto_step_" + type + "(")};
    const std::vector<SourceEdit::Piece> fake = fakeLoad(type, std::move(seed));
    value.insert(value.end(), fake.begin(), fake.end());
    value.push_back(literal(", (" + type + ")" + (decrement ? "-1" : "1") + ")"));
    return value;
  };
  if (!addressedOnce(target))
    return guardedStore(c, role, type, stepped(seedOf(target)), {piece(target), literal(" = rl_auto_v")}, {}, true);
  const auto once = addressOnce(target);
  if (!once) return;
  guardedStore(c, role, type, stepped(once->seed), {literal(once->access + " = rl_auto_v")}, once->declaration, true);
}

void Walk::compoundFold(CXCursor c, Role role, CXCursor lhs, CXCursor rhs, const std::string& type) {
  const CXCursor target = stripImplicit(lhs);
  if (!addressedOnce(target)) return fold(c, type, {operand(lhs), operand(rhs)}, {piece(lhs), literal(" = ")});
  if (role != Role::statement)
    return problem(c, "a compound assignment to a computed element, used inside an expression, is not folded");
  const auto once = addressOnce(target);
  if (!once) return;
  std::vector<SourceEdit::Piece> p = {literal("do { ")};
  p.insert(p.end(), once->declaration.begin(), once->declaration.end());
  p.push_back(literal(once->access + " = "));
  const std::size_t edits_before = result.edits.size();
  fold(c, type, {operand(lhs, {literal(once->access)}), operand(rhs)}, p);
  if (result.edits.size() > edits_before) result.edits.back().pieces.push_back(literal("; } while (0)"));
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
