#include <cmath>
#include <string>

#include "analyzer/support/errors.hpp"
#include "analyzer/verify/references/builtin.hpp"
#include "analyzer/support/parallel_for.hpp"

namespace rooflab::references {

void nbody(ReferenceContext& ctx) {
  const HostBuffer& pos_buffer = ctx.input("pos");
  HostBuffer& acc_buffer = ctx.output("acc");
  for (const HostBuffer* b : {&pos_buffer, static_cast<const HostBuffer*>(&acc_buffer)})
    if (b->type.scalar != ScalarKind::f32 || b->type.lanes != 4)
      throw VariantError("cpu:nbody: buffer '" + b->name + "' must hold float4");
  if (pos_buffer.count != acc_buffer.count) throw VariantError("cpu:nbody: 'pos' and 'acc' must have the same count");
  const std::size_t n = pos_buffer.count;
  // The kernels get EPS as a float argument and square it in float; use that same value.
  const double eps = static_cast<float>(ctx.param("EPS"));
  const double eps2 = eps * eps;
  const float* pos = pos_buffer.data<float>();
  float* acc = acc_buffer.data<float>();

  // a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2), the softened all-pairs sum of
  // GPU Gems 3 ch. 31, j = i included (it contributes 0), in double.
  parallelFor(n, 64, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const double xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
      double ax = 0, ay = 0, az = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double rx = pos[4 * j] - xi, ry = pos[4 * j + 1] - yi, rz = pos[4 * j + 2] - zi;
        const double d2 = rx * rx + ry * ry + rz * rz + eps2;
        const double inv = 1.0 / std::sqrt(d2);
        const double s = pos[4 * j + 3] * inv * inv * inv;
        ax += rx * s;
        ay += ry * s;
        az += rz * s;
      }
      acc[4 * i] = static_cast<float>(ax);
      acc[4 * i + 1] = static_cast<float>(ay);
      acc[4 * i + 2] = static_cast<float>(az);
      acc[4 * i + 3] = 0.0f;
    }
  });
}

}  // namespace rooflab::references
