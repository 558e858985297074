// FP32 peak micro-benchmark of `rooflab ceilings` (analyzer/ceilings.cpp).
//
// Each work-item runs RL_CHAIN_GROUPS x 8 independent multiply-add chains, so a new multiply-add
// can issue every cycle although each one waits for its own previous result (4+ cycles of latency
// on GPUs and CPUs). How many chains fill a device's pipelines without spilling registers differs
// between devices, so the host builds 8, 16 and 32 chains and keeps the best. RL_VECTOR_WIDTH
// makes each chain a vector so CPU SIMD lanes are used too. One loop iteration applies every chain
// 4 times, so the loop's compare and branch cost under 5% of the issue slots. a and b are kernel
// arguments (nothing can be constant-folded) chosen so x = x*a + b converges to a finite value
// without denormals; the sum of the chains is written so none of the work is eliminated.
// The host counts 2 flops per lane per multiply-add: RL_CHAIN_GROUPS * 8 * 4 * RL_VECTOR_WIDTH * 2
// per iteration per work-item.
#ifndef RL_VECTOR_WIDTH
#define RL_VECTOR_WIDTH 1
#endif
#ifndef RL_CHAIN_GROUPS
#define RL_CHAIN_GROUPS 2
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
#if RL_CHAIN_GROUPS != 1 && RL_CHAIN_GROUPS != 2 && RL_CHAIN_GROUPS != 4
#error RL_CHAIN_GROUPS must be 1, 2 or 4
#endif

// A group of 8 chains named <p>0 .. <p>7.
#define RL_DECLARE_GROUP(p, offset)                                                                     \
  realv p##0 = start + (offset + 0.00f), p##1 = start + (offset + 0.01f), p##2 = start + (offset + 0.02f), \
        p##3 = start + (offset + 0.03f), p##4 = start + (offset + 0.04f), p##5 = start + (offset + 0.05f), \
        p##6 = start + (offset + 0.06f), p##7 = start + (offset + 0.07f);
#define RL_STEP_GROUP(p)                                                                                \
  p##0 = mad(p##0, va, vb); p##1 = mad(p##1, va, vb); p##2 = mad(p##2, va, vb); p##3 = mad(p##3, va, vb); \
  p##4 = mad(p##4, va, vb); p##5 = mad(p##5, va, vb); p##6 = mad(p##6, va, vb); p##7 = mad(p##7, va, vb);
#define RL_SUM_GROUP(p) (((p##0 + p##1) + (p##2 + p##3)) + ((p##4 + p##5) + (p##6 + p##7)))

#if RL_CHAIN_GROUPS == 1
#define RL_DECLARE_ALL RL_DECLARE_GROUP(a, 0.0f)
#define RL_STEP_ALL RL_STEP_GROUP(a)
#define RL_SUM_ALL RL_SUM_GROUP(a)
#elif RL_CHAIN_GROUPS == 2
#define RL_DECLARE_ALL RL_DECLARE_GROUP(a, 0.0f) RL_DECLARE_GROUP(b, 0.08f)
#define RL_STEP_ALL RL_STEP_GROUP(a) RL_STEP_GROUP(b)
#define RL_SUM_ALL (RL_SUM_GROUP(a) + RL_SUM_GROUP(b))
#else
#define RL_DECLARE_ALL                                                                                  \
  RL_DECLARE_GROUP(a, 0.0f) RL_DECLARE_GROUP(b, 0.08f) RL_DECLARE_GROUP(c, 0.16f) RL_DECLARE_GROUP(d, 0.24f)
#define RL_STEP_ALL RL_STEP_GROUP(a) RL_STEP_GROUP(b) RL_STEP_GROUP(c) RL_STEP_GROUP(d)
#define RL_SUM_ALL ((RL_SUM_GROUP(a) + RL_SUM_GROUP(b)) + (RL_SUM_GROUP(c) + RL_SUM_GROUP(d)))
#endif

__kernel void fp32_fma_chains(__global realv* restrict out, float a, float b, uint iterations) {
  const realv va = (realv)(a);
  const realv vb = (realv)(b);
  const realv start = (realv)((float)get_global_id(0) * 1.0e-6f);
  RL_DECLARE_ALL
  for (uint i = 0; i < iterations; ++i) {
    RL_STEP_ALL
    RL_STEP_ALL
    RL_STEP_ALL
    RL_STEP_ALL
  }
  out[get_global_id(0)] = RL_SUM_ALL;
}
