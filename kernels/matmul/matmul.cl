// Square matrix multiply C = A x B (float32, N x N, N a multiple of 32): the course's optimisation
// ladder, one kernel per rung. Work-group shapes and tile sizes are in family.toml.
//
// Layout. COL_MAJOR (a define, 0 or 1) says how A, B and C are stored. Every kernel computes, in
// row-major terms, R = P x Q through the macros below. Row-major: P = A, Q = B, R = C. Column-major
// storage of a matrix is row-major storage of its transpose, and C^T = B^T A^T, so column-major
// C = A x B is the same row-major product with P = B's storage and Q = A's storage. Every access
// pattern (coalescing, bank conflicts, vector loads) is therefore the same in both layouts; only
// the roles of the two input buffers swap.
#ifndef COL_MAJOR
#define COL_MAJOR 0
#endif
#if COL_MAJOR
#define MM_P(a, b) (b)
#define MM_Q(a, b) (a)
#else
#define MM_P(a, b) (a)
#define MM_Q(a, b) (b)
#endif
// Element (r, c) of the n x n row-major P, Q or R (n is every kernel's size argument).
#define AT(r, c) ((r) * n + (c))

// ---------------------------------------------------------------------------------------------
// 1, 2. Naive: one work item per output element, every operand straight from global memory.
// Dimension 0 runs along the columns of R, so with 128x1 work-groups the 32 work items of a warp
// read 32 consecutive elements of a row of Q and write 32 consecutive elements of R (coalesced),
// and all read the same element of P (a broadcast). With 1x128 work-groups a warp runs down a
// column instead: 32 rows of P and R, n floats apart, one memory transaction per work item.
kernel void mm_naive(global const float* a, global const float* b, global float* c, int n) {
  global const float* p = MM_P(a, b);
  global const float* q = MM_Q(a, b);
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc = RL_FMA(RL_LOAD(float, p, AT(row, k)), RL_LOAD(float, q, AT(k, col)), acc);
  RL_STORE(float, c, AT(row, col), acc);
}

