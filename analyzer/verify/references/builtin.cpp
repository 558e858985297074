#include "analyzer/verify/references.hpp"
#include "analyzer/verify/references/builtin.hpp"

namespace rooflab {

// Every family's C++ reference is added here, by name, as "cpu:<name>" in manifests.
void registerBuiltinReferences(ReferenceRegistry& registry) {
  registry.add("vecadd", references::vecadd);
  registry.add("matmul", references::matmul);
  registry.add("reduce", references::reduce);
  registry.add("nbody", references::nbody);
}

}  // namespace rooflab
