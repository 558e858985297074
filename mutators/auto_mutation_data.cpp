#if ROOFLAB_HAVE_LIBCLANG
// Which variables may hold a value read from memory: the memory-only mutant keeps only arithmetic
// that carries such values to a store (so the loads stay), and drops arithmetic on registers alone.
#include "mutators/auto_mutation_walker.hpp"

#include <functional>
#include <regex>
#include <set>

namespace rooflab::auto_mutation {
namespace {

// The variable an assignment's target belongs to: `x`, `a` of a[i], `s` of s.f, `v` of v.x.
std::optional<CXCursor> targetVariable(CXCursor c) {
  for (int guard = 0; guard < 64; ++guard) {
    c = stripImplicit(c);
    if (kindOf(c) == CXCursor_DeclRefExpr) {
      const CXCursor declared = lc().clang_getCursorReferenced(c);
      if (kindOf(declared) == CXCursor_VarDecl || kindOf(declared) == CXCursor_ParmDecl) return declared;
      return std::nullopt;
    }
    const auto parts = children(c);
    if (parts.empty()) return std::nullopt;
    c = kindOf(c) == CXCursor_CStyleCastExpr ? parts.back() : parts.front();
  }
  return std::nullopt;
}

bool isDereference(CXCursor c) {
  if (kindOf(c) != CXCursor_UnaryOperator) return false;
  const auto parts = children(c);
  return !parts.empty() && isPointer(lc().clang_getCursorType(stripImplicit(parts[0]))) &&
         !isPointer(lc().clang_getCursorType(c));
}

}  // namespace

bool Walk::carriesData(CXCursor c) const {
  if (memory_data_ == nullptr) return true;
  // Built-ins that read memory or other work-items' values.
  static const std::regex reads("vload.*|read_image.*|atom.*|async_.*|work_group_.*|sub_group_.*|intel_sub_group_.*");
  const CXCursorKind k = kindOf(c);
  if (k == CXCursor_ArraySubscriptExpr || isDereference(c)) return true;
  if (k == CXCursor_MemberRefExpr) {
    const auto parts = children(c);
    if (!parts.empty() && isPointer(lc().clang_getCursorType(stripImplicit(parts[0])))) return true;  // p->f
  }
  if (k == CXCursor_CallExpr) {
    const std::string name = text(lc().clang_getCursorSpelling(c));
    if (functions_.count(name) || std::regex_match(name, reads)) return true;
  }
  if (k == CXCursor_DeclRefExpr) {
    const auto v = variable(c);
    return v && memory_data_->count(declKey(*v)) > 0;
  }
  if (k == CXCursor_UnaryExpr) return false;  // sizeof, vec_step: nothing is read
  for (CXCursor child : children(c))
    if (carriesData(child)) return true;
  return false;
}

std::set<unsigned> Walk::memoryData(const std::vector<CXCursor>& reached) {
  std::set<unsigned> data;
  const std::set<unsigned>* earlier = memory_data_;
  memory_data_ = &data;
  bool grew = true;
  const auto add = [&](CXCursor decl) {
    if (data.insert(declKey(decl)).second) grew = true;
  };
  static const std::set<std::string> assignments = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  std::function<void(CXCursor)> scan = [&](CXCursor c) {
    const CXCursorKind k = kindOf(c);
    if (k == CXCursor_VarDecl) {
      const CXCursor init = lc().clang_Cursor_getVarDeclInitializer(c);
      if (!lc().clang_Cursor_isNull(init) && carriesData(init)) add(c);
    } else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
      const auto parts = children(c);
      if (parts.size() == 2 && assignments.count(binaryOperator(c, parts[0])) && carriesData(parts[1]))
        if (const auto target = targetVariable(parts[0])) add(*target);
    } else if (k == CXCursor_UnaryOperator) {
      // &x: what x holds may be written through the pointer.
      const auto parts = children(c);
      if (!parts.empty() && isPointer(lc().clang_getCursorType(c)) &&
          !isPointer(lc().clang_getCursorType(stripImplicit(parts[0]))))
        if (const auto v = variable(parts[0])) add(*v);
    } else if (k == CXCursor_CallExpr) {
      // A helper's parameter holds data where an argument of any of its calls does.
      const auto f = functions_.find(text(lc().clang_getCursorSpelling(c)));
      if (f != functions_.end()) {
        std::vector<CXCursor> params;
        for (CXCursor p : children(f->second))
          if (kindOf(p) == CXCursor_ParmDecl) params.push_back(p);
        const int args = lc().clang_Cursor_getNumArguments(c);
        for (int i = 0; i < args && i < static_cast<int>(params.size()); ++i)
          if (carriesData(lc().clang_Cursor_getArgument(c, i))) add(params[i]);
      }
    }
    for (CXCursor child : children(c)) scan(child);
  };
  for (int round = 0; round < 64 && grew; ++round) {
    grew = false;
    for (CXCursor f : reached) scan(f);
  }
  memory_data_ = earlier;
  return data;
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
