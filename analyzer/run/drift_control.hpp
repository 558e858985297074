#pragma once
// The control kernel timed beside every record (docs/cost.md, "Drift"): a fixed piece of work whose
// time moves only when the device or the host does (a loaded CPU, a GPU clock that fell). `rooflab
// diff` compares two runs' controls to tell a change of one record from a drift of the whole run.
#include <memory>
#include <optional>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/run_cost.hpp"
#include "analyzer/support/cl.hpp"

namespace rooflab {

class DriftControl {
 public:
  // The control's shape on this device: the same in every run on a device type, so that two runs'
  // controls compare. Sized to a few milliseconds on a CPU, tens of microseconds on a GPU.
  static DriftControlSpec specFor(const DeviceInfo& device);

  // Builds the control on the context; throws cl::Error when it cannot be built.
  DriftControl(const cl::Context& context, const cl::Device& device, const DeviceInfo& info);
  ~DriftControl();
  DriftControl(const DriftControl&) = delete;
  DriftControl& operator=(const DriftControl&) = delete;

  // One warm-up run, then spec().repetitions timed ones on its own profiling queue; nullopt when a run
  // fails (the record then simply has no control).
  std::optional<DriftControlSample> time();
  const DriftControlSpec& spec() const { return spec_; }

 private:
  DriftControlSpec spec_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer data_;
};

}  // namespace rooflab
