// Kernels the PTX bridge once could not launch, in the forms real code has them.

// A __constant pointer argument, as CLBlast passes its small tables: NVIDIA's OpenCL reads it with
// ld.const from a constant bank.
__kernel void weighted_sum(__global const float* x, __constant float* w, __global float* y, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k) sum += w[k] * x[(i + k) % n];
  y[i] = sum;
}

// Rodinia's backprop bpnn_layerforward_ocl: two __local arguments, 2-D launches of 16x16 groups,
// one group per 16 inputs in the second dimension.
#define HEIGHT 16
#define WIDTH 16
__kernel void bpnn_layerforward_ocl(__global float* input_cuda, __global float* output_hidden_cuda,
                                    __global float* input_hidden_cuda, __global float* hidden_partial_sum,
                                    __local float* input_node, __local float* weight_matrix, int in, int hid) {
  int by = get_group_id(1);
  int tx = get_local_id(0);
  int ty = get_local_id(1);
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = HEIGHT * by + ty + 1;
  if (tx == 0) input_node[ty] = input_cuda[index_in];
  barrier(CLK_LOCAL_MEM_FENCE);
  weight_matrix[ty * WIDTH + tx] = input_hidden_cuda[index];
  barrier(CLK_LOCAL_MEM_FENCE);
  weight_matrix[ty * WIDTH + tx] = weight_matrix[ty * WIDTH + tx] * input_node[ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 1; i <= 4; i++) {
    int power_two = 1 << i;
    if (ty % power_two == 0) weight_matrix[ty * WIDTH + tx] += weight_matrix[(ty + power_two / 2) * WIDTH + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  input_hidden_cuda[index] = weight_matrix[ty * WIDTH + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx * WIDTH + ty];
  (void)output_hidden_cuda;
}
