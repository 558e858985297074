// All-pairs gravitational acceleration (GPU Gems 3, ch. 31): for every body i,
//   a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + EPS^2)^(3/2),
// j = i included: its r is 0, so it adds nothing, and the softening EPS > 0 keeps it finite.
// pos[i] = (x, y, z, mass); acc[i] = (ax, ay, az, 0). n must be a multiple of TILE.
#ifndef TILE
#define TILE 256
#endif

// The reciprocal square root: native_rsqrt is the hardware approximation (MUFU.RSQ on NVIDIA,
// ~2^-22 relative error), far inside the family's 1e-4 tolerance; override with -D RSQRT=rsqrt.
#ifndef RSQRT
#define RSQRT native_rsqrt
#endif

// One interaction, counted as 20 flops by convention (family.toml). Memory-only mode folds the
// body's four values into the accumulator instead, so that every load stays live.
inline float3 body_body(float4 pi, float4 pj, float3 a, float eps2) {
#if RL_IS_MEMORY_ONLY
  a.x = rl_fold(a.x, rl_fold(pj.x, pi.x));
  a.y = rl_fold(a.y, rl_fold(pj.y, pi.y));
  a.z = rl_fold(a.z, rl_fold(pj.z, rl_fold(pj.w, pi.z)));
  return a;
#else
  const float3 r = pj.xyz - pi.xyz;                                     // 3 sub
  const float d2 = fma(r.x, r.x, fma(r.y, r.y, fma(r.z, r.z, eps2)));   // 3 fma
  const float inv = RSQRT(d2);                                          // 1 rsqrt
  const float s = pj.w * (inv * inv * inv);                             // 3 mul
  return fma(r, (float3)(s), a);                                        // 3 fma
#endif
}

#define STORE_ACC(acc, i, a) RL_STORE(float4, acc, i, (float4)((a).x, (a).y, (a).z, 0.0f))

// ---------------------------------------------------------------------------------------------
// Naive: every work item reads every body from global memory (the whole warp reads the same
// body at once: a broadcast that the caches serve). `#pragma unroll 1` keeps the loop rolled so
// that the unrolled rungs below are the only ones unrolled.
kernel void nbody_naive(global const float4* pos, global float4* acc, int n, float eps) {
  const int i = get_global_id(0);
  const float eps2 = eps * eps;
  const float4 pi = RL_LOAD4(float4, pos, i);
  float3 a = (float3)(0.0f);
#pragma unroll 1
  for (int j = 0; j < n; ++j) a = body_body(pi, RL_LOAD4(float4, pos, j), a, eps2);
  STORE_ACC(acc, i, a);
}

// ---------------------------------------------------------------------------------------------
// Tiled: a work-group of TILE work items loads TILE bodies into local memory, one each, and every
// work item then interacts with all of them: global traffic divided by TILE.
kernel void nbody_tiled(global const float4* pos, global float4* acc, int n, float eps) {
  local float4 tile[TILE];
  const int i = get_global_id(0);
  const int lid = get_local_id(0);
  const float eps2 = eps * eps;
  const float4 pi = RL_LOAD4(float4, pos, i);
  float3 a = (float3)(0.0f);
  for (int t = 0; t < n; t += TILE) {
    tile[lid] = RL_LOAD4(float4, pos, t + lid);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
    for (int j = 0; j < TILE; ++j) a = body_body(pi, tile[j], a, eps2);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  STORE_ACC(acc, i, a);
}

// ---------------------------------------------------------------------------------------------
// Tiled, the inner loop unrolled by hand by 2 and by 4: fewer loop branches and index updates
// per interaction, and independent interactions side by side for the scheduler.
kernel void nbody_tiled_unroll2(global const float4* pos, global float4* acc, int n, float eps) {
  local float4 tile[TILE];
  const int i = get_global_id(0);
  const int lid = get_local_id(0);
  const float eps2 = eps * eps;
  const float4 pi = RL_LOAD4(float4, pos, i);
  float3 a = (float3)(0.0f);
  for (int t = 0; t < n; t += TILE) {
    tile[lid] = RL_LOAD4(float4, pos, t + lid);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
    for (int j = 0; j < TILE; j += 2) {
      a = body_body(pi, tile[j], a, eps2);
      a = body_body(pi, tile[j + 1], a, eps2);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  STORE_ACC(acc, i, a);
}

kernel void nbody_tiled_unroll4(global const float4* pos, global float4* acc, int n, float eps) {
  local float4 tile[TILE];
  const int i = get_global_id(0);
  const int lid = get_local_id(0);
  const float eps2 = eps * eps;
  const float4 pi = RL_LOAD4(float4, pos, i);
  float3 a = (float3)(0.0f);
  for (int t = 0; t < n; t += TILE) {
    tile[lid] = RL_LOAD4(float4, pos, t + lid);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
    for (int j = 0; j < TILE; j += 4) {
      a = body_body(pi, tile[j], a, eps2);
      a = body_body(pi, tile[j + 1], a, eps2);
      a = body_body(pi, tile[j + 2], a, eps2);
      a = body_body(pi, tile[j + 3], a, eps2);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  STORE_ACC(acc, i, a);
}
