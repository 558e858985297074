// Nsight Compute's cost per kernel, for bench/checks-h100.sh step `cost`: kernels like the default
// config's (vector add, naive matrix multiply, a shared-memory reduction, naive n-body) at the sizes
// the default config runs on an H100 (vecadd 58.7 M, matmul 2560, reduce 168 M, n-body 81920), so
// that ncu saves and restores as many bytes per pass as rooflab's bridge does, launched K times in
// turn (K from the command line). Profiled with ncu at two values of K, the difference of the two
// walls over the difference of K is ncu's cost per kernel, its own start-up left out.
// With a second argument `distinct`, every launch runs a kernel of its own (the same code, another
// instantiation, up to 16 of each kind: K at most 64), as rooflab's records each run a program of their
// own: ncu then meets each function once, as rooflab does, and pays what it pays a function it has
// not profiled before. Without it, the four kernels come round again, and ncu may reuse what it made
// for them the first time.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuda_timing.cuh"

template <int Copy>
__global__ void vecadd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <int Copy>
__global__ void matmulNaive(const float* a, const float* b, float* c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

template <int Copy>
__global__ void reduceShared(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

template <int Copy>
__global__ void nbodyNaive(const float4* pos, float4* acc, int n, float eps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  float3 a = {0, 0, 0};
  for (int j = 0; j < n; ++j) {
    const float4 q = pos[j];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps * eps);
    const float s = q.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
  }
  acc[i] = make_float4(a.x, a.y, a.z, 0);
}

using VecaddKernel = void (*)(const float*, const float*, float*, int);
using MatmulKernel = void (*)(const float*, const float*, float*, int);
using ReduceKernel = void (*)(const float*, float*, int);
using NbodyKernel = void (*)(const float4*, float4*, int, float);
constexpr int kCopies = 16;

template <int... Copies>
struct KernelCopies {
  static constexpr VecaddKernel vecadd[] = {&::vecadd<Copies>...};
  static constexpr MatmulKernel matmul[] = {&::matmulNaive<Copies>...};
  static constexpr ReduceKernel reduce[] = {&::reduceShared<Copies>...};
  static constexpr NbodyKernel nbody[] = {&::nbodyNaive<Copies>...};
};
using Copies = KernelCopies<0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>;

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 4;
  const bool distinct = argc > 2 && std::string(argv[2]) == "distinct";
  if (distinct && launches > 4 * kCopies) {
    std::fprintf(stderr, "at most %d distinct launches\n", 4 * kCopies);
    return 2;
  }
  const int n_vec = 58720256, n_mat = 2560, n_reduce = 167772160, n_body = 81920;
  float *a, *b, *c, *ma, *mb, *mc, *reduce_in, *partials;
  float4 *pos, *acc;
  CHECK(cudaMalloc(&a, n_vec * sizeof(float)));
  CHECK(cudaMalloc(&b, n_vec * sizeof(float)));
  CHECK(cudaMalloc(&c, n_vec * sizeof(float)));
  CHECK(cudaMalloc(&ma, n_mat * n_mat * sizeof(float)));
  CHECK(cudaMalloc(&mb, n_mat * n_mat * sizeof(float)));
  CHECK(cudaMalloc(&mc, n_mat * n_mat * sizeof(float)));
  CHECK(cudaMalloc(&reduce_in, std::size_t{n_reduce} * sizeof(float)));
  CHECK(cudaMalloc(&partials, (n_reduce / 256) * sizeof(float)));
  CHECK(cudaMalloc(&pos, n_body * sizeof(float4)));
  CHECK(cudaMalloc(&acc, n_body * sizeof(float4)));
  CHECK(cudaMemset(a, 0, n_vec * sizeof(float)));
  CHECK(cudaMemset(b, 0, n_vec * sizeof(float)));
  CHECK(cudaMemset(ma, 0, n_mat * n_mat * sizeof(float)));
  CHECK(cudaMemset(mb, 0, n_mat * n_mat * sizeof(float)));
  CHECK(cudaMemset(reduce_in, 0, std::size_t{n_reduce} * sizeof(float)));
  CHECK(cudaMemset(pos, 0, n_body * sizeof(float4)));
  for (int k = 0; k < launches; ++k) {
    const int copy = distinct ? k / 4 : 0;
    switch (k % 4) {
      case 0: Copies::vecadd[copy]<<<n_vec / 256, 256>>>(a, b, c, n_vec); break;
      case 1: Copies::matmul[copy]<<<dim3(n_mat / 16, n_mat / 16), dim3(16, 16)>>>(ma, mb, mc, n_mat); break;
      case 2: Copies::reduce[copy]<<<n_reduce / 256, 256>>>(reduce_in, partials, n_reduce); break;
      case 3: Copies::nbody[copy]<<<n_body / 256, 256>>>(pos, acc, n_body, 0.01f); break;
    }
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("%d kernels launched (%s)\n", launches, distinct ? "each its own function" : "four functions in turn");
  return 0;
}
