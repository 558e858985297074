#pragma once
// Empties the L2 cache of the data a launch sequence uses, so the DRAM counters of the next profiling
// pass see its inputs come from DRAM, as in a first run (Nsight Compute's --cache-control all does the
// same). Without it, the inputs just uploaded sit in L2 (50 MB on an H100) and a small variant shows a
// fraction of its compulsory DRAM traffic.
#include <cuda.h>

#include <cstddef>

namespace rooflab::counters {

class L2Flusher {
 public:
  // Needs the device's context current. Throws CudaError.
  explicit L2Flusher(CUdevice device);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  // Reads a buffer twice the L2's size, and waits for it. Reading (not writing, as a memset would)
  // leaves clean lines behind: evicting them later costs no DRAM writes inside the profiled range.
  void flush();

 private:
  void release() noexcept;

  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUdeviceptr scratch_ = 0;
  CUdeviceptr sink_ = 0;
  std::size_t scratch_words_ = 0;
  unsigned blocks_ = 0;
};

}  // namespace rooflab::counters
