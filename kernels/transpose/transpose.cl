// Matrix transpose, out[x][y] = in[y][x], of an N x N float matrix (N a multiple of TILE).
// Loads and stores go through RL_LOAD / RL_STORE, so rooflab builds the compute-only and memory-only
// mutants from these kernels as written.

// One element per work item: the loads of a work-group's rows are coalesced, its stores walk down a
// column of `out`, one 32-byte sector per element.
kernel void transpose_naive(global const float* in, global float* out, int N) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
#ifdef RL_WHATIF_COALESCED_STORES
  // What-if (deliberately wrong): each element stored where it was read, so stores are coalesced as
  // the loads are; the same bytes move.
  RL_STORE(float, out, y * N + x, RL_LOAD(float, in, y * N + x));
#else
  RL_STORE(float, out, x * N + y, RL_LOAD(float, in, y * N + x));
#endif
}

#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef PAD
#define PAD 0
#endif

// A TILE x TILE tile staged in local memory so that both global loads and stores are coalesced. A
// work-group of TILE x ROWS items moves TILE / ROWS rows each. With PAD 0 the tile's column read
// (tile[tx][...]) hits one bank TILE times over: a TILE-way bank conflict on each read. PAD 1 shifts
// each row by one bank, and the column read is conflict-free.
kernel void transpose_tiled(global const float* in, global float* out, int N) {
  local float tile[TILE][TILE + PAD];
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int x0 = get_group_id(0) * TILE;
  const int y0 = get_group_id(1) * TILE;
  for (int j = 0; j < TILE; j += ROWS) tile[ty + j][tx] = RL_LOAD(float, in, (y0 + ty + j) * N + x0 + tx);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < TILE; j += ROWS) {
#ifdef RL_WHATIF_NO_BANK_CONFLICTS
    // What-if (deliberately wrong): the tile read along its rows, as it was written, which no bank
    // serialises; the same local and global traffic, the elements in the wrong places.
    const float v = tile[ty + j][tx];
#else
    const float v = tile[tx][ty + j];
#endif
    RL_STORE(float, out, (x0 + ty + j) * N + y0 + tx, v);
  }
}
