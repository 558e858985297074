// DRAM bandwidth micro-benchmarks of `rooflab ceilings` (analyzer/ceilings/ceilings.cpp).
//
// Three kinds of traffic, each for float, float2, float4, float8 or float16 elements
// (dram_<kind>_<type>): read (a sum that no load can be dropped from), copy (counted as bytes read
// plus bytes written, as STREAM and torch's device copy count it) and write. The host takes the
// best of them as the device's DRAM roof: which one a memory system favours differs between
// devices, and a roof must bound every kernel.
//
// Every work-item handles `per_item` elements; the host sizes the buffers far beyond the
// last-level cache and makes the element count a multiple of the global size. Two layouts, chosen
// by the host:
//   default (GPU): element k of work-item g is g + k * global_size, so consecutive work-items of a
//     warp touch consecutive elements and every access is coalesced; with per_item = 1 this is one
//     element per work-item over a grid of many waves;
//   RL_CONTIGUOUS_CHUNKS (CPU): work-item g streams its own contiguous range, the access pattern a
//     CPU core's hardware prefetcher follows.
#ifdef RL_CONTIGUOUS_CHUNKS
#define RL_ELEMENT(k) (get_global_id(0) * (size_t)per_item + (size_t)(k))
#else
#define RL_ELEMENT(k) (get_global_id(0) + (size_t)(k) * get_global_size(0))
#endif

float rl_sum_float(float v) { return v; }
float rl_sum_float2(float2 v) { return v.s0 + v.s1; }
float rl_sum_float4(float4 v) { return rl_sum_float2(v.lo + v.hi); }
float rl_sum_float8(float8 v) { return rl_sum_float4(v.lo + v.hi); }
float rl_sum_float16(float16 v) { return rl_sum_float8(v.lo + v.hi); }

// Read: eight accumulators keep eight loads in flight per work-item (with four, an H100's read
// ceiling was within noise of a reduction's achieved bandwidth). The sum is stored only when it
// equals `marker`, which the host makes impossible (the buffer holds 1.0s, the marker is -1), so
// no load can be eliminated and no output traffic is added.
#define RL_DRAM_READ(T)                                                                                   \
  __kernel void dram_read_##T(__global const T* restrict src, __global float* restrict sink, uint per_item, \
                              float marker) {                                                             \
    T s0 = (T)(0.0f), s1 = (T)(0.0f), s2 = (T)(0.0f), s3 = (T)(0.0f);                                     \
    T s4 = (T)(0.0f), s5 = (T)(0.0f), s6 = (T)(0.0f), s7 = (T)(0.0f);                                     \
    uint k = 0;                                                                                           \
    for (; k + 7 < per_item; k += 8) {                                                                    \
      s0 += src[RL_ELEMENT(k)];                                                                           \
      s1 += src[RL_ELEMENT(k + 1)];                                                                       \
      s2 += src[RL_ELEMENT(k + 2)];                                                                       \
      s3 += src[RL_ELEMENT(k + 3)];                                                                       \
      s4 += src[RL_ELEMENT(k + 4)];                                                                       \
      s5 += src[RL_ELEMENT(k + 5)];                                                                       \
      s6 += src[RL_ELEMENT(k + 6)];                                                                       \
      s7 += src[RL_ELEMENT(k + 7)];                                                                       \
    }                                                                                                     \
    for (; k < per_item; ++k) s0 += src[RL_ELEMENT(k)];                                                   \
    const float total = rl_sum_##T(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)));                    \
    if (total == marker) sink[0] = total;                                                                 \
  }

#define RL_DRAM_COPY(T)                                                                                   \
  __kernel void dram_copy_##T(__global const T* restrict src, __global T* restrict dst, uint per_item) {  \
    for (uint k = 0; k < per_item; ++k) dst[RL_ELEMENT(k)] = src[RL_ELEMENT(k)];                          \
  }

// Write: `value` is a kernel argument, so the compiler cannot turn the loop into a memset of a
// constant.
#define RL_DRAM_WRITE(T)                                                                                  \
  __kernel void dram_write_##T(__global T* restrict dst, float value, uint per_item) {                    \
    const T v = (T)(value);                                                                               \
    for (uint k = 0; k < per_item; ++k) dst[RL_ELEMENT(k)] = v;                                           \
  }

#define RL_DRAM_KERNELS(T) RL_DRAM_READ(T) RL_DRAM_COPY(T) RL_DRAM_WRITE(T)

// One element type a program (-D RL_DRAM_TYPE=float4): the host builds its programs concurrently,
// and a GPU's build compiles every kernel of a program, so none holds a kernel it does not launch.
#ifndef RL_DRAM_TYPE
#error RL_DRAM_TYPE must name the element type: float, float2, float4, float8 or float16
#endif
#define RL_DRAM_KERNELS_OF(T) RL_DRAM_KERNELS(T)
RL_DRAM_KERNELS_OF(RL_DRAM_TYPE)
