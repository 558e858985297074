#pragma once
// The host's condition while a batch runs, for its results: read at the start, the GPU clock sampled
// after every point; says on the terminal why the timings may be noisy, at the start and at the end.
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/host_condition.hpp"
#include "analyzer/device/gpu_clock.hpp"

namespace rooflab {

class HostWatch {
 public:
  // `noise_text` says why the host is noisy in the warnings, `clock_text` the GPU clock sampled, at
  // the end; empty, each is left out.
  HostWatch(const DeviceInfo& device, HostNoiseText noise_text, GpuClockText clock_text);
  void sample() { gpu_clock_.sample(); }
  HostCondition condition() const;
  void reportAtEnd() const;

 private:
  HostCondition host_;
  GpuClockSampler gpu_clock_;
  HostNoiseText noise_text_;
  GpuClockText clock_text_;
};

}  // namespace rooflab
