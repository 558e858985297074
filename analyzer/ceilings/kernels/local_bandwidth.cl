// Local-memory bandwidth micro-benchmark of `rooflab ceilings` (analyzer/ceilings/ceilings.cpp).
//
// Each work-group fills a __local tile of RL_TILE_VECTORS vectors of RL_VECTOR_WIDTH floats (a
// power of two count), then every work-item reads 8 vectors per iteration from it and sums them.
// The host picks float4 on GPUs (one 16-byte shared-memory load per work-item, the widest a GPU
// serves per lane) and the native width on CPUs, where __local is ordinary cached memory and wide
// SIMD loads are what reach the L1 bandwidth. Consecutive work-items read consecutive vectors, so a
// warp's reads fall in distinct banks (no conflicts); the start index moves every iteration, so no
// load is loop-invariant and none can be hoisted. The host counts 8 x sizeof(vector) bytes per
// iteration per work-item, so a work-item's 8 reads must be 8 different vectors: they are RL_STRIDE =
// RL_TILE_VECTORS / 8 apart. (Offsets of k x the group size wrapped around a tile smaller than 8
// groups' worth: reads 4 apart hit the same vector, the compiler merged them, and the H100's figure
// came out at twice its 33.5 TB/s datasheet.) RL_GROUP_SIZE is the launch's work-group size.
#if RL_VECTOR_WIDTH == 2
typedef float2 realv;
#elif RL_VECTOR_WIDTH == 4
typedef float4 realv;
#elif RL_VECTOR_WIDTH == 8
typedef float8 realv;
#elif RL_VECTOR_WIDTH == 16
typedef float16 realv;
#else
#error RL_VECTOR_WIDTH must be 2, 4, 8 or 16
#endif

__kernel void local_read(__global realv* restrict out, uint iterations) {
  __local realv tile[RL_TILE_VECTORS];
  const uint lid = (uint)get_local_id(0);
  for (uint j = lid; j < RL_TILE_VECTORS; j += RL_GROUP_SIZE) tile[j] = (realv)((float)j * 1.0e-3f);
  barrier(CLK_LOCAL_MEM_FENCE);

#define RL_STRIDE (RL_TILE_VECTORS / 8)
#if RL_STRIDE < 1
#error RL_TILE_VECTORS must be at least 8
#endif
  const uint mask = RL_TILE_VECTORS - 1;
  realv sum0 = (realv)(0.0f), sum1 = (realv)(0.0f), sum2 = (realv)(0.0f), sum3 = (realv)(0.0f);
  uint index = lid;
  for (uint i = 0; i < iterations; ++i) {
    sum0 += tile[index & mask];
    sum1 += tile[(index + 1 * RL_STRIDE) & mask];
    sum2 += tile[(index + 2 * RL_STRIDE) & mask];
    sum3 += tile[(index + 3 * RL_STRIDE) & mask];
    sum0 += tile[(index + 4 * RL_STRIDE) & mask];
    sum1 += tile[(index + 5 * RL_STRIDE) & mask];
    sum2 += tile[(index + 6 * RL_STRIDE) & mask];
    sum3 += tile[(index + 7 * RL_STRIDE) & mask];
    index += 8 * RL_GROUP_SIZE + 1;
  }
  out[get_global_id(0)] = (sum0 + sum1) + (sum2 + sum3);
}
