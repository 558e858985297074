// Vendor baselines for issue 8, measured in the same script as rooflab's rungs: cuBLAS SGEMM (FP32 on
// CUDA cores, TF32 off), CUB's device-wide sum, and a float4 copy. Prints one JSON object.
// Build: nvcc -O3 -arch=native -o cuda_baselines cuda_baselines.cu -lcublas
#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_timing.cuh"

__global__ void fill(float* p, size_t n, float v) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = v * float((i * 2654435761u) % 1000) / 1000.0f;
}

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

__global__ void add4(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

int main() {
  const int reps = 20, warmup = 3;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\n  \"device\": \"%s\",\n", prop.name);

  // SGEMM, N = 4096, column-major C = A B, FP32 without TF32 (CUBLAS_PEDANTIC_MATH would forbid any
  // reduced-precision path; the default math mode already keeps SGEMM on FP32 CUDA cores).
  {
    const int n = 4096;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, sizeof(float) * n * n));
    CHECK(cudaMalloc(&b, sizeof(float) * n * n));
    CHECK(cudaMalloc(&c, sizeof(float) * n * n));
    fill<<<1024, 256>>>(a, size_t(n) * n, 1.0f);
    fill<<<1024, 256>>>(b, size_t(n) * n, 2.0f);
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    const float one = 1.0f, zero = 0.0f;
    auto run = [&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n); };
    const double ms = medianMs(run, warmup, reps);
    const double flops = 2.0 * n * double(n) * n;
    std::printf("  \"cublas_sgemm\": {\"N\": %d, \"median_ms\": %.6f, \"gflops\": %.1f, \"math\": "
                "\"CUBLAS_DEFAULT_MATH (no TF32)\"},\n",
                n, ms, flops / ms / 1e6);
    cublasDestroy(handle);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
  }

  // Sums, copies and adds of 2^26 and 2^28 floats.
  std::printf("  \"streams\": [\n");
  const int logs[] = {26, 28};
  for (int li = 0; li < 2; ++li) {
    const size_t n = size_t(1) << logs[li];
    float *in, *in2, *out, *sum;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&in2, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&sum, sizeof(float)));
    fill<<<4096, 256>>>(in, n, 1.0f);
    fill<<<4096, 256>>>(in2, n, 3.0f);
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, in, sum, n);
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    const double sum_ms = medianMs([&] { cub::DeviceReduce::Sum(temp, temp_bytes, in, sum, n); }, warmup, reps);
    const int blocks = prop.multiProcessorCount * 8;
    const double copy_ms =
        medianMs([&] { copy4<<<blocks, 256>>>((const float4*)in, (float4*)out, n / 4); }, warmup, reps);
    const double add_ms = medianMs(
        [&] { add4<<<blocks, 256>>>((const float4*)in, (const float4*)in2, (float4*)out, n / 4); }, warmup, reps);
    CHECK(cudaGetLastError());
    std::printf(
        "    {\"N\": %zu, \"cub_sum_ms\": %.6f, \"cub_sum_gbps\": %.1f, \"copy_ms\": %.6f, \"copy_gbps\": %.1f, "
        "\"add_ms\": %.6f, \"add_gbps\": %.1f}%s\n",
        n, sum_ms, 4.0 * n / sum_ms / 1e6, copy_ms, 8.0 * n / copy_ms / 1e6, add_ms, 12.0 * n / add_ms / 1e6,
        li == 0 ? "," : "");
    CHECK(cudaFree(temp));
    CHECK(cudaFree(in));
    CHECK(cudaFree(in2));
    CHECK(cudaFree(out));
    CHECK(cudaFree(sum));
  }
  std::printf("  ]\n}\n");
  return 0;
}
