#pragma once
#include "analyzer/verify/references.hpp"

namespace rooflab::references {
void vecadd(ReferenceContext& ctx);  // c = a + b
void matmul(ReferenceContext& ctx);  // C = A B, N x N, float64 accumulation; COL_MAJOR selects the layout
void reduce(ReferenceContext& ctx);  // out[0] = sum of in, float64 accumulation
void nbody(ReferenceContext& ctx);   // acc = softened all-pairs gravity on pos (xyz, mass in w), float64
}  // namespace rooflab::references
