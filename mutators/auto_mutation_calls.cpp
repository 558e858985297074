#if ROOFLAB_HAVE_LIBCLANG
// The automatic mutants' handling of calls: vector loads and stores, atomics, asynchronous copies,
// prefetch, images, math built-ins; user functions are walked as part of the structure.
#include "mutators/auto_mutation_walker.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>

namespace rooflab::auto_mutation {

void Walk::call(CXCursor c, Role role, bool seed) {
  const std::string name = text(lc().clang_getCursorSpelling(c));
  const int n = lc().clang_Cursor_getNumArguments(c);
  std::vector<CXCursor> args;
  for (int i = 0; i < n; ++i) args.push_back(lc().clang_Cursor_getArgument(c, static_cast<unsigned>(i)));
  if (functions_.count(name)) return userCall(c, name, args, seed);
  if (name.rfind("rl_auto_async_out_", 0) == 0) tally(c, &SourceCensus::global_stores);  // a mutant's guarded copy out
  bool any_global = false;
  for (CXCursor a : args) any_global = any_global || isGlobalPointer(lc().clang_getCursorType(a));
  static const std::regex vload("vload(2|3|4|8|16)"), vstore("vstore(2|3|4|8|16)");
  std::smatch lanes;
  if (std::regex_match(name, lanes, vload) && n == 2 && any_global) return vectorLoad(c, seed, lanes[1].str(), args);
  if (std::regex_match(name, lanes, vstore) && n == 3 && any_global) return vectorStore(c, role, seed, name, args);
  if ((name.rfind("atomic_", 0) == 0 || name.rfind("atom_", 0) == 0) && any_global)
    return atomic(c, role, seed, name, args);
  if (name == "async_work_group_copy" && n == 4) return asyncCopy(c, role, seed, args);
  if (name == "async_work_group_strided_copy" && any_global) {
    for (CXCursor a : args) visit(a, Role::value, true);
    tally(c, &SourceCensus::global_loads);
    traffic(c, isGlobalPointer(lc().clang_getCursorType(args[1])) ? args[1] : args[0], true, false, false);
    if (computeOnly()) problem(c, "'async_work_group_strided_copy' moves global data and is not rewritten");
    return;
  }
  if (name == "prefetch") {
    for (CXCursor a : args) visit(a, Role::value, true);
    if (computeOnly())
      edit(c, {literal("((void)0)")}, {MutantLineChangeKind::removed});  // a hint that moves global data: dropped
    return;
  }
  if (name.rfind("read_image", 0) == 0 || name.rfind("write_image", 0) == 0) {
    for (CXCursor a : args) visit(a, Role::value, true);
    tally(c, name[0] == 'r' ? &SourceCensus::global_loads : &SourceCensus::global_stores);
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
  if (mathBuiltins().count(name)) return mathBuiltin(c, seed, name, type, args);
  if (name == "dot" || name == "length" || name == "distance" || name == "normalize" || name == "cross")
    return geometricBuiltin(c, seed, name, type, args);
}

void Walk::vectorLoad(CXCursor c, bool seed, const std::string& lanes, const std::vector<CXCursor>& args) {
  visit(args[0], Role::value, true);
  visit(args[1], Role::value, true);
  tally(c, &SourceCensus::global_loads);
  traffic(c, args[1], true, seed, false);
  if (seed) {
    structureLoad(c);
    if (const auto root = rootOf(args[1])) addContents(*root);
    return;
  }
  if (!computeOnly()) return;
  const std::string type = openclTypeName(lc().clang_getCursorType(c));
  if (!hasFake(type)) return problem(c, "a vload of type '" + type + "' has no register stand-in");
  // The address computed in the prelude: no operation of the mutant's own that the original lacks.
  return edit(
      c,
      fakeLoad(type, {literal("rl_auto_seed_vector((ulong)("), piece(args[1]), literal("), (ulong)("), piece(args[0]),
                      literal("), " + lanes + "u, (uint)sizeof(*("), piece(args[1]), literal(")))")}),
      {MutantLineChangeKind::made_up});
}

void Walk::vectorStore(CXCursor c, Role role, bool seed, const std::string& name, const std::vector<CXCursor>& args) {
  const auto root = rootOf(args[2]);
  visit(args[0], Role::value, seed || (root && contentsInSlice(*root)));
  visit(args[1], Role::value, true);
  visit(args[2], Role::value, true);
  tally(c, &SourceCensus::global_stores);
  traffic(c, args[2], false, false, true);
  if (!computeOnly()) return;
  const std::string type = openclTypeName(lc().clang_getCursorType(args[0]));
  return guardedStore(c, role, type, {piece(args[0])},
                      {literal(name + "(rl_auto_v, "), piece(args[1]), literal(", "), piece(args[2]), literal(")")});
}

// A floating-point builtin is counted as an operation; a seed structures the compute-only mutant
// around it, and the memory-only mutant folds it (whether to fold is what this returns).
bool Walk::floatBuiltinToFold(CXCursor c, bool seed) {
  tally(c, &SourceCensus::float_ops);
  if (seed) {
    structureOperation(c, true);
    return false;
  }
  return memoryOnly();
}

void Walk::mathBuiltin(CXCursor c, bool seed, const std::string& name, const std::string& type,
                       const std::vector<CXCursor>& args) {
  if (!floatBuiltinToFold(c, seed)) return;
  std::vector<FoldOperand> operands;
  for (CXCursor a : args) {
    if (!isFloating(lc().clang_getCursorType(a)))
      return problem(c, "'" + name + "' with a non-floating argument is not folded");
    operands.push_back(operand(a));
  }
  return fold(c, type, operands);
}

void Walk::geometricBuiltin(CXCursor c, bool seed, const std::string& name, const std::string& type,
                            const std::vector<CXCursor>& args) {
  if (!floatBuiltinToFold(c, seed)) return;
  // Vector to scalar: the lanes of each operand folded together first.
  if (name == "normalize" || name == "cross") {
    std::vector<FoldOperand> operands;
    for (CXCursor a : args) operands.push_back(operand(a));
    return fold(c, type, operands);
  }
  std::vector<FoldOperand> operands;
  for (CXCursor a : args) {
    const std::string arg_type = openclTypeName(lc().clang_getCursorType(a));
    if (arg_type == type) {
      operands.push_back(operand(a));
    } else {
      if (!hasFold(arg_type)) return problem(c, "'" + name + "' of '" + arg_type + "' is not folded");
      operands.push_back(operand(a, {literal("rl_auto_lanes_" + arg_type + "("), piece(a), literal(")")}));
    }
  }
  return fold(c, type, operands);
}

// An atomic read-modify-write of global memory: memory-only keeps it; compute-only computes its
// operand and keeps the atomic behind the run-time false condition.
void Walk::atomic(CXCursor c, Role role, bool seed, const std::string& name, const std::vector<CXCursor>& args) {
  const auto root = args.empty() ? std::nullopt : rootOf(args[0]);
  for (std::size_t i = 0; i < args.size(); ++i)
    visit(args[i], Role::value, i == 0 || seed || (root && contentsInSlice(*root)));
  tally(c, &SourceCensus::global_atomics);
  traffic(c, args[0], true, false, true);
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
  edit(c,
       {literal(std::string("do { if (rl_auto_bits_uint((uint)get_global_id(0)) == ") + kMutantKeyParameter + ") "),
        piece(c), literal("; } while (0)")},
       {MutantLineChangeKind::guarded});
}

// async_work_group_copy(dst, src, n, event): global to local is a load, local to global a store.
void Walk::asyncCopy(CXCursor c, Role role, bool seed, const std::vector<CXCursor>& args) {
  (void)role;
  for (CXCursor a : args) visit(a, Role::value, true);
  const bool from_global = isGlobalPointer(lc().clang_getCursorType(args[1]));
  if (!from_global) {
    tally(c, &SourceCensus::global_stores);
    traffic(c, args[0], false, false, true);
    if (!computeOnly()) return;
    // Each work item reads its share of the local data and stores it behind the run-time false
    // condition; an empty copy gives the kernel its event.
    const std::string type = openclTypeName(lc().clang_getPointeeType(lc().clang_getCursorType(args[0])));
    if (!hasBits(type))
      return problem(c, "'async_work_group_copy' of '" + type + "' to global memory is not rewritten");
    if (type.rfind("double", 0) == 0) result.double_helpers = true;
    return edit(c,
                {literal("rl_auto_async_out_" + type + "("), piece(args[0]), literal(", "), piece(args[1]),
                 literal(", (size_t)("), piece(args[2]), literal("), "), piece(args[3]),
                 literal(std::string(", ") + kMutantKeyParameter + ")")},
                {MutantLineChangeKind::guarded});
  }
  tally(c, &SourceCensus::global_loads);
  const auto local_root = rootOf(args[0]);
  traffic(c, args[1], true, seed || (local_root && contentsInSlice(*local_root)), false);
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
  edit(c,
       {literal("(rl_auto_fill_local_" + type + "("), piece(args[0]), literal(", (ulong)("), piece(args[1]),
        literal("), (size_t)("), piece(args[2]),
        literal(std::string("), ") + kMutantKeyParameter + "), rl_auto_async_none_" + type + "("), piece(args[0]),
        literal(", "), piece(args[1]), literal(", "), piece(args[3]), literal("))")},
       {MutantLineChangeKind::made_up});
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
