#pragma once
// Internal to mutators/ (libclang builds only): the walk over a preprocessed kernel program that
// finds its structure, counts it and records a mutant's edits. Its methods are spread by concern:
// auto_mutation_walk.cpp (places, text, the walk's entry), auto_mutation_structure.cpp (statements
// and the structure's growth), auto_mutation_rewrite.cpp (accesses, operators, folds, guarded
// stores), auto_mutation_calls.cpp (built-in and user calls).
#include "mutators/auto_mutation_walk.hpp"

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mutators/auto_mutation_types.hpp"
#include "mutators/mutant_key.hpp"

namespace rooflab::auto_mutation {

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
inline unsigned declKey(CXCursor decl) {
  unsigned offset = 0;
  lc().clang_getExpansionLocation(lc().clang_getCursorLocation(decl), nullptr, nullptr, nullptr, &offset);
  return offset + 1;
}

inline CXCursorKind kindOf(CXCursor c) { return lc().clang_getCursorKind(c); }

// Parentheses and implicit conversions (libclang shows those as unexposed expressions of one child
// with the same extent) are looked through.
inline CXCursor stripImplicit(CXCursor c) {
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
inline bool isComponent(CXCursor c) {
  if (kindOf(c) != CXCursor_UnexposedExpr) return false;
  const auto inner = children(c);
  if (inner.size() != 1) return false;
  unsigned outer_end = 0, inner_end = 0;
  lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(c)), nullptr, nullptr, nullptr,
                                  &outer_end);
  lc().clang_getExpansionLocation(lc().clang_getRangeEnd(lc().clang_getCursorExtent(inner[0])), nullptr, nullptr,
                                  nullptr, &inner_end);
  return outer_end > inner_end;
}

