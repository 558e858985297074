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

// RSQRT_PTX_FTZ 1, on NVIDIA only: the reciprocal square root as inline PTX `rsqrt.approx.ftz.f32`.
// native_rsqrt becomes the non-FTZ `rsqrt.approx.f32`, whose denormal fix-up costs about three
// instructions beside the MUFU per interaction (H100 counters: 16.4 issued per interaction, 12 of them
// FP32), and -cl-denorms-are-zero did not remove it. Positions are O(1), so no operand is denormal.
// Elsewhere the define changes nothing.
#if defined(RSQRT_PTX_FTZ) && RSQRT_PTX_FTZ && defined(cl_nv_pragma_unroll)
inline float rl_rsqrt_ftz(float x) {
  float r;
  __asm__("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
#undef RSQRT
#define RSQRT rl_rsqrt_ftz
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

// ---------------------------------------------------------------------------------------------
// Register blocking with the j-range split across work items (rungs above the course's).
//
// The unrolled rungs still pay, per interaction, one local-memory float4 read and a share of the
// loop's branch and index updates on top of its 12 FP32 instructions and one rsqrt: on an SM that
// issues one instruction per clock per scheduler, every one of those is an FP32 slot lost. Here a
// work item holds BPI bodies i in registers and applies each body j it reads from the tile to all
// of them: one local read per BPI interactions, BPI independent dependency chains per j.
//
// BPI bodies per item divide the number of work items by BPI, which starves the GPU at moderate N
// (N = 32768 and BPI = 4: 8192 work items for 132 SMs). SLICES work items therefore share the same
// BPI bodies and each takes 1/SLICES of every tile's bodies j; at the end the slices' partial
// accelerations are added in local memory. Layout of a work-group of TILE work items:
//   slice = lid / ROWS, row = lid % ROWS, ROWS = TILE / SLICES (a multiple of 32 on NVIDIA keeps
//   every warp in one slice, so all its lanes read the same tile entry: a broadcast);
//   the group owns ROWS*BPI bodies: body b of row r is group*ROWS*BPI + b*ROWS + r (coalesced);
//   each tile holds TILE bodies j, one loaded by each work item; slice s uses tile[s*ROWS ..
//   (s+1)*ROWS), UNROLL bodies j per loop iteration, unrolled (UNROLL = ROWS: the whole slice of
//   the tile straight-line), each against the BPI bodies (unrolled too).
// N must be a multiple of TILE and of ROWS*BPI. SLICES = 1 is plain register blocking.
#ifndef BPI
#define BPI 4
#endif
#ifndef SLICES
#define SLICES 1
#endif
#ifndef UNROLL
#define UNROLL 8
#endif
#define ROWS (TILE / SLICES)
#if TILE % SLICES != 0
#error "TILE must be a multiple of SLICES"
#endif
#if ROWS % UNROLL != 0
#error "TILE / SLICES must be a multiple of UNROLL"
#endif
#if BPI < 1 || BPI > 16
#error "BPI must be 1 to 16"
#endif

// Slices 1.. hand their partial sums to slice 0 through local memory; returns whether this work
// item holds its bodies' whole accelerations (slice 0). Every work item of the group must call it.
inline bool sum_slices(local float4* part, float3* a, int slice, int row) {
#if SLICES > 1
  if (slice > 0) {
#pragma unroll
    for (int b = 0; b < BPI; ++b) part[((slice - 1) * BPI + b) * ROWS + row] = (float4)(a[b], 0.0f);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slice > 0) return false;
  for (int s = 1; s < SLICES; ++s) {
#pragma unroll
    for (int b = 0; b < BPI; ++b) {
      const float4 q = part[((s - 1) * BPI + b) * ROWS + row];
      a[b] = (float3)(RL_ADD(a[b].x, q.x), RL_ADD(a[b].y, q.y), RL_ADD(a[b].z, q.z));
    }
  }
#endif
  return true;
}

#if SLICES > 1
#define PART_FLOAT4S ((SLICES - 1) * BPI * ROWS)
#else
#define PART_FLOAT4S 1
#endif

kernel void nbody_blocked(global const float4* pos, global float4* acc, int n, float eps) {
  local float4 tile[TILE];
  local float4 part[PART_FLOAT4S];
  const int lid = get_local_id(0);
  const int slice = lid / ROWS;
  const int row = lid - slice * ROWS;
  const int first = get_group_id(0) * (ROWS * BPI) + row;   // body b of this item: first + b*ROWS
  const float eps2 = eps * eps;
  float4 p[BPI];
  float3 a[BPI];
#pragma unroll
  for (int b = 0; b < BPI; ++b) {
    p[b] = RL_LOAD4(float4, pos, first + b * ROWS);
    a[b] = (float3)(0.0f);
  }
  const int j0 = slice * ROWS;   // this slice's part of every tile
  for (int t = 0; t < n; t += TILE) {
    tile[lid] = RL_LOAD4(float4, pos, t + lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    // UNROLL bodies j per iteration against the BPI bodies i: both inner loops have constant trip
    // counts and are unrolled, so p and a stay in registers.
#pragma unroll 1
    for (int j = j0; j < j0 + ROWS; j += UNROLL) {
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const float4 pj = tile[j + u];
#pragma unroll
        for (int b = 0; b < BPI; ++b) a[b] = body_body(p[b], pj, a[b], eps2);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (!sum_slices(part, a, slice, row)) return;
#pragma unroll
  for (int b = 0; b < BPI; ++b) STORE_ACC(acc, first + b * ROWS, a[b]);
}

// ---------------------------------------------------------------------------------------------
// Register blocking without local tiles: bodies j are read straight from global memory. Every lane
// of a warp reads the same body j at once, one request that L1 (or L2) serves, and one read feeds
// BPI interactions, so local memory buys nothing here; without it the main loop has no barrier, and
// no warp waits for a tile's global load or for the slowest warp of its group. Slice s of the
// group takes bodies j in [s*N/SLICES, (s+1)*N/SLICES); the slices' sums meet in local memory at
// the end as in nbody_blocked. N must be a multiple of ROWS*BPI and of SLICES*UNROLL.
kernel void nbody_blocked_global(global const float4* restrict pos, global float4* restrict acc, int n,
                                 float eps) {
  local float4 part[PART_FLOAT4S];
  const int lid = get_local_id(0);
  const int slice = lid / ROWS;
  const int row = lid - slice * ROWS;
  const int first = get_group_id(0) * (ROWS * BPI) + row;
  const float eps2 = eps * eps;
  float4 p[BPI];
  float3 a[BPI];
#pragma unroll
  for (int b = 0; b < BPI; ++b) {
    p[b] = RL_LOAD4(float4, pos, first + b * ROWS);
    a[b] = (float3)(0.0f);
  }
  const int span = n / SLICES;
  const int j0 = slice * span;
#pragma unroll 1
  for (int j = j0; j < j0 + span; j += UNROLL) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const float4 pj = RL_LOAD4(float4, pos, j + u);
#pragma unroll
      for (int b = 0; b < BPI; ++b) a[b] = body_body(p[b], pj, a[b], eps2);
    }
  }
  if (!sum_slices(part, a, slice, row)) return;
#pragma unroll
  for (int b = 0; b < BPI; ++b) STORE_ACC(acc, first + b * ROWS, a[b]);
}
