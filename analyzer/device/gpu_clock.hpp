#pragma once
// The SM clock of the GPU a batch runs on, sampled while it runs: a median measured at 1.4 GHz is
// not the median of a run at 1.98 GHz. Read through NVML (libnvidia-ml.so.1), opened at run time,
// so that rooflab has no build dependency on it and the same binary runs where there is none.
#include <cstddef>
#include <optional>
#include <string>

#include "analyzer/data/device_info.hpp"
#include "analyzer/device/host_condition.hpp"

namespace rooflab {

class GpuClockSampler {
 public:
  // Opens NVML for an NVIDIA GPU and finds `device` among NVML's GPUs (the only one, else the
  // first of its name); anything else leaves the sampler unavailable, with the reason. Never throws.
  explicit GpuClockSampler(const DeviceInfo& device);
  ~GpuClockSampler();
  GpuClockSampler(const GpuClockSampler&) = delete;
  GpuClockSampler& operator=(const GpuClockSampler&) = delete;

  // Reads the SM clock now (right after a point's timed runs, while the GPU is still busy: an idle
  // GPU lowers its clock). Never throws.
  void sample();
  std::optional<GpuClockSamples> samples() const;
  // Why there are no samples: "not an NVIDIA GPU", "libnvidia-ml.so.1 not found", ...
  const std::string& unavailableReason() const { return unavailable_reason_; }

 private:
  struct Nvml;
  Nvml* nvml_ = nullptr;
  std::optional<GpuClockSamples> samples_;
  std::string unavailable_reason_;
};

}  // namespace rooflab
