// Sum of n floats: Mark Harris's seven steps ("Optimizing Parallel Reduction in CUDA"), one kernel
// per step. Each kernel reduces its input to one partial sum per work-group; family.toml chains
// launches (pass 1 over the input, pass 2 over the partials, and a last pass with the step-7
// kernel down to the single output). Every kernel guards its loads with `< n`, so n need not be
// a multiple of anything (a uniform branch where it is).
//
// BLOCK (a define) is the work-group size: a power of two from 64 to 1024. Steps 1 to 5 read the
// size at run time (get_local_size) and take their local memory as an argument, as Harris's do;
// steps 6 and 7 know it at compile time. They read get_local_size(0) once, into `size`: PoCL 3.1
// miscompiles step 1's loop when the condition of a loop holding a barrier calls it (the tree's
// adds were lost, on the CPU device only).
#ifndef BLOCK
#define BLOCK 256
#endif
#if BLOCK < 64 || BLOCK > 1024 || (BLOCK & (BLOCK - 1)) != 0
#error "BLOCK must be a power of two from 64 to 1024"
#endif

// WARP_SYNC (0 by default) selects how the last 32 work items finish, in steps 5 to 7.
//
// Harris's step 5 lets the first warp run its last six steps with no barrier, relying on the
// warp's lanes executing in lockstep through a `volatile` shared array. OpenCL promises nothing
// of the kind, and on NVIDIA GPUs since Volta (independent thread scheduling) it is a data race
// even in CUDA. So:
//  - WARP_SYNC 0 (portable, the default): each of the six steps is written out (no loop, no
//    counter) and followed by a work-group barrier that every work item reaches. Correct on any
//    OpenCL device; what remains of Harris's gain is the unrolling.
//  - WARP_SYNC 1 on NVIDIA (the compiler defines cl_nv_pragma_unroll): only the first warp runs
//    the six steps, through a `volatile local` pointer, separating each read from the following
//    write by `bar.warp.sync` (inline PTX, sm_70+; CUDA's __syncwarp), which also orders the
//    warp's shared-memory accesses. That is the warp-synchronous step done correctly, and relies
//    on work items 0..31 of a one-dimensional work-group forming one warp, as NVIDIA documents.
//    Elsewhere WARP_SYNC 1 falls back to the portable code.
#ifndef WARP_SYNC
#define WARP_SYNC 0
#endif
#if WARP_SYNC && defined(cl_nv_pragma_unroll)
#define RL_WARP_SYNC_PTX 1
#define WARP_BARRIER() __asm__ __volatile__("bar.warp.sync -1;" ::: "memory")
#else
#define RL_WARP_SYNC_PTX 0
#endif

