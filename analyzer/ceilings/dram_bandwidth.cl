// DRAM bandwidth micro-benchmarks of `rooflab ceilings` (analyzer/ceilings.cpp).
//
// Both kernels move float4 elements (16-byte loads and stores) and give every work-item
// `per_item` of them; the host sizes the buffers far beyond the last-level cache and makes the
// element count a multiple of the global size. Two layouts, chosen by the host:
//   default (GPU): element k of work-item g is g + k * global_size, so consecutive work-items of a
//     warp touch consecutive 16-byte elements and every access is coalesced;
//   RL_CONTIGUOUS_CHUNKS (CPU): work-item g streams its own contiguous range, the access pattern a
//     CPU core's hardware prefetcher follows.
#ifdef RL_CONTIGUOUS_CHUNKS
#define RL_ELEMENT(k) (get_global_id(0) * (size_t)per_item + (size_t)(k))
#else
#define RL_ELEMENT(k) (get_global_id(0) + (size_t)(k) * get_global_size(0))
#endif

// Copy: counts 16 bytes read and 16 bytes written per element, as STREAM does.
__kernel void dram_copy(__global const float4* restrict src, __global float4* restrict dst, uint per_item) {
  for (uint k = 0; k < per_item; ++k) dst[RL_ELEMENT(k)] = src[RL_ELEMENT(k)];
}

// Read: sums into registers and writes one float per work-item, so no load can be eliminated. Two
// accumulators keep the additions off the critical path of the loads.
__kernel void dram_read(__global const float4* restrict src, __global float* restrict sink, uint per_item) {
  float4 sum0 = (float4)(0.0f);
  float4 sum1 = (float4)(0.0f);
  uint k = 0;
  for (; k + 1 < per_item; k += 2) {
    sum0 += src[RL_ELEMENT(k)];
    sum1 += src[RL_ELEMENT(k + 1)];
  }
  if (k < per_item) sum0 += src[RL_ELEMENT(k)];
  const float4 sum = sum0 + sum1;
  sink[get_global_id(0)] = sum.x + sum.y + sum.z + sum.w;
}
