// The host link as CUDA sees it, for the `link` step of bench/checks-h100.sh: cudaMemcpy host-to-device
// and device-to-host from pinned (cudaMallocHost) and pageable (malloc) memory over sizes up to
// 256 MiB, each the median of CUDA-event timings, and an empty kernel's launch as CUDA events see it.
// rooflab's link ceilings (OpenCL, the same driver) are read beside these. Prints one JSON object.
// Build: nvcc -O3 -arch=native -o link_baseline link_baseline.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_timing.cuh"

__global__ void empty() {}

int main() {
  const size_t sizes[] = {size_t(4) << 10,  size_t(64) << 10, size_t(1) << 20,
                          size_t(16) << 20, size_t(64) << 20, size_t(256) << 20};
  const size_t largest = sizes[sizeof sizes / sizeof sizes[0] - 1];
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  void* device = nullptr;
  void* pinned = nullptr;
  CHECK(cudaMalloc(&device, largest));
  CHECK(cudaMallocHost(&pinned, largest));
  void* pageable = std::malloc(largest);
  if (!pageable) return 1;
  std::memset(pageable, 1, largest);  // every page touched before timing
  std::memset(pinned, 1, largest);
  CHECK(cudaMemset(device, 0, largest));

  std::printf(
      "{\n  \"device\": \"%s\",\n  \"timing\": \"cudaMemcpy between CUDA events, median of 10 after 2 warm-ups\",\n",
      prop.name);
  struct Way {
    const char* name;
    void* host;
    cudaMemcpyKind kind;
  };
  const Way ways[] = {{"pinned_h2d", pinned, cudaMemcpyHostToDevice},
                      {"pinned_d2h", pinned, cudaMemcpyDeviceToHost},
                      {"pageable_h2d", pageable, cudaMemcpyHostToDevice},
                      {"pageable_d2h", pageable, cudaMemcpyDeviceToHost}};
  for (const Way& way : ways) {
    std::printf("  \"%s\": [", way.name);
    bool first = true;
    for (size_t bytes : sizes) {
      auto run = [&] {
        if (way.kind == cudaMemcpyHostToDevice) CHECK(cudaMemcpy(device, way.host, bytes, way.kind));
        else CHECK(cudaMemcpy(way.host, device, bytes, way.kind));
      };
      const double ms = medianMs(run, 2, 10);
      std::printf("%s{\"bytes\": %zu, \"ms\": %.6f, \"gbps\": %.3f}", first ? "" : ", ", bytes, ms,
                  double(bytes) / ms / 1e6);
      first = false;
    }
    std::printf("],\n");
  }
  // An empty kernel between two events: launch and completion as the device's timeline sees them.
  const double launch_ms = medianMs([] { empty<<<1, 1>>>(); }, 10, 200);
  std::printf("  \"empty_kernel_event_us\": %.3f\n}\n", launch_ms * 1000);
  CHECK(cudaFree(device));
  CHECK(cudaFreeHost(pinned));
  std::free(pageable);
  return 0;
}