// The last six steps of a sequential-addressing tree, from 64 partial sums in s[0..63] (all
// written before a barrier) to s[0]. Every work item of the group must call it.
inline void last_warp(local float* s, uint tid) {
#if RL_WARP_SYNC_PTX
  if (tid < 32) {
    volatile local float* v = s;
    float x = RL_ADD(v[tid], v[tid + 32]);
    WARP_BARRIER(); v[tid] = x; WARP_BARRIER();
    x = RL_ADD(x, v[tid + 16]);
    WARP_BARRIER(); v[tid] = x; WARP_BARRIER();
    x = RL_ADD(x, v[tid + 8]);
    WARP_BARRIER(); v[tid] = x; WARP_BARRIER();
    x = RL_ADD(x, v[tid + 4]);
    WARP_BARRIER(); v[tid] = x; WARP_BARRIER();
    x = RL_ADD(x, v[tid + 2]);
    WARP_BARRIER(); v[tid] = x; WARP_BARRIER();
    x = RL_ADD(x, v[tid + 1]);
    if (tid == 0) v[0] = x;
  }
#else
  if (tid < 32) s[tid] = RL_ADD(s[tid], s[tid + 32]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 16) s[tid] = RL_ADD(s[tid], s[tid + 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 8) s[tid] = RL_ADD(s[tid], s[tid + 8]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 4) s[tid] = RL_ADD(s[tid], s[tid + 4]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 2) s[tid] = RL_ADD(s[tid], s[tid + 2]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 1) s[tid] = RL_ADD(s[tid], s[tid + 1]);
#endif
}

// Element i of the input, or 0 past its end.
#define LOAD_OR_ZERO(in, i, n) ((i) < (uint)(n) ? RL_LOAD(float, in, i) : 0.0f)

// ---------------------------------------------------------------------------------------------
// 1. Interleaved addressing, divergent branch: at stride s only work items whose id is a
// multiple of 2s add, so every warp stays busy-but-mostly-idle, and % is slow.
kernel void reduce1_interleaved_divergent(global const float* in, global float* out, int n, local float* s) {
  const uint tid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint i = get_global_id(0);
  s[tid] = LOAD_OR_ZERO(in, i, n);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 1; stride < size; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] = RL_ADD(s[tid], s[tid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 2. Interleaved addressing, strided index: the first work items do the adds (no divergence
// within full warps), but at stride s a warp touches s[2s*tid]: bank conflicts that grow with s.
kernel void reduce2_interleaved_strided(global const float* in, global float* out, int n, local float* s) {
  const uint tid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint i = get_global_id(0);
  s[tid] = LOAD_OR_ZERO(in, i, n);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 1; stride < size; stride *= 2) {
    const uint index = 2 * stride * tid;
    if (index < size) s[index] = RL_ADD(s[index], s[index + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 3. Sequential addressing: at stride s the first s work items add s[tid + s], consecutive
// addresses, conflict-free. Half the work items are idle from the first step on.
kernel void reduce3_sequential(global const float* in, global float* out, int n, local float* s) {
  const uint tid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint i = get_global_id(0);
  s[tid] = LOAD_OR_ZERO(in, i, n);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = size / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] = RL_ADD(s[tid], s[tid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 4. First add during the load: a work-group of B work items reduces 2B elements, adding two
// while loading; half as many work-groups, none idle at the start.
kernel void reduce4_first_add(global const float* in, global float* out, int n, local float* s) {
  const uint tid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint i = get_group_id(0) * (2 * size) + tid;
  s[tid] = RL_ADD(LOAD_OR_ZERO(in, i, n), LOAD_OR_ZERO(in, i + size, n));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = size / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] = RL_ADD(s[tid], s[tid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 5. As 4, the loop stops at 64 partial sums and the last six steps are unrolled (last_warp:
// see WARP_SYNC above for what is and is not warp-synchronous).
kernel void reduce5_unroll_last_warp(global const float* in, global float* out, int n, local float* s) {
  const uint tid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint i = get_group_id(0) * (2 * size) + tid;
  s[tid] = RL_ADD(LOAD_OR_ZERO(in, i, n), LOAD_OR_ZERO(in, i + size, n));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = size / 2; stride > 32; stride >>= 1) {
    if (tid < stride) s[tid] = RL_ADD(s[tid], s[tid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  last_warp(s, tid);
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 6. Completely unrolled: BLOCK is a compile-time constant (Harris's template parameter), so the
// tree is straight-line code with the steps that cannot apply removed by the preprocessor.
inline void block_tree(local float* s, uint tid) {
#if BLOCK >= 1024
  if (tid < 512) s[tid] = RL_ADD(s[tid], s[tid + 512]);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if BLOCK >= 512
  if (tid < 256) s[tid] = RL_ADD(s[tid], s[tid + 256]);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if BLOCK >= 256
  if (tid < 128) s[tid] = RL_ADD(s[tid], s[tid + 128]);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if BLOCK >= 128
  if (tid < 64) s[tid] = RL_ADD(s[tid], s[tid + 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  last_warp(s, tid);
}

kernel void reduce6_unrolled(global const float* in, global float* out, int n) {
  local float s[BLOCK];
  const uint tid = get_local_id(0);
  const uint i = get_group_id(0) * (2 * BLOCK) + tid;
  s[tid] = RL_ADD(LOAD_OR_ZERO(in, i, n), LOAD_OR_ZERO(in, i + BLOCK, n));
  barrier(CLK_LOCAL_MEM_FENCE);
  block_tree(s, tid);
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// 7. Several elements per work item: a fixed number of work-groups walks the input with a grid
// stride, two elements per work item per step, in registers; then the unrolled tree. With one
// work-group it reduces any number of partial sums to one: every variant's last pass uses it.
kernel void reduce7_multiple(global const float* in, global float* out, int n) {
  local float s[BLOCK];
  const uint tid = get_local_id(0);
  const uint grid = 2 * BLOCK * get_num_groups(0);
  float sum = 0.0f;
  for (uint i = get_group_id(0) * (2 * BLOCK) + tid; i < (uint)n; i += grid) {
    sum = RL_ADD(sum, RL_LOAD(float, in, i));
    if (i + BLOCK < (uint)n) sum = RL_ADD(sum, RL_LOAD(float, in, i + BLOCK));
  }
  s[tid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  block_tree(s, tid);
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// ---------------------------------------------------------------------------------------------
// Rungs above Harris's seven (they reach the DRAM read ceiling, not just approach it).
//
// 8. Step 7 loads one float per load instruction and has only two loads in flight per work item
// per iteration, and its second launch costs a few microseconds at the end. Here the input is read
// as float4 (16-byte loads, as rooflab's DRAM-read ceiling kernel does), LOADS of them issued
// before any is added, in a grid-stride loop: load k of an iteration at i + k*grid float4s, so a
// warp's loads are consecutive 16-byte elements (coalesced) and each work item keeps 16*LOADS bytes
// in flight. The float4 view covers the first 4*floor(n/4) floats; the last n % 4 floats are added
// by the first work items. The input buffer is a cl_mem of floats: its base is aligned far beyond
// 16 bytes, so reading it as float4 is safe.
#ifndef LOADS
#define LOADS 4
#endif
#if LOADS < 1 || LOADS > 16
#error "LOADS must be 1 to 16"
#endif

#define ADD4(s, v) \
  ((s) = (float4)(RL_ADD((s).x, (v).x), RL_ADD((s).y, (v).y), RL_ADD((s).z, (v).z), RL_ADD((s).w, (v).w)))

// This work item's share of the n floats at `in`, summed in registers.
inline float float4_grid_sum(global const float4* in, int n) {
  const uint n4 = (uint)n / 4;
  const uint grid = get_global_size(0);
  uint i = get_global_id(0);
  float4 sum = (float4)(0.0f);
  for (; i + (LOADS - 1) * grid < n4; i += LOADS * grid) {
    float4 v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) v[k] = RL_LOAD4(float4, in, i + k * grid);
#pragma unroll
    for (int k = 0; k < LOADS; ++k) ADD4(sum, v[k]);
  }
  for (; i < n4; i += grid) {
    const float4 v = RL_LOAD4(float4, in, i);
    ADD4(sum, v);
  }
  const uint tail = get_global_id(0);
  if (tail < (uint)n - 4 * n4) sum.x = RL_ADD(sum.x, RL_LOAD(float, (global const float*)in, 4 * n4 + tail));
  return RL_ADD(RL_ADD(sum.x, sum.y), RL_ADD(sum.z, sum.w));
}

// One partial sum per work-group (pass 1; reduce7_multiple sums the partials in pass 2).
kernel void reduce8_float4(global const float4* in, global float* out, int n) {
  local float s[BLOCK];
  const uint tid = get_local_id(0);
  s[tid] = float4_grid_sum(in, n);
  barrier(CLK_LOCAL_MEM_FENCE);
  block_tree(s, tid);
  if (tid == 0) RL_STORE(float, out, get_group_id(0), s[0]);
}

// 9. As 8 in one launch: every work-group publishes its partial sum and takes a ticket from an
// atomic counter; the work-group that draws the last ticket sums the partials (the "threadfence
// reduction" of the CUDA samples). No work-group waits for another, so it cannot deadlock on any
// scheduling of work-groups (PoCL runs them in any order).
//
// counter[0] is the ticket counter and counter[1] its starting value: the kernel needs only that
// both words are equal when it starts, not that they are 0. rooflab fills a scratch buffer with one
// repeated byte before every run (they are equal), and the last work-group sets counter[0] back to
// counter[1], so back-to-back launches on the same buffer work too.
//
// Ordering: a work-group's partial must be visible to the last work-group before its ticket is.
// On NVIDIA (cl_nv_pragma_unroll) that is CUDA's __threadfence(), membar.gl, between the store and
// the atomic, and again after the ticket before the partials are read (volatile loads, not cached
// in L1). Elsewhere mem_fence(CLK_GLOBAL_MEM_FENCE), which on PoCL's CPU device sits beside a
// locked read-modify-write (a full barrier on x86).
#if defined(cl_nv_pragma_unroll)
#define DEVICE_FENCE() __asm__ __volatile__("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

kernel void reduce9_single_pass(global const float4* in, global float* out, int n,
                                global float* partial, global volatile uint* counter) {
  local float s[BLOCK];
  local uint last;
  const uint tid = get_local_id(0);
  const uint groups = get_num_groups(0);
  s[tid] = float4_grid_sum(in, n);
  barrier(CLK_LOCAL_MEM_FENCE);
  block_tree(s, tid);
  if (tid == 0) {
    RL_STORE(float, partial, get_group_id(0), s[0]);
    DEVICE_FENCE();
    const uint ticket = atomic_inc(&counter[0]) - counter[1];
    DEVICE_FENCE();
    last = ticket == groups - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!last) return;
  // The last work-group: every partial is published.
  volatile global const float* published = partial;
  float sum = 0.0f;
  for (uint g = tid; g < groups; g += BLOCK) sum = RL_ADD(sum, RL_LOAD(float, published, g));
  s[tid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  block_tree(s, tid);
  if (tid == 0) {
    RL_STORE(float, out, 0, s[0]);
    counter[0] = counter[1];
  }
}
