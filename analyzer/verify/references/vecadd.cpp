#include "analyzer/verify/references/builtin.hpp"

namespace rooflab::references {

void vecadd(ReferenceContext& ctx) {
  const HostBuffer& a = ctx.input("a");
  const HostBuffer& b = ctx.input("b");
  HostBuffer& c = ctx.output("c");
  for (std::size_t i = 0; i < c.scalarCount(); ++i) c.setScalar(i, a.scalarAt(i) + b.scalarAt(i));
}

}  // namespace rooflab::references
