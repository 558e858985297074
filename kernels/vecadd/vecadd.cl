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