inline bool isPointer(CXType t) { return lc().clang_getCanonicalType(t).kind == CXType_Pointer; }
inline bool isArray(CXType t) {
  const CXTypeKind k = lc().clang_getCanonicalType(t).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

class Walk {
 public:
  Walk(CXTranslationUnit unit, const std::string& main_text, std::optional<AutoMutantKind> kind, Slice& slice,
       const std::map<std::string, CXCursor>& functions, bool analysing)
      : unit_(unit), text_(main_text), kind_(kind), slice_(slice), functions_(functions), analysing_(analysing) {}

  void function(CXCursor f);

  // The variables (by declaration) that may hold a value read from memory, grown to its fixed point
  // over `reached` (auto_mutation_data.cpp).
  std::set<unsigned> memoryData(const std::vector<CXCursor>& reached);
  // Memory-only folds drop the operands that carry no such value; without the set, all carry one.
  const std::set<unsigned>* memory_data_ = nullptr;

  WalkResult result;

 private:
  bool computeOnly() const { return !analysing_ && kind_ == AutoMutantKind::compute_only; }
  bool memoryOnly() const { return !analysing_ && kind_ == AutoMutantKind::memory_only; }

  // file:line of the user's file (the preprocessed program's line directives give it).
  std::string where(CXCursor c) const;

  void problem(CXCursor c, const std::string& what);

  // Counts one access or operation at `c` in the census, and in its line's.
  void tally(CXCursor c, int SourceCensus::*quantity);

  // The main-file byte range of a cursor. An end inside a macro of OpenCL's own header (FLT_MAX,
  // CLK_LOCAL_MEM_FENCE: the preprocessed program keeps them) ends after the macro's name.
  bool range(CXCursor c, unsigned& begin, unsigned& end) const;

  SourceEdit::Piece piece(CXCursor c) const;
  static SourceEdit::Piece literal(std::string s) { return {std::move(s), 0, 0}; }

  // Replaces `c`'s text by `pieces`; the change is of `kinds` at `c`'s first line.
  void edit(CXCursor c, std::vector<SourceEdit::Piece> pieces, std::initializer_list<MutantLineChangeKind> kinds);

  std::vector<std::pair<std::string, unsigned>> tokens(CXCursor c) const;

  // A binary operator's spelling: the first token after its left operand.
  std::string binaryOperator(CXCursor c, CXCursor lhs) const;

  // The declaration a variable reference names (a VarDecl or ParmDecl), or a null cursor.
  static std::optional<CXCursor> variable(CXCursor ref);

  // The variable whose elements an access reaches: `a` of a[i], *(a + i), a[i].x, s.f, p->f.
  std::optional<CXCursor> rootOf(CXCursor c) const;

  void addValue(CXCursor decl);
  void addContents(CXCursor decl);
  bool valueInSlice(CXCursor decl) const { return slice_.values.count(declKey(decl)) > 0; }
  bool contentsInSlice(CXCursor decl) const { return slice_.contents.count(declKey(decl)) > 0; }

  // A read or write of global (or constant) memory: p[i], *p, p->f, p[i].f.
  bool isGlobalAccess(CXCursor c) const;

  // Whether an expression is a vector component of a global element: `v[i].x`.
  bool isGlobalComponent(CXCursor c) const;

  // The text of an element's address for a compute-only value: `&(p[i])`, `(p)` for p->f; a member
  // or lane is set apart from its neighbours by a salt.
  std::vector<SourceEdit::Piece> seedOf(CXCursor access) const;

  // The value of a compute-only load: made in registers from the element's address.
  std::vector<SourceEdit::Piece> fakeLoad(const std::string& type, std::vector<SourceEdit::Piece> seed);

  void structureLoad(CXCursor c);
  void structureOperation(CXCursor c, bool floating);

  void visitChildren(CXCursor c, Role role, bool seed);

  void visit(CXCursor c, Role role, bool seed);
  void visitStatement(CXCursor c, bool seed);

  // Whether a branch arm decides how much work or memory traffic the kernel does, so that its
  // condition must be computed from real values: it loops, synchronises, leaves, calls one of the
  // user's functions, touches local memory or atomics, or (memory-only, where they all happen)
  // global memory. Compute-only makes up its global loads and guards its stores, so a condition
  // choosing between them changes no traffic there.
  bool steers(CXCursor arm) const;

  // Whether `op` (an assignment, a compound assignment, ++ or --) writes a variable or array of the
  // structure through its target `target`.
  bool assignsStructure(CXCursor op, CXCursor target) const;

  // A subscript of a private or local array (or pointer): its index is an address; reading it in
  // the structure puts the array's contents there.
  void localSubscript(CXCursor c, Role role, bool seed);

  // A member of a private struct or a lane of a private vector: read in the structure, its variable is.
  void member(CXCursor c, Role role, bool seed);

  // The address of a global access: the pointer and index (or the element of a member) are the structure.
  void accessOperands(CXCursor c);

  void access(CXCursor c, Role role, bool seed);

  // A compute-only global store: computed, then kept behind a condition that is false at run time.
  // `before` opens the statement (a pointer declaration the value and the store read).
  // `made_up`: the value reads the target's made-up old value (a read-modify-write).
  void guardedStore(CXCursor c, Role role, const std::string& type, std::vector<SourceEdit::Piece> value,
                    std::vector<SourceEdit::Piece> store, std::vector<SourceEdit::Piece> before = {},
                    bool made_up = false);

  // A read-modify-write's target reached through one pointer (auto_mutation_compound.cpp): the
  // declaration of rl_auto_p, the text that reads or writes the target through it, and the seed of
  // a made-up value of it.
  struct OnceAddressed {
    std::vector<SourceEdit::Piece> declaration;
    std::string access;
    std::vector<SourceEdit::Piece> seed;
  };
  std::optional<OnceAddressed> addressOnce(CXCursor target);
  // Whether writing a target twice would compute or do something twice: it is then addressed once.
  bool addressedOnce(CXCursor target) const;
  // compute-only `t op= v` and `t++` on a global element; memory-only `t op= v` folded.
  void compoundStore(CXCursor c, Role role, CXCursor lhs, CXCursor rhs, const std::string& op);
  void incrementStore(CXCursor c, Role role, CXCursor target, bool decrement);
  void compoundFold(CXCursor c, Role role, CXCursor lhs, CXCursor rhs, const std::string& type);

  // Whether an expression may evaluate to a value read from memory: a load, a call of the user's
  // functions or of a built-in that reads memory, or a variable of memoryData.
  bool carriesData(CXCursor c) const;

  // One operand of a memory-only fold: its text, and whether the fold must keep it (it carries a
  // value read from memory, or evaluating it does something).
  struct FoldOperand {
    std::vector<SourceEdit::Piece> pieces;
    bool kept = true;
    bool plain_variable = false;  // a variable's name alone, not an element of memory
  };
  FoldOperand operand(CXCursor c, std::vector<SourceEdit::Piece> pieces) const;
  FoldOperand operand(CXCursor c) const { return operand(c, {piece(c)}); }

  // A memory-only fold in place of a floating-point operation of type `type`: the kept operands
  // combined by the prelude's cheapest operation, or the first operand alone where none is kept.
  void fold(CXCursor c, const std::string& type, std::vector<FoldOperand> operands,
            std::vector<SourceEdit::Piece> prefix = {});

  // Whether evaluating `c` twice could differ from once: an assignment, ++/-- or a call inside it.
  bool hasSideEffects(CXCursor c) const;

  void unary(CXCursor c, Role role, bool seed);

  void binary(CXCursor c, Role role, bool seed, bool compound);

  // Whether an expression holds an operation the census counts (so that writing it twice would count it twice).
  bool computesSomething(CXCursor c) const;

  // A user function's arguments join the structure where its parameters do; its result where the
  // call does.
  void userCall(CXCursor c, const std::string& name, const std::vector<CXCursor>& args, bool seed);

  void call(CXCursor c, Role role, bool seed);
  // vloadN(offset, p) and vstoreN(value, offset, p) of global memory; `lanes` is vload's N.
  void vectorLoad(CXCursor c, bool seed, const std::string& lanes, const std::vector<CXCursor>& args);
  void vectorStore(CXCursor c, Role role, bool seed, const std::string& name, const std::vector<CXCursor>& args);
  // Floating built-ins: memory-only folds their operands into one value. The geometric ones (dot,
  // length, distance, normalize, cross) fold a vector's lanes first where the result is narrower.
  bool floatBuiltinToFold(CXCursor c, bool seed);
  void mathBuiltin(CXCursor c, bool seed, const std::string& name, const std::string& type,
                   const std::vector<CXCursor>& args);
  void geometricBuiltin(CXCursor c, bool seed, const std::string& name, const std::string& type,
                        const std::vector<CXCursor>& args);

  // An atomic read-modify-write of global memory: memory-only keeps it; compute-only computes its
  // operand and keeps the atomic behind the run-time false condition.
  void atomic(CXCursor c, Role role, bool seed, const std::string& name, const std::vector<CXCursor>& args);

  // async_work_group_copy(dst, src, n, event): global to local is a load, local to global a store.
  void asyncCopy(CXCursor c, Role role, bool seed, const std::vector<CXCursor>& args);

  CXTranslationUnit unit_;
  const std::string& text_;
  std::optional<AutoMutantKind> kind_;
  Slice& slice_;
  const std::map<std::string, CXCursor>& functions_;
  bool analysing_;
  std::string function_;

 public:
  bool grew_ = false;

  // What the final walk saw of the global traffic (auto_mutation_traffic.cpp turns it into the
  // launched kernels' arguments): each access by the declaration it reaches memory through (0: none
  // found), and what each pointer declaration (a helper's parameter, a pointer variable) may point into.
  struct Access {
    unsigned root = 0;
    bool load = false, kept = false, store = false;
    std::string where;
  };
  std::vector<Access> accesses_;
  std::map<unsigned, std::set<unsigned>> aliases_;

 private:
  // Records a global access through `pointer` (an expression whose root is the pointer).
  void traffic(CXCursor at, CXCursor pointer, bool load, bool kept, bool store);
  // Records that `decl` (a pointer) may point where `value` does.
  void alias(CXCursor decl, CXCursor value);
};

// The launched kernels' arguments the walk's accesses reach, through helpers and pointer variables,
// into result.traffic (or result.traffic_untraced).
void resolveTraffic(const std::vector<Walk::Access>& accesses, const std::map<unsigned, std::set<unsigned>>& aliases,
                    const std::map<std::string, CXCursor>& functions, const std::vector<std::string>& kernels,
                    WalkResult& result);

}  // namespace rooflab::auto_mutation
