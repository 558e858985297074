// Vector addition, the first rung of the course: c = a + b, one element per work item.

kernel void vecadd_global(global const float* a, global const float* b, global float* c, int n) {
  const int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}

// The course's local-memory variant: a and b are staged through local memory first. Every value
// is used exactly once, so the staging cannot save a global access; it only adds local traffic
// and a barrier (the course measured it slower, and much slower on a CPU).
kernel void vecadd_local(global const float* a, global const float* b, global float* c, int n,
                         local float* a_tile, local float* b_tile) {
  const int i = get_global_id(0);
  const int l = get_local_id(0);
  if (i < n) {
    a_tile[l] = RL_LOAD(float, a, i);
    b_tile[l] = RL_LOAD(float, b, i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(a_tile[l], b_tile[l]));
}

// ---------------------------------------------------------------------------------------------
// Two broken local-memory kernels from the course, kept as examples that verification must flag.
// Both are expected to FAIL verification; they are not bugs in rooflab.

// Broken (a): the tile is indexed with the global id instead of the local id. The tile holds one
// work-group's WG elements, so for every group but the first the index is out of bounds. Real
// hardware then writes and reads somewhere undefined (or faults); here the index is clamped to the
// tile's last element, a stand-in that keeps the kernel from faulting and still gives wrong
// sums: in every group but the first, all work items store to the same slot and read it back.
#define BROKEN_TILE_INDEX(i, size) min((i), (size) - 1)
kernel void vecadd_broken_local_global_index(global const float* a, global const float* b, global float* c, int n,
                                             local float* a_tile, local float* b_tile) {
  const int i = get_global_id(0);
  const int size = get_local_size(0);
  if (i < n) {
    a_tile[BROKEN_TILE_INDEX(i, size)] = RL_LOAD(float, a, i);
    b_tile[BROKEN_TILE_INDEX(i, size)] = RL_LOAD(float, b, i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(a_tile[BROKEN_TILE_INDEX(i, size)], b_tile[BROKEN_TILE_INDEX(i, size)]));
}

// Broken (b): b is never staged, yet b_tile is read: every sum uses whatever the local memory
// held before (another work-group's or another kernel's data, or nothing defined at all).
kernel void vecadd_broken_local_unwritten(global const float* a, global const float* b, global float* c, int n,
                                          local float* a_tile, local float* b_tile) {
  const int i = get_global_id(0);
  const int l = get_local_id(0);
  if (i < n) a_tile[l] = RL_LOAD(float, a, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) RL_STORE(float, c, i, RL_ADD(a_tile[l], b_tile[l]));
}
