// L2 (last-level cache) bandwidth micro-benchmark of `rooflab ceilings` (analyzer/ceilings/ceilings_l2.cpp).
//
// l2_read reads a buffer that fits in the device's cache (the host makes it half of
// CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) `passes` times, so that after the first pass every load is
// served by the cache and the time measures its bandwidth, not DRAM's. The buffer holds
// per_item x global size elements; the global size is a power of two.
//
// In each pass a work-item reads one "column" of per_item elements: on a GPU element k of column c
// is c + k * global size (coalesced across a warp); with RL_CONTIGUOUS_CHUNKS (a CPU) the column is
// a contiguous range, the pattern a core's prefetcher and SIMD loads follow. Each pass moves every
// work-item `shift` columns along: the elements a work-group reads in one pass were read by another
// work-group (on a GPU, another SM) in the previous one, so the SM's own L1 never holds them and
// the loads go to the shared L2, as a real kernel's reuse across SMs does.
// Eight accumulators keep eight loads in flight per work-item; the sum is stored only when it
// equals `marker`, which the host makes impossible (the buffer holds 1.0s, the marker is -1), so
// no load can be eliminated and no write traffic is added.
#ifndef RL_L2_TYPE
#error RL_L2_TYPE must name the element type: float, float2, float4, float8 or float16
#endif
typedef RL_L2_TYPE l2_elem;

float rl_l2_sum1(float v) { return v; }
float rl_l2_sum2(float2 v) { return v.s0 + v.s1; }
float rl_l2_sum4(float4 v) { return rl_l2_sum2(v.lo + v.hi); }
float rl_l2_sum8(float8 v) { return rl_l2_sum4(v.lo + v.hi); }
float rl_l2_sum16(float16 v) { return rl_l2_sum8(v.lo + v.hi); }
#define RL_L2_SUM_OF(n) rl_l2_sum##n
#define RL_L2_SUM(n) RL_L2_SUM_OF(n)

#ifdef RL_CONTIGUOUS_CHUNKS
#define RL_L2_ELEMENT(k) (column * per_item + (k))
#else
#define RL_L2_ELEMENT(k) (column + (k) * global_size)
#endif

__kernel void l2_read(__global const l2_elem* restrict src, __global float* restrict sink, uint per_item, uint passes,
                      uint shift, float marker) {
  const uint global_size = (uint)get_global_size(0);
  l2_elem s0 = (l2_elem)(0.0f), s1 = (l2_elem)(0.0f), s2 = (l2_elem)(0.0f), s3 = (l2_elem)(0.0f);
  l2_elem s4 = (l2_elem)(0.0f), s5 = (l2_elem)(0.0f), s6 = (l2_elem)(0.0f), s7 = (l2_elem)(0.0f);
  for (uint pass = 0; pass < passes; ++pass) {
    const uint column = ((uint)get_global_id(0) + pass * shift) & (global_size - 1u);
    for (uint k = 0; k < per_item; k += 8) {
      s0 += src[RL_L2_ELEMENT(k + 0)];
      s1 += src[RL_L2_ELEMENT(k + 1)];
      s2 += src[RL_L2_ELEMENT(k + 2)];
      s3 += src[RL_L2_ELEMENT(k + 3)];
      s4 += src[RL_L2_ELEMENT(k + 4)];
      s5 += src[RL_L2_ELEMENT(k + 5)];
      s6 += src[RL_L2_ELEMENT(k + 6)];
      s7 += src[RL_L2_ELEMENT(k + 7)];
    }
  }
  const float total = RL_L2_SUM(RL_L2_WIDTH)(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)));
  if (total == marker) sink[0] = total;
}
