// Issue 8, nbody: is 12 FP32 + 1 MUFU per interaction an issue-rate cap of the GPU, or of rooflab's
// OpenCL kernel? Two measurements, printed as one JSON object:
//  - probes: F FFMA per MUFU.RSQ (F = 6, 12, 24) and FFMA alone, in independent chains at full
//    occupancy; the warp-instruction issue rate per scheduler and cycle says what an instruction
//    mix costs before any n-body detail (loads, barriers, register pressure) enters;
//  - nbody_cuda: nbody_blocked (BPI = 4, SLICES = 16, 512 threads: rooflab's best shape) written in
//    CUDA and built by nvcc -use_fast_math: the vendor compiler's version of the same rung.
// Build: nvcc -O3 -arch=sm_90 -use_fast_math -o issue_probe issue_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuda_timing.cuh"

constexpr int kUnits = 4;         // independent MUFU chains per thread
constexpr int kAccumulators = 8;  // independent FFMA chains per thread

// Per unit and iteration: one MUFU.RSQ and FFMA_PER_MUFU FFMA (FFMA_PER_MUFU - 1 into the
// accumulators, one feeding the next rsqrt's argument). FFMA_PER_MUFU = 0: FFMA only, kUnits x 12 per
// iteration. All operands stay finite and data-dependent so that nothing folds.
// DEFERRED: each rsqrt's result is first used one iteration later, so that no FFMA waits on a MUFU
// that has just been issued (the ceiling of the mix, not of its latency).
template <int FFMA_PER_MUFU, bool DEFERRED = false>
__global__ void issueProbe(float* out, int iterations, float seed) {
  float acc[kAccumulators];
  float d[kUnits];
  float pending[kUnits];
#pragma unroll
  for (int m = 0; m < kAccumulators; ++m) acc[m] = seed + 0.001f * (threadIdx.x + m);
#pragma unroll
  for (int k = 0; k < kUnits; ++k) {
    d[k] = 1.0f + seed * k + 0.01f * threadIdx.x;
    pending[k] = rsqrtf(d[k]);
  }
#pragma unroll 4
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int k = 0; k < kUnits; ++k) {
      if constexpr (FFMA_PER_MUFU == 0) {
#pragma unroll
        for (int i = 0; i < 12; ++i) {
          float& a = acc[(k * 12 + i) % kAccumulators];
          a = fmaf(a, 0.999f, d[k]);
        }
      } else {
        float r = rsqrtf(d[k]);
        if constexpr (DEFERRED) {
          const float next = r;
          r = pending[k];
          pending[k] = next;
        }
#pragma unroll
        for (int i = 0; i < FFMA_PER_MUFU - 1; ++i) {
          float& a = acc[(k * FFMA_PER_MUFU + i) % kAccumulators];
          a = fmaf(r, a, 0.5f);
        }
        d[k] = fmaf(acc[k], 1e-7f, d[k]);
      }
    }
  }
  float sum = 0;
#pragma unroll
  for (int m = 0; m < kAccumulators; ++m) sum += acc[m];
#pragma unroll
  for (int k = 0; k < kUnits; ++k) sum += d[k] + pending[k];
  if (sum == 12345.678f) out[0] = sum;  // never true; keeps the work live
}

// nbody_blocked of kernels/nbody/nbody.cl at BPI = 4, SLICES = 16, TILE = 512 (ROWS = 32), the whole
// slice of each tile unrolled.
constexpr int kTile = 512, kSlices = 16, kRows = kTile / kSlices, kBpi = 4;

// Two 512-thread blocks per SM (at most 64 registers), as NVIDIA's OpenCL compiled the rung.
__global__ void __launch_bounds__(kTile, 2)
    nbodyBlocked(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float eps) {
  __shared__ float4 tile[kTile];
  __shared__ float4 part[(kSlices - 1) * kBpi * kRows];
  const int lid = threadIdx.x;
  const int slice = lid / kRows;
  const int row = lid - slice * kRows;
  const int first = blockIdx.x * (kRows * kBpi) + row;
  const float eps2 = eps * eps;
  float4 p[kBpi];
  float3 a[kBpi];
#pragma unroll
  for (int b = 0; b < kBpi; ++b) {
    p[b] = pos[first + b * kRows];
    a[b] = make_float3(0, 0, 0);
  }
  const int j0 = slice * kRows;
  for (int t = 0; t < n; t += kTile) {
    tile[lid] = pos[t + lid];
    __syncthreads();
#pragma unroll
    for (int u = 0; u < kRows; ++u) {
      const float4 pj = tile[j0 + u];
#pragma unroll
      for (int b = 0; b < kBpi; ++b) {
        const float rx = pj.x - p[b].x, ry = pj.y - p[b].y, rz = pj.z - p[b].z;
        const float d2 = fmaf(rx, rx, fmaf(ry, ry, fmaf(rz, rz, eps2)));
        const float inv = rsqrtf(d2);
        const float s = pj.w * (inv * inv * inv);
        a[b].x = fmaf(rx, s, a[b].x);
        a[b].y = fmaf(ry, s, a[b].y);
        a[b].z = fmaf(rz, s, a[b].z);
      }
    }
    __syncthreads();
  }
  if (slice > 0) {
#pragma unroll
    for (int b = 0; b < kBpi; ++b)
      part[((slice - 1) * kBpi + b) * kRows + row] = make_float4(a[b].x, a[b].y, a[b].z, 0);
  }
  __syncthreads();
  if (slice > 0) return;
  for (int s = 1; s < kSlices; ++s) {
#pragma unroll
    for (int b = 0; b < kBpi; ++b) {
      const float4 q = part[((s - 1) * kBpi + b) * kRows + row];
      a[b].x += q.x;
      a[b].y += q.y;
      a[b].z += q.z;
    }
  }
#pragma unroll
  for (int b = 0; b < kBpi; ++b) acc[first + b * kRows] = make_float4(a[b].x, a[b].y, a[b].z, 0);
}

