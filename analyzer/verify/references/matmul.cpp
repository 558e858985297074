#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/support/errors.hpp"
#include "analyzer/verify/references/builtin.hpp"
#include "analyzer/support/parallel_for.hpp"

namespace rooflab::references {
namespace {

const float* floatData(const HostBuffer& b, std::size_t count) {
  if (b.type.scalar != ScalarKind::f32 || b.type.lanes != 1 || b.count != count)
    throw VariantError("cpu:matmul: buffer '" + b.name + "' must hold " + std::to_string(count) + " floats");
  return b.data<float>();
}

// R = P x Q for n x n row-major matrices, accumulated in double. Rows of R are computed in blocks
// of kRows: each row of Q is read once per block and applied to all kRows accumulator rows
// (i-k-j order), so Q is streamed n / kRows times instead of n times. The accumulators are
// interleaved, acc[j * kRows + r], so that the innermost loop is a fixed-length update of kRows
// consecutive doubles by one value of Q, which the compiler vectorises at -O2. N = 2048 takes
// ~7 s of one core, N = 4096 ~55 s (a few seconds on a 16-core host).
constexpr std::size_t kRows = 8;

void rowMajorProduct(const float* p, const float* q, float* r, std::size_t n) {
  parallelFor(n, kRows, [&](std::size_t row_begin, std::size_t row_end) {
    std::vector<double> acc(kRows * n);
    for (std::size_t i0 = row_begin; i0 < row_end; i0 += kRows) {
      const std::size_t rows = std::min(kRows, row_end - i0);
      std::fill(acc.begin(), acc.end(), 0.0);
      for (std::size_t k = 0; k < n; ++k) {
        double pk[kRows] = {};  // rows past the end of the block multiply by 0
        for (std::size_t ii = 0; ii < rows; ++ii) pk[ii] = p[(i0 + ii) * n + k];
        const float* q_row = q + k * n;
        double* a = acc.data();
        for (std::size_t j = 0; j < n; ++j, a += kRows) {
          const double qkj = q_row[j];
          for (std::size_t ii = 0; ii < kRows; ++ii) a[ii] += pk[ii] * qkj;
        }
      }
      for (std::size_t ii = 0; ii < rows; ++ii)
        for (std::size_t j = 0; j < n; ++j) r[(i0 + ii) * n + j] = static_cast<float>(acc[j * kRows + ii]);
    }
  });
}

}  // namespace

void matmul(ReferenceContext& ctx) {
  const double n_param = ctx.param("N");
  if (n_param < 1 || n_param != static_cast<double>(static_cast<std::size_t>(n_param)))
    throw VariantError("cpu:matmul: N must be a positive integer");
  const std::size_t n = static_cast<std::size_t>(n_param);
  const bool col_major = ctx.params.count("COL_MAJOR") && ctx.param("COL_MAJOR") != 0;
  const float* a = floatData(ctx.input("A"), n * n);
  const float* b = floatData(ctx.input("B"), n * n);
  HostBuffer& c_buffer = ctx.output("C");
  floatData(c_buffer, n * n);
  float* c = c_buffer.data<float>();
  // Column-major storage of X is row-major storage of X^T, and C^T = B^T A^T: a column-major
  // product is the row-major product of the two storages taken in the other order.
  if (col_major) rowMajorProduct(b, a, c, n);
  else rowMajorProduct(a, b, c, n);
}

}  // namespace rooflab::references
