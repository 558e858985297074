// A kernel that does almost nothing: a sweep of it measures what rooflab itself costs per point.
kernel void touch(global const float* a, global float* c, int n, int k) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + (float)(k & 1) * 0.0f;
}