template <int F, bool DEFERRED = false>
void runProbe(float* out, int sms, bool& comma) {
  const int threads = 256, blocks = sms * 8, iterations = 4096;  // 2048 threads per SM: full occupancy
  const double ms = medianMs([&] { issueProbe<F, DEFERRED><<<blocks, threads>>>(out, iterations, 0.5f); }, 2, 10);
  CHECK(cudaGetLastError());
  const int per_unit = F == 0 ? 12 : F + 1;
  const double warp_instructions = double(blocks) * threads / 32 * iterations * kUnits * per_unit;
  const double inst_per_ns_per_scheduler = warp_instructions / (ms * 1e6) / (sms * 4.0);
  std::printf(
      "%s\n    {\"ffma_per_mufu\": %d, \"mufu_result_used\": \"%s\", \"ms\": %.4f, \"warp_instructions\": %.0f, "
      "\"warp_instructions_per_scheduler_per_ns\": %.4f}",
      comma ? "," : "", F, DEFERRED ? "next iteration" : "at once", ms, warp_instructions, inst_per_ns_per_scheduler);
  comma = true;
}

int main() {
  int device = 0, sms = 0, clock_khz = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));
  float* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float)));

  std::printf("{\n  \"device\": \"%s\", \"sms\": %d, \"max_clock_mhz\": %.0f,\n  \"probes\": [", prop.name, sms,
              clock_khz / 1e3);
  bool comma = false;
  runProbe<0>(out, sms, comma);
  runProbe<24>(out, sms, comma);
  runProbe<12>(out, sms, comma);
  runProbe<12, true>(out, sms, comma);
  runProbe<6>(out, sms, comma);
  std::printf("\n  ],\n  \"nbody_cuda\": [");

  comma = false;
  for (const int n : {32768, 65536, 131072}) {
    std::vector<float4> host(n);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& b : host) b = make_float4(u(rng), u(rng), u(rng), u(rng));
    float4 *pos = nullptr, *acc = nullptr;
    CHECK(cudaMalloc(&pos, n * sizeof(float4)));
    CHECK(cudaMalloc(&acc, n * sizeof(float4)));
    CHECK(cudaMemcpy(pos, host.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    const float eps = 0.01f;
    const int blocks = n / (kRows * kBpi);
    const double ms = medianMs([&] { nbodyBlocked<<<blocks, kTile>>>(pos, acc, n, eps); }, 3, 20);
    CHECK(cudaGetLastError());
    // Check 64 bodies against a float64 sum (the family's tolerance: 1e-4 of the larger of the
    // element and the checked elements' rms).
    std::vector<float4> got(n);
    CHECK(cudaMemcpy(got.data(), acc, n * sizeof(float4), cudaMemcpyDeviceToHost));
    double err2 = 0, ref2 = 0;
    for (int i = 0; i < 64; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < n; ++j) {
        const double rx = double(host[j].x) - host[i].x, ry = double(host[j].y) - host[i].y,
                     rz = double(host[j].z) - host[i].z;
        const double d2 = rx * rx + ry * ry + rz * rz + double(eps) * eps;
        const double s = host[j].w / (d2 * std::sqrt(d2));
        ax += rx * s;
        ay += ry * s;
        az += rz * s;
      }
      err2 += (got[i].x - ax) * (got[i].x - ax) + (got[i].y - ay) * (got[i].y - ay) + (got[i].z - az) * (got[i].z - az);
      ref2 += ax * ax + ay * ay + az * az;
    }
    const double gflops = 20.0 * double(n) * n / (ms * 1e6);
    std::printf(
        "%s\n    {\"n\": %d, \"ms\": %.4f, \"gflops_20_per_interaction\": %.0f, \"rel_l2_error_64_bodies\": %.2e}",
        comma ? "," : "", n, ms, gflops, std::sqrt(err2 / ref2));
    comma = true;
    CHECK(cudaFree(pos));
    CHECK(cudaFree(acc));
  }
  std::printf("\n  ]\n}\n");
  CHECK(cudaFree(out));
  return 0;
}
