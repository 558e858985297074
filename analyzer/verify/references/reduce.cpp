#include <string>

#include "analyzer/support/errors.hpp"
#include "analyzer/verify/references/builtin.hpp"

namespace rooflab::references {

void reduce(ReferenceContext& ctx) {
  const HostBuffer& in = ctx.input("in");
  HostBuffer& out = ctx.output("out");
  if (in.type.scalar != ScalarKind::f32 || in.type.lanes != 1)
    throw VariantError("cpu:reduce: buffer 'in' must hold floats");
  if (out.scalarCount() != 1) throw VariantError("cpu:reduce: buffer 'out' must hold exactly one value");
  // Double accumulation: for N = 2^28 values in [0, 1) the float result of any summation order is
  // then compared with a sum whose own rounding error is ~1e-16 relative. Four partial sums break
  // the dependency chain so that 2^28 elements take a fraction of a second.
  const float* x = in.data<float>();
  const std::size_t n = in.count;
  double s[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) s[k] += x[i + k];
  for (; i < n; ++i) s[0] += x[i];
  out.setScalar(0, (s[0] + s[1]) + (s[2] + s[3]));
}

}  // namespace rooflab::references
