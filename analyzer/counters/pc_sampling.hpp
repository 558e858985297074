#pragma once
// CUPTI's PC sampling over a bridged launch sequence, each sample mapped to the source line the
// module's line info gives its instruction. Internal to the bridge_*.cpp files.
#include <cuda.h>

#include <functional>
#include <string>
#include <vector>

#include "analyzer/counters/counters.hpp"

namespace rooflab::counters::bridge_detail {

// While it lives, keeps the cubin of every module the CUDA driver loads on this process (through
// CUPTI's module-load callback): a module compiled from PTX has no other way to hand its SASS over,
// and the sampled instructions are offsets into it. Throws CuptiError when the callback cannot be had
// (another CUPTI subscriber holds it).
class CubinCapture {
 public:
  CubinCapture();
  ~CubinCapture();
  CubinCapture(const CubinCapture&) = delete;
  CubinCapture& operator=(const CubinCapture&) = delete;
  // The cubins loaded since construction, oldest first.
  const std::vector<std::string>& cubins() const { return cubins_; }
  void add(const char* cubin, std::size_t bytes) { cubins_.emplace_back(cubin, bytes); }

 private:
  void* subscriber_ = nullptr;
  std::vector<std::string> cubins_;
};

// One sample every 2^kSamplingPeriodLog2 cycles per SM: at 1.98 GHz and 132 SMs (H100), about 32
// samples per microsecond of kernel, so that a 50 us kernel still gives 1,600 samples to place, and
// a 10 ms one 320,000, which CUPTI's default buffers hold.
constexpr int kSamplingPeriodLog2 = 13;

// Runs `run_sequence` once with PC sampling on `context` (current), then maps every sampled
// instruction to its line through the cubin it came from, one of `cubins` (the modules
// `run_sequence` launches from). Throws CuptiError or CudaError; a sample whose instruction has no
// line is counted under file "".
PcSampling samplePcs(CUcontext context, const std::vector<std::string>& cubins,
                     const std::function<void()>& run_sequence);

}  // namespace rooflab::counters::bridge_detail