// ---------------------------------------------------------------------------------------------
// 3. Tiled through local memory: a TS x TS work-group stages a TS x TS tile of P and one of Q per
// step, so every element loaded from global memory is used TS times (CGMA 2N^3 / (2N^3/TS)).
#ifndef TS
#define TS 16
#endif
kernel void mm_tiled(global const float* a, global const float* b, global float* c, int n) {
  global const float* p = MM_P(a, b);
  global const float* q = MM_Q(a, b);
  local float p_tile[TS][TS];
  local float q_tile[TS][TS];
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int col = get_group_id(0) * TS + tx;
  const int row = get_group_id(1) * TS + ty;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    p_tile[ty][tx] = RL_LOAD(float, p, AT(row, t + tx));
    q_tile[ty][tx] = RL_LOAD(float, q, AT(t + ty, col));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc = RL_FMA(p_tile[ty][k], q_tile[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  RL_STORE(float, c, AT(row, col), acc);
}

// ---------------------------------------------------------------------------------------------
// 4. 32x32 tiles computed by 32x16 work items, two outputs each (rows ty and ty + 16 of the
// tile): every Q value read from local memory feeds two FMAs, and the tiles halve global traffic
// again (CGMA 32).
kernel void mm_tiled32_2pt(global const float* a, global const float* b, global float* c, int n) {
  global const float* p = MM_P(a, b);
  global const float* q = MM_Q(a, b);
  local float p_tile[32][32];
  local float q_tile[32][32];
  const int tx = get_local_id(0);  // 0..31
  const int ty = get_local_id(1);  // 0..15
  const int col = get_group_id(0) * 32 + tx;
  const int row = get_group_id(1) * 32 + ty;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int t = 0; t < n; t += 32) {
    p_tile[ty][tx] = RL_LOAD(float, p, AT(row, t + tx));
    p_tile[ty + 16][tx] = RL_LOAD(float, p, AT(row + 16, t + tx));
    q_tile[ty][tx] = RL_LOAD(float, q, AT(t + ty, col));
    q_tile[ty + 16][tx] = RL_LOAD(float, q, AT(t + ty + 16, col));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 32; ++k) {
      const float qv = q_tile[k][tx];
      acc0 = RL_FMA(p_tile[ty][k], qv, acc0);
      acc1 = RL_FMA(p_tile[ty + 16][k], qv, acc1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  RL_STORE(float, c, AT(row, col), acc0);
  RL_STORE(float, c, AT(row + 16, col), acc1);
}

// ---------------------------------------------------------------------------------------------
// 5. As 4, with the Q tile stored transposed: q_tile_t[column][k]. A warp (32 consecutive tx, one
// ty) then reads q_tile_t[tx][k], 32 + PAD floats apart: with PAD = 0 all 32 addresses fall in
// one bank (a 32-way conflict, on the transposing stores as well); PAD = 1 spreads them over all
// 32 banks. The "_unpadded" variant runs this kernel with PAD = 0 to measure the conflict.
#ifndef PAD
#define PAD 1
#endif
kernel void mm_tiled32_2pt_transposed(global const float* a, global const float* b, global float* c, int n) {
  global const float* p = MM_P(a, b);
  global const float* q = MM_Q(a, b);
  local float p_tile[32][32];
  local float q_tile_t[32][32 + PAD];
  const int tx = get_local_id(0);  // 0..31
  const int ty = get_local_id(1);  // 0..15
  const int col = get_group_id(0) * 32 + tx;
  const int row = get_group_id(1) * 32 + ty;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int t = 0; t < n; t += 32) {
    p_tile[ty][tx] = RL_LOAD(float, p, AT(row, t + tx));
    p_tile[ty + 16][tx] = RL_LOAD(float, p, AT(row + 16, t + tx));
    q_tile_t[tx][ty] = RL_LOAD(float, q, AT(t + ty, col));
    q_tile_t[tx][ty + 16] = RL_LOAD(float, q, AT(t + ty + 16, col));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 32; ++k) {
      const float qv = q_tile_t[tx][k];
      acc0 = RL_FMA(p_tile[ty][k], qv, acc0);
      acc1 = RL_FMA(p_tile[ty + 16][k], qv, acc1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  RL_STORE(float, c, AT(row, col), acc0);
  RL_STORE(float, c, AT(row + 16, col), acc1);
}

// ---------------------------------------------------------------------------------------------
// 6. One operand in local memory only (Volkov & Demmel, SC'08): a work-group of 64 work items
// owns a block of 16 rows x 64 columns of R (their "64x16 block" in column-major terms), each work
// item one column of it, 16 outputs in registers. Per step of 16 along k, the 16x16 tile of P goes
// to local memory (read back as broadcasts: the whole warp reads the same element) and each work
// item streams 16 values of its own column of Q straight from global memory into registers
// (coalesced across the warp), applying each as a rank-1 update to its 16 accumulators.
// Columns beyond n (n = 32 needs one 64-wide block) clamp their loads and skip their stores.
kernel void mm_volkov_64x16(global const float* a, global const float* b, global float* c, int n) {
  global const float* p = MM_P(a, b);
  global const float* q = MM_Q(a, b);
  local float p_tile[16][16];
  const int lid = get_local_id(0);  // 0..63
  const int col = get_global_id(0);
  const int qcol = min(col, n - 1);
  const int row0 = get_group_id(1) * 16;
  float acc[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) acc[i] = 0.0f;
  for (int t = 0; t < n; t += 16) {
    // Issue this step's 16 loads of Q first, so they are in flight during the tile load.
    float qv[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) qv[k] = RL_LOAD(float, q, AT(t + k, qcol));
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = lid / 16 + 4 * i;
      p_tile[r][lid % 16] = RL_LOAD(float, p, AT(row0 + r, t + lid % 16));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < 16; ++k) {
#pragma unroll
      for (int i = 0; i < 16; ++i) acc[i] = RL_FMA(p_tile[i][k], qv[k], acc[i]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (col < n) {
#pragma unroll
    for (int i = 0; i < 16; ++i) RL_STORE(float, c, AT(row0 + i, col), acc[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// 7. Register-blocked: a 16x16 work-group computes a 128x128 tile of R, each work item an 8x8
// block in private memory (64 accumulators), stepping along k by BK.
//  - Global loads are float4 (n is a multiple of 32, so every row starts 16-byte aligned) and
//    cooperative: the Q tile (BK x 128) is read as 32 consecutive float4 per row (512 bytes per
//    warp); the P tile (128 x BK) as BK/4 float4 per row.
//  - The P tile is stored transposed, p_t[k][m], so that the compute loop reads 4 consecutive
//    rows of P as one float4; its rows are padded by PAD_P = 4 floats (keeps float4 alignment)
//    so that the transposing scalar stores of a warp hit 32 different banks.
//  - A work item owns rows {4ty..4ty+3, 64+4ty..64+4ty+3} and the same pattern of columns with
//    tx, so that it reads its 8 values of P and of Q per k as two float4 each, a warp's reads
//    are contiguous (no bank conflict) and its stores to C are 128 contiguous bytes per row.
//  - Double buffering: the next tile's float4s are loaded into registers before the current tile
//    is consumed, written to the other local buffer after it, and one barrier per step suffices.
// Work-groups of a tile beyond n (n = 32 or 64) clamp their loads and skip their stores.
#ifndef BK
#define BK 8
#endif
#define BM 128
#define BN 128
#define PAD_P 4
#define P_LOADS (BM * BK / 4 / 256)  // float4 loads of P per work item per step
#define Q_LOADS (BK * BN / 4 / 256)  // and of Q
#if BK % 4 != 0 || P_LOADS < 1
#error "BK must be a multiple of 4, at least 8"
#endif

kernel void mm_blocked128_8x8(global const float* a, global const float* b, global float* c, int n) {
  global const float4* p4 = (global const float4*)MM_P(a, b);
  global const float4* q4 = (global const float4*)MM_Q(a, b);
  global float4* c4 = (global float4*)c;
  local float p_t[2][BK][BM + PAD_P] __attribute__((aligned(16)));
  local float q_s[2][BK][BN] __attribute__((aligned(16)));

  const int tid = get_local_id(1) * 16 + get_local_id(0);
  // The work item's column group tx and row group ty (0..15 each). A warp (32 consecutive tid)
  // covers 8 tx by 4 ty, so that per k its float4 reads take 128 contiguous bytes of the Q tile
  // and 64 of the P tile: one shared-memory wavefront each (a 16 x 2 warp would need two for Q).
  const int lane = tid % 32, warp = tid / 32;
  const int tx = (warp % 2) * 8 + lane % 8;
  const int ty = (warp / 2) * 4 + lane / 8;
  const int m0 = get_group_id(1) * BM;  // first row of R in this tile
  const int n0 = get_group_id(0) * BN;  // first column
  const int n4 = n / 4;                 // float4 per row

  // Which float4 each work item loads: element f of the P tile is row f / (BK/4), k offset
  // 4 (f % (BK/4)); element f of the Q tile is k row f / (BN/4), column 4 (f % (BN/4)).
  int p_row[P_LOADS], p_k[P_LOADS], p_src[P_LOADS];
  int q_k[Q_LOADS], q_col[Q_LOADS], q_src[Q_LOADS];
#pragma unroll
  for (int l = 0; l < P_LOADS; ++l) {
    const int f = tid + l * 256;
    p_row[l] = f / (BK / 4);
    p_k[l] = 4 * (f % (BK / 4));
    p_src[l] = min(m0 + p_row[l], n - 1) * n4 + p_k[l] / 4;
  }
#pragma unroll
  for (int l = 0; l < Q_LOADS; ++l) {
    const int f = tid + l * 256;
    q_k[l] = f / (BN / 4);
    q_col[l] = 4 * (f % (BN / 4));
    q_src[l] = q_k[l] * n4 + min(n0 + q_col[l], n - 4) / 4;
  }

  float4 p_next[P_LOADS], q_next[Q_LOADS];
#pragma unroll
  for (int l = 0; l < P_LOADS; ++l) p_next[l] = RL_LOAD(float4, p4, p_src[l]);
#pragma unroll
  for (int l = 0; l < Q_LOADS; ++l) q_next[l] = RL_LOAD(float4, q4, q_src[l]);
#pragma unroll
  for (int l = 0; l < P_LOADS; ++l) {
    p_t[0][p_k[l] + 0][p_row[l]] = p_next[l].x;
    p_t[0][p_k[l] + 1][p_row[l]] = p_next[l].y;
    p_t[0][p_k[l] + 2][p_row[l]] = p_next[l].z;
    p_t[0][p_k[l] + 3][p_row[l]] = p_next[l].w;
  }
#pragma unroll
  for (int l = 0; l < Q_LOADS; ++l) *(local float4*)&q_s[0][q_k[l]][q_col[l]] = q_next[l];
  barrier(CLK_LOCAL_MEM_FENCE);

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  int buf = 0;
  for (int t = 0; t < n; t += BK) {
    const bool more = t + BK < n;
    if (more) {
      // P advances BK columns (BK/4 float4), Q advances BK rows.
#pragma unroll
      for (int l = 0; l < P_LOADS; ++l) p_next[l] = RL_LOAD(float4, p4, p_src[l] + (t + BK) / 4);
#pragma unroll
      for (int l = 0; l < Q_LOADS; ++l) q_next[l] = RL_LOAD(float4, q4, q_src[l] + (t + BK) * n4);
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 pa = *(local const float4*)&p_t[buf][k][4 * ty];
      const float4 pb = *(local const float4*)&p_t[buf][k][64 + 4 * ty];
      const float4 qa = *(local const float4*)&q_s[buf][k][4 * tx];
      const float4 qb = *(local const float4*)&q_s[buf][k][64 + 4 * tx];
      const float pr[8] = {pa.x, pa.y, pa.z, pa.w, pb.x, pb.y, pb.z, pb.w};
      const float qr[8] = {qa.x, qa.y, qa.z, qa.w, qb.x, qb.y, qb.z, qb.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = RL_FMA(pr[i], qr[j], acc[i][j]);
    }
    if (more) {
      const int next = buf ^ 1;
#pragma unroll
      for (int l = 0; l < P_LOADS; ++l) {
        p_t[next][p_k[l] + 0][p_row[l]] = p_next[l].x;
        p_t[next][p_k[l] + 1][p_row[l]] = p_next[l].y;
        p_t[next][p_k[l] + 2][p_row[l]] = p_next[l].z;
        p_t[next][p_k[l] + 3][p_row[l]] = p_next[l].w;
      }
#pragma unroll
      for (int l = 0; l < Q_LOADS; ++l) *(local float4*)&q_s[next][q_k[l]][q_col[l]] = q_next[l];
    }
    // Orders this step's reads of `buf` before the next step's writes to it, and this step's
    // writes to `next` before the next step's reads.
    barrier(CLK_LOCAL_MEM_FENCE);
    buf ^= 1;
  }

  const int ca = n0 + 4 * tx;       // first column of each float4 this work item stores
  const int cb = n0 + 64 + 4 * tx;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
    if (row < n) {
      if (ca < n) RL_STORE(float4, c4, row * n4 + ca / 4, (float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
      if (cb < n) RL_STORE(float4, c4, row * n4 + cb / 4, (float4)(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 8. The tunable top rung: rung 7 with its shape, lane layout and buffering chosen by defines, so
// that a batch can try several on the GPU (family.toml lists the points as variants).
//  - A work-group of MT_NT = (MT_BM / MT_TM) x (MT_BN / MT_TN) work items (one dimension) computes
//    an MT_BM x MT_BN tile of R; each work item MT_TM x MT_TN outputs, as (MT_TM/4) x (MT_TN/4)
//    blocks of 4x4 spread over strips: rows 4 ty + s (4 MT_TY) + {0..3} for strip s, columns
//    likewise with tx, so each k reads MT_TM/4 + MT_TN/4 float4 from local memory.
//  - Warps tile the grid of work items in patches of MT_WX (along columns) x 32/MT_WX (along
//    rows), so that a float4 read of a warp covers 16 MT_WX contiguous bytes of the Q tile and
//    16 (32/MT_WX) of the P tile: no bank conflict.
//  - MT_PAIRS = 1 interleaves the lanes: lane bit 0 is a tx bit and lane bit 1 a ty bit. A 128-bit
//    shared load returns 4 registers per lane, 4 wavefronts of 128 bytes, unless lanes n and n^1
//    (or n and n^2) read the same address, when it takes 2. P reads depend on ty only (lanes n and
//    n^1 then agree) and Q reads on tx only (n and n^2 agree): 2 wavefronts each. With the plain
//    layout of rung 7 (tx = lane % 8) Q reads take 4: the H100 counted 3 wavefronts per LDS.128.
//  - The P tile is stored transposed (p_t[k][m], rows padded by MT_PAD floats, a multiple of 4 so
//    float4 reads stay aligned). Its global float4 loads are ordered (k pair, row, k pair): each
//    work item pair reads 32 contiguous bytes (a full sector) of one row, a warp 16 rows, and the
//    transposing scalar stores of a warp go to 16 rows x 2 k, banks row + 4 MT_PAD (k & 1):
//    conflict-free for MT_PAD = 4 (rung 7's order gave 2-way conflicts at BK = 16).
//  - MT_DB = 1: two local buffers, the next tile loaded into registers during the current one and
//    stored to the other buffer after it, one barrier per step. MT_DB = 0: one buffer (half the
//    local memory, so MT_BK = 32 fits in 48 KB), the same register prefetch, two barriers per step.
//  - MT_KUNROLL: how far the k loop of a step is unrolled (1 .. MT_BK). Fully unrolled, the
//    compiler hoists local reads of later k and holds their values: rung 7 at BK = 16 took 155
//    registers on the H100, one 256-work-item group per SM. Rolled (1) or by 2, the estimate is
//    123 or 128, so two groups (16 warps) fit in the 65536 registers of an SM.
//  - MT_REQD = 1 declares reqd_work_group_size, so the compiler knows the block size.
// Tiles beyond n (n a multiple of 32, not of the tile) clamp their loads and skip their stores.
#ifdef MT_BM
#ifndef MT_PAD
#define MT_PAD 4
#endif
#ifndef MT_DB
#define MT_DB 1
#endif
#ifndef MT_PAIRS
#define MT_PAIRS 1
#endif
#ifndef MT_REQD
#define MT_REQD 1
#endif
#ifndef MT_WX
#define MT_WX 8
#endif
#ifndef MT_KUNROLL
#define MT_KUNROLL MT_BK
#endif
 // `#pragma unroll MT_KUNROLL` would rely on the compiler expanding macros inside a pragma.
#define MT_PRAGMA(x) _Pragma(#x)
#define MT_UNROLL(u) MT_PRAGMA(unroll u)
#define MT_TX (MT_BN / MT_TN)          // work items along columns
#define MT_TY (MT_BM / MT_TM)          // and along rows
#define MT_NT (MT_TX * MT_TY)          // work items per work-group
#define MT_WY (32 / MT_WX)
#define MT_SM (MT_TM / 4)              // 4x4 blocks per work item along rows
#define MT_SN (MT_TN / 4)              // and along columns
#define MT_KQ (MT_BK / 4)              // float4 per row of the P tile
#define MT_P_LOADS (MT_BM * MT_KQ / MT_NT)
#define MT_Q_LOADS (MT_BK * MT_BN / 4 / MT_NT)
#define MT_NB (MT_DB ? 2 : 1)
#if MT_TM % 4 || MT_TN % 4 || MT_BM % 16 || MT_BK % 8 || 32 % MT_BK || MT_TX % MT_WX || MT_TY % MT_WY || MT_WX < 2 || MT_WY < 2
#error "mm_tile: MT_TM, MT_TN multiples of 4; MT_BM of 16; MT_BK 8, 16 or 32; the work-item grid a whole number of MT_WX x 32/MT_WX warps"
#endif
#if MT_P_LOADS < 1 || MT_P_LOADS * MT_NT != MT_BM * MT_KQ || MT_Q_LOADS < 1 || MT_Q_LOADS * MT_NT * 4 != MT_BK * MT_BN || MT_PAD % 4
#error "mm_tile: every work item must load whole float4s of both tiles, and MT_PAD must be a multiple of 4"
#endif
#if MT_REQD
#define MT_ATTR __attribute__((reqd_work_group_size(MT_NT, 1, 1)))
#else
#define MT_ATTR
#endif

// The steps of the k loop, as macros over the kernel's variables.
#define MT_LOAD_P(t_)                                                                         \
  _Pragma("unroll") for (int l = 0; l < MT_P_LOADS; ++l) p_next[l] = RL_LOAD4(float4, p4, p_src[l] + (t_) / 4)
#define MT_LOAD_Q(t_)                                                                         \
  _Pragma("unroll") for (int l = 0; l < MT_Q_LOADS; ++l) q_next[l] = RL_LOAD4(float4, q4, q_src[l] + (t_) * n4)
#define MT_STORE_P(b_)                                                                        \
  _Pragma("unroll") for (int l = 0; l < MT_P_LOADS; ++l) {                                   \
    p_t[b_][p_k[l] + 0][p_row[l]] = p_next[l].x;                                              \
    p_t[b_][p_k[l] + 1][p_row[l]] = p_next[l].y;                                              \
    p_t[b_][p_k[l] + 2][p_row[l]] = p_next[l].z;                                              \
    p_t[b_][p_k[l] + 3][p_row[l]] = p_next[l].w;                                              \
  }
#define MT_STORE_Q(b_)                                                                        \
  _Pragma("unroll") for (int l = 0; l < MT_Q_LOADS; ++l) *(local float4*)&q_s[b_][q_k[l]][q_col[l]] = q_next[l]
// k from k0_ to k1_ - 1 on buffer `buf`: MT_TM/4 + MT_TN/4 float4 reads, MT_TM x MT_TN FMAs per k.
#define MT_COMPUTE(k0_, k1_)                                                                  \
  MT_UNROLL(MT_KUNROLL) for (int k = (k0_); k < (k1_); ++k) {                                 \
    float pr[MT_TM], qr[MT_TN];                                                               \
    _Pragma("unroll") for (int s = 0; s < MT_SM; ++s) {                                      \
      const float4 v = *(local const float4*)&p_t[buf][k][s * 4 * MT_TY + 4 * ty];            \
      pr[4 * s + 0] = v.x;                                                                    \
      pr[4 * s + 1] = v.y;                                                                    \
      pr[4 * s + 2] = v.z;                                                                    \
      pr[4 * s + 3] = v.w;                                                                    \
    }                                                                                         \
    _Pragma("unroll") for (int s = 0; s < MT_SN; ++s) {                                      \
      const float4 v = *(local const float4*)&q_s[buf][k][s * 4 * MT_TX + 4 * tx];            \
      qr[4 * s + 0] = v.x;                                                                    \
      qr[4 * s + 1] = v.y;                                                                    \
      qr[4 * s + 2] = v.z;                                                                    \
      qr[4 * s + 3] = v.w;                                                                    \
    }                                                                                         \
    _Pragma("unroll") for (int i = 0; i < MT_TM; ++i)                                        \
      _Pragma("unroll") for (int j = 0; j < MT_TN; ++j) acc[i][j] = RL_FMA(pr[i], qr[j], acc[i][j]); \
  }

kernel MT_ATTR void mm_tile(global const float* a, global const float* b, global float* c, int n) {
  global const float4* p4 = (global const float4*)MM_P(a, b);
  global const float4* q4 = (global const float4*)MM_Q(a, b);
  global float4* c4 = (global float4*)c;
  local float p_t[MT_NB][MT_BK][MT_BM + MT_PAD] __attribute__((aligned(16)));
  local float q_s[MT_NB][MT_BK][MT_BN] __attribute__((aligned(16)));

  const int tid = get_local_id(0);
  const int lane = tid % 32, warp = tid / 32;
#if MT_PAIRS
  const int lx = (lane & 1) | (((lane >> 2) % (MT_WX / 2)) << 1);
  const int ly = ((lane >> 1) & 1) | (((lane >> 2) / (MT_WX / 2)) << 1);
#else
  const int lx = lane % MT_WX;
  const int ly = lane / MT_WX;
#endif
  const int tx = (warp % (MT_TX / MT_WX)) * MT_WX + lx;  // 0 .. MT_TX-1
  const int ty = (warp / (MT_TX / MT_WX)) * MT_WY + ly;  // 0 .. MT_TY-1
  const int m0 = get_group_id(1) * MT_BM;
  const int n0 = get_group_id(0) * MT_BN;
  const int n4 = n / 4;

  // P tile element f (a float4): k pair bit f & 1, row (f / 2) % MT_BM, k pair (f / 2) / MT_BM.
  // Q tile element f: k row f / (MT_BN/4), column 4 (f % (MT_BN/4)).
  int p_row[MT_P_LOADS], p_k[MT_P_LOADS], p_src[MT_P_LOADS];
  int q_k[MT_Q_LOADS], q_col[MT_Q_LOADS], q_src[MT_Q_LOADS];
#pragma unroll
  for (int l = 0; l < MT_P_LOADS; ++l) {
    const int f = tid + l * MT_NT;
    p_row[l] = (f / 2) % MT_BM;
    p_k[l] = 4 * (2 * ((f / 2) / MT_BM) + (f & 1));
    p_src[l] = min(m0 + p_row[l], n - 1) * n4 + p_k[l] / 4;
  }
#pragma unroll
  for (int l = 0; l < MT_Q_LOADS; ++l) {
    const int f = tid + l * MT_NT;
    q_k[l] = f / (MT_BN / 4);
    q_col[l] = 4 * (f % (MT_BN / 4));
    q_src[l] = q_k[l] * n4 + min(n0 + q_col[l], n - 4) / 4;
  }

  float4 p_next[MT_P_LOADS], q_next[MT_Q_LOADS];
  MT_LOAD_P(0);
  MT_LOAD_Q(0);
  MT_STORE_P(0);
  MT_STORE_Q(0);
  barrier(CLK_LOCAL_MEM_FENCE);

  float acc[MT_TM][MT_TN];
#pragma unroll
  for (int i = 0; i < MT_TM; ++i)
#pragma unroll
    for (int j = 0; j < MT_TN; ++j) acc[i][j] = 0.0f;

  int buf = 0;
  for (int t = 0; t < n; t += MT_BK) {
    const bool more = t + MT_BK < n;
#if MT_DB
    const int next = buf ^ 1;
#else
    const int next = 0;
#endif
    if (more) {
      MT_LOAD_P(t + MT_BK);
    }
    if (more) {
      MT_LOAD_Q(t + MT_BK);
    }
    MT_COMPUTE(0, MT_BK);
#if !MT_DB
    barrier(CLK_LOCAL_MEM_FENCE);  // every work item is done reading the one buffer
#endif
    if (more) {
      MT_STORE_P(next);
      MT_STORE_Q(next);
    }
    // Double-buffered: orders this step's reads of `buf` before the next step's writes to it, and
    // this step's writes to `next` before the next step's reads. Single: the writes before the reads.
    barrier(CLK_LOCAL_MEM_FENCE);
    buf = next;
  }

#pragma unroll
  for (int i = 0; i < MT_TM; ++i) {
    const int row = m0 + (i / 4) * 4 * MT_TY + 4 * ty + i % 4;
    if (row < n) {
#pragma unroll
      for (int s = 0; s < MT_SN; ++s) {
        const int col = n0 + s * 4 * MT_TX + 4 * tx;
        if (col < n)
          RL_STORE(float4, c4, row * n4 + col / 4,
                   (float4)(acc[i][4 * s + 0], acc[i][4 * s + 1], acc[i][4 * s + 2], acc[i][4 * s + 3]));
      }
    }
  }
}
#endif  // MT_BM
