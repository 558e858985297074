#if ROOFLAB_HAVE_LIBCLANG
// Which arguments of the launched kernels a program's global accesses reach: each access is recorded
// by the declaration it reaches memory through, and followed back through helpers' parameters and
// pointer variables to kernel parameters. The run step turns them into bytes with a point's buffers.
#include <algorithm>

#include "mutators/auto_mutation_walker.hpp"

namespace rooflab::auto_mutation {

void Walk::traffic(CXCursor at, CXCursor pointer, bool load, bool kept, bool store) {
  if (analysing_) return;
  Access access;
  const auto root = rootOf(pointer);
  access.root = root ? declKey(*root) : 0;
  access.load = load;
  access.kept = kept;
  access.store = store;
  access.where = where(at);
  accesses_.push_back(std::move(access));
}

void Walk::alias(CXCursor decl, CXCursor value) {
  if (analysing_ || !isPointer(lc().clang_getCursorType(decl))) return;
  const auto root = rootOf(value);
  aliases_[declKey(decl)].insert(root ? declKey(*root) : 0u);
}

void resolveTraffic(const std::vector<Walk::Access>& accesses, const std::map<unsigned, std::set<unsigned>>& aliases,
                    const std::map<std::string, CXCursor>& functions, const std::vector<std::string>& kernels,
                    WalkResult& result) {
  std::map<unsigned, std::pair<std::string, int>> parameters;  // a kernel's parameter -> (kernel, index)
  for (const std::string& kernel : kernels) {
    const auto f = functions.find(kernel);
    if (f == functions.end()) continue;
    result.traffic[kernel];
    int index = 0;
    for (CXCursor p : children(f->second))
      if (kindOf(p) == CXCursor_ParmDecl) parameters[declKey(p)] = {kernel, index++};
  }
  for (const Walk::Access& access : accesses) {
    std::set<unsigned> seen;
    std::set<std::pair<std::string, int>> reached;
    std::vector<unsigned> pending = {access.root};
    bool traced = true;
    while (!pending.empty()) {
      const unsigned declaration = pending.back();
      pending.pop_back();
      if (!seen.insert(declaration).second) continue;
      if (const auto p = parameters.find(declaration); p != parameters.end()) {
        reached.insert(p->second);
        continue;
      }
      const auto sources = aliases.find(declaration);
      if (declaration == 0 || sources == aliases.end()) {
        traced = false;
        continue;
      }
      pending.insert(pending.end(), sources->second.begin(), sources->second.end());
    }
    if (!traced || reached.empty()) {
      result.traffic_untraced =
          access.where + ": a global access through a pointer that is not traced to a kernel argument";
      result.traffic.clear();
      return;
    }
    for (const auto& [kernel, index] : reached) {
      KernelArgumentTraffic& t = result.traffic[kernel];
      if (access.load) t.loaded.insert(index);
      if (access.load && access.kept) t.kept_loaded.insert(index);
      if (access.store) t.stored.insert(index);
    }
  }
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
