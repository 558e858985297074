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

// ---------------------------------------------------------------------------------------------
// Rungs above the course's: 16-byte accesses. vecadd_global moves 4 bytes per load and store
// instruction, so a warp keeps 128 bytes per instruction in flight; here the buffers of floats are
// read and written as float4 (their cl_mem bases are aligned far beyond 16 bytes), VPI float4 per
// work item. The work-group's VPI*WG float4 are consecutive and work item l takes l, l + WG, ...,
// so every warp access is 512 consecutive bytes. All of a work item's loads are issued before its
// first store (restrict: no store can alias a load). The float4 view covers the first
// 4*floor(n/4) floats; the last n % 4 are added one by one by the first work items.
#ifndef VPI
#define VPI 1
#endif
#if VPI < 1 || VPI > 16
#error "VPI must be 1 to 16"
#endif

#define ADD4(u, v) \
  ((float4)(RL_ADD((u).x, (v).x), RL_ADD((u).y, (v).y), RL_ADD((u).z, (v).z), RL_ADD((u).w, (v).w)))

kernel void vecadd_float4(global const float4* restrict a, global const float4* restrict b,
                          global float4* restrict c, int n) {
  const uint n4 = (uint)n / 4;
  const uint size = get_local_size(0);
  const uint first = get_group_id(0) * (VPI * size) + get_local_id(0);
  if (first + (VPI - 1) * size < n4) {
    // Every float4 of this work item exists: no guards between the loads.
    float4 x[VPI], y[VPI];
#pragma unroll
    for (int k = 0; k < VPI; ++k) {
      x[k] = RL_LOAD4(float4, a, first + k * size);
      y[k] = RL_LOAD4(float4, b, first + k * size);
    }
#pragma unroll
    for (int k = 0; k < VPI; ++k) RL_STORE(float4, c, first + k * size, ADD4(x[k], y[k]));
  } else {
    for (uint k = 0, i = first; k < VPI && i < n4; ++k, i += size)
      RL_STORE(float4, c, i, ADD4(RL_LOAD4(float4, a, i), RL_LOAD4(float4, b, i)));
  }
  const uint tail = get_global_id(0);
  if (tail < (uint)n - 4 * n4) {
    const uint i = 4 * n4 + tail;
    RL_STORE(float, (global float*)c, i,
             RL_ADD(RL_LOAD(float, (global const float*)a, i), RL_LOAD(float, (global const float*)b, i)));
  }
}
