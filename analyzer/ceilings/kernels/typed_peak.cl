// FP64 and int32 peak micro-benchmarks of `rooflab ceilings` (analyzer/ceilings/ceilings_typed.cpp), run only
// when a studied family's work is in that type (docs/manifest.md, [work] type).
//
// The same shape as fp32_peak.cl: each work-item of typed_mad_chains runs 16 independent
// multiply-add chains, 8 steps per loop iteration, so a multiply-add issues every cycle although
// each waits for its own previous result. RL_TYPED_DOUBLE selects double (mad(): one FMA where the
// device has it; the program needs cl_khr_fp64), otherwise uint (x * a + b: one IMAD on NVIDIA;
// unsigned, so the wrap-around is defined and nothing can be assumed away). a and b are kernel
// arguments; the sum of the chains is written so no work is eliminated. The host counts 2
// operations per lane per multiply-add.
#ifndef RL_VECTOR_WIDTH
#define RL_VECTOR_WIDTH 1
#endif
#ifdef RL_TYPED_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double typed_scalar;
#define RL_TYPED_VECTOR_OF(n) double##n
#define RL_TYPED_MAD(x, a, b) mad(x, a, b)
#else
typedef uint typed_scalar;
#define RL_TYPED_VECTOR_OF(n) uint##n
#define RL_TYPED_MAD(x, a, b) ((x) * (a) + (b))
#endif
#if RL_VECTOR_WIDTH == 1
typedef typed_scalar typedv;
#else
#define RL_TYPED_VECTOR(n) RL_TYPED_VECTOR_OF(n)
typedef RL_TYPED_VECTOR(RL_VECTOR_WIDTH) typedv;
#endif

#define RL_TYPED_STEP(p)                                                                                  \
  p##0 = RL_TYPED_MAD(p##0, va, vb); p##1 = RL_TYPED_MAD(p##1, va, vb); p##2 = RL_TYPED_MAD(p##2, va, vb); \
  p##3 = RL_TYPED_MAD(p##3, va, vb); p##4 = RL_TYPED_MAD(p##4, va, vb); p##5 = RL_TYPED_MAD(p##5, va, vb); \
  p##6 = RL_TYPED_MAD(p##6, va, vb); p##7 = RL_TYPED_MAD(p##7, va, vb);
#define RL_TYPED_DECLARE(p, offset)                                                                       \
  typedv p##0 = start + (typed_scalar)(offset + 0), p##1 = start + (typed_scalar)(offset + 1),            \
         p##2 = start + (typed_scalar)(offset + 2), p##3 = start + (typed_scalar)(offset + 3),            \
         p##4 = start + (typed_scalar)(offset + 4), p##5 = start + (typed_scalar)(offset + 5),            \
         p##6 = start + (typed_scalar)(offset + 6), p##7 = start + (typed_scalar)(offset + 7);
#define RL_TYPED_SUM(p) (((p##0 + p##1) + (p##2 + p##3)) + ((p##4 + p##5) + (p##6 + p##7)))

__kernel void typed_mad_chains_16(__global typedv* restrict out, typed_scalar a, typed_scalar b, uint iterations) {
  const typedv va = (typedv)(a);
  const typedv vb = (typedv)(b);
  const typedv start = (typedv)((typed_scalar)get_global_id(0));
  RL_TYPED_DECLARE(c, 0) RL_TYPED_DECLARE(d, 8)
  for (uint i = 0; i < iterations; ++i) {
    RL_TYPED_STEP(c) RL_TYPED_STEP(d) RL_TYPED_STEP(c) RL_TYPED_STEP(d)
    RL_TYPED_STEP(c) RL_TYPED_STEP(d) RL_TYPED_STEP(c) RL_TYPED_STEP(d)
    RL_TYPED_STEP(c) RL_TYPED_STEP(d) RL_TYPED_STEP(c) RL_TYPED_STEP(d)
    RL_TYPED_STEP(c) RL_TYPED_STEP(d) RL_TYPED_STEP(c) RL_TYPED_STEP(d)
  }
  out[get_global_id(0)] = RL_TYPED_SUM(c) + RL_TYPED_SUM(d);
}
