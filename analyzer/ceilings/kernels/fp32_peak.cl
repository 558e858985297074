// FP32 peak micro-benchmark of `rooflab ceilings` (analyzer/ceilings/ceilings.cpp).
//
// Each work-item of fp32_fma_chains_<N> runs N independent multiply-add chains, so a new
// multiply-add can issue every cycle although each one waits for its own previous result (4+
// cycles of latency on GPUs and CPUs). How many chains fill a device's pipelines without spilling
// registers differs between devices, so one program holds 8, 16 and 32 chains (one build per
// vector width) and the host keeps the best. RL_VECTOR_WIDTH makes each chain a vector so CPU SIMD
// lanes are used too. One loop iteration applies every chain 8 times, so the loop's counter, compare
// and branch cost about 1% of the issue slots (with 4 times an H100 reached 0.975 of its peak). a and b are kernel arguments (nothing can be
// constant-folded) chosen so x = x*a + b converges to a finite value without denormals; the sum of
// the chains is written so none of the work is eliminated.
// The host counts 2 flops per lane per multiply-add: N * 8 * RL_VECTOR_WIDTH * 2 per iteration per
// work-item.
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

// A group of 8 chains named <p>0 .. <p>7.
#define RL_DECLARE_GROUP(p, offset)                                                                     \
  realv p##0 = start + (offset + 0.00f), p##1 = start + (offset + 0.01f), p##2 = start + (offset + 0.02f), \
        p##3 = start + (offset + 0.03f), p##4 = start + (offset + 0.04f), p##5 = start + (offset + 0.05f), \
        p##6 = start + (offset + 0.06f), p##7 = start + (offset + 0.07f);
#define RL_STEP_GROUP(p)                                                                                \
  p##0 = mad(p##0, va, vb); p##1 = mad(p##1, va, vb); p##2 = mad(p##2, va, vb); p##3 = mad(p##3, va, vb); \
  p##4 = mad(p##4, va, vb); p##5 = mad(p##5, va, vb); p##6 = mad(p##6, va, vb); p##7 = mad(p##7, va, vb);
#define RL_SUM_GROUP(p) (((p##0 + p##1) + (p##2 + p##3)) + ((p##4 + p##5) + (p##6 + p##7)))

#define RL_DECLARE_8 RL_DECLARE_GROUP(a, 0.0f)
#define RL_STEP_8 RL_STEP_GROUP(a)
#define RL_SUM_8 RL_SUM_GROUP(a)
#define RL_DECLARE_16 RL_DECLARE_GROUP(a, 0.0f) RL_DECLARE_GROUP(b, 0.08f)
#define RL_STEP_16 RL_STEP_GROUP(a) RL_STEP_GROUP(b)
#define RL_SUM_16 (RL_SUM_GROUP(a) + RL_SUM_GROUP(b))
#define RL_DECLARE_32                                                                                   \
  RL_DECLARE_GROUP(a, 0.0f) RL_DECLARE_GROUP(b, 0.08f) RL_DECLARE_GROUP(c, 0.16f) RL_DECLARE_GROUP(d, 0.24f)
#define RL_STEP_32 RL_STEP_GROUP(a) RL_STEP_GROUP(b) RL_STEP_GROUP(c) RL_STEP_GROUP(d)
#define RL_SUM_32 ((RL_SUM_GROUP(a) + RL_SUM_GROUP(b)) + (RL_SUM_GROUP(c) + RL_SUM_GROUP(d)))

#define RL_FMA_CHAINS_KERNEL(N)                                                                          \
  __kernel void fp32_fma_chains_##N(__global realv* restrict out, float a, float b, uint iterations) {  \
    const realv va = (realv)(a);                                                                        \
    const realv vb = (realv)(b);                                                                        \
    const realv start = (realv)((float)get_global_id(0) * 1.0e-6f);                                     \
    RL_DECLARE_##N                                                                                      \
    for (uint i = 0; i < iterations; ++i) {                                                             \
      RL_STEP_##N RL_STEP_##N RL_STEP_##N RL_STEP_##N                                                   \
      RL_STEP_##N RL_STEP_##N RL_STEP_##N RL_STEP_##N                                                   \
    }                                                                                                   \
    out[get_global_id(0)] = RL_SUM_##N;                                                                 \
  }

RL_FMA_CHAINS_KERNEL(8)
RL_FMA_CHAINS_KERNEL(16)
RL_FMA_CHAINS_KERNEL(32)
