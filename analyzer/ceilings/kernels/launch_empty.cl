// Launch-latency micro-benchmark of `rooflab ceilings` (analyzer/ceilings/ceilings_launch.cpp): a
// kernel that does nothing, so that its events time the launch alone. The argument keeps drivers
// that drop argument-less kernels from special-casing it.
kernel void launch_empty(global int* unused) {
  if (get_global_id(0) == 0xFFFFFFFFu) unused[0] = 0;
}
