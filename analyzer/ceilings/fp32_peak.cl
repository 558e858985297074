// FP32 peak micro-benchmark of `rooflab ceilings` (analyzer/ceilings.cpp).
//
// Each work-item runs 16 independent multiply-add chains, so a new multiply-add can issue every
// cycle although each one waits for its own previous result (4+ cycles of latency on GPUs and
// CPUs). RL_VECTOR_WIDTH (the device's native float width: 1 on GPUs, 8 or 16 on AVX CPUs) makes
// each chain a vector so CPU SIMD lanes are used too. One loop iteration applies every chain 4
// times, so the loop's compare and branch cost under 5% of the issue slots. a and b are kernel
// arguments (nothing can be constant-folded) chosen so x = x*a + b converges to a finite value
// without denormals; the sum of the chains is written so none of the work is eliminated.
// The host counts 2 flops per lane per multiply-add: RL_CHAINS * 4 * RL_VECTOR_WIDTH * 2 per
// iteration per work-item.
#ifndef RL_VECTOR_WIDTH
#define RL_VECTOR_WIDTH 1
#endif
#if RL_VECTOR_WIDTH == 1
typedef float realv;
#elif RL_VECTOR_WIDTH == 2
typedef float2 realv;
#elif RL_VECTOR_WIDTH == 4
typedef float4 realv;
#elif RL_VECTOR_WIDTH == 8
typedef float8 realv;
#elif RL_VECTOR_WIDTH == 16
typedef float16 realv;
#else
#error RL_VECTOR_WIDTH must be 1, 2, 4, 8 or 16
#endif

#define RL_STEP_ALL_CHAINS                                                               \
  x0 = mad(x0, va, vb); x1 = mad(x1, va, vb); x2 = mad(x2, va, vb); x3 = mad(x3, va, vb);         \
  x4 = mad(x4, va, vb); x5 = mad(x5, va, vb); x6 = mad(x6, va, vb); x7 = mad(x7, va, vb);         \
  x8 = mad(x8, va, vb); x9 = mad(x9, va, vb); x10 = mad(x10, va, vb); x11 = mad(x11, va, vb);     \
  x12 = mad(x12, va, vb); x13 = mad(x13, va, vb); x14 = mad(x14, va, vb); x15 = mad(x15, va, vb);

__kernel void fp32_fma_chains(__global realv* restrict out, float a, float b, uint iterations) {
  const realv va = (realv)(a);
  const realv vb = (realv)(b);
  const realv start = (realv)((float)get_global_id(0) * 1.0e-6f);
  realv x0 = start + 0.00f, x1 = start + 0.01f, x2 = start + 0.02f, x3 = start + 0.03f;
  realv x4 = start + 0.04f, x5 = start + 0.05f, x6 = start + 0.06f, x7 = start + 0.07f;
  realv x8 = start + 0.08f, x9 = start + 0.09f, x10 = start + 0.10f, x11 = start + 0.11f;
  realv x12 = start + 0.12f, x13 = start + 0.13f, x14 = start + 0.14f, x15 = start + 0.15f;
  for (uint i = 0; i < iterations; ++i) {
    RL_STEP_ALL_CHAINS
    RL_STEP_ALL_CHAINS
    RL_STEP_ALL_CHAINS
    RL_STEP_ALL_CHAINS
  }
  out[get_global_id(0)] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)) + ((x8 + x9) + (x10 + x11)) +
                          ((x12 + x13) + (x14 + x15));
}
