#pragma once
// The control kernel timed beside every record (docs/cost.md, "Drift"): a fixed piece of work whose
// time moves only when the device or the host does (a loaded CPU, a GPU clock that fell), run right
// after each of the record's timed runs, so that both see the same moments of the host. `rooflab
// diff` divides each timed run by the control beside it to tell a change of one record from a drift
// of the whole run.
#include <memory>
#include <optional>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/run_cost.hpp"
#include "analyzer/support/cl.hpp"

namespace rooflab {

class DriftControl {
 public:
  // The control's shape on this device: the same in every run on a device type, so that two runs'
  // controls compare. On a CPU a few milliseconds, so that a loaded host's scheduler takes its cores
  // away in its runs as in a kernel's (one of 0.7 ms ran within one time slice and never saw a load
  // that doubled a 5 ms kernel); tens of microseconds on a GPU, whose drift is its clock's.
  static DriftControlSpec specFor(const DeviceInfo& device);

  // Builds the control on the context; throws cl::Error when it cannot be built.
  DriftControl(const cl::Context& context, const cl::Device& device, const DeviceInfo& info);
  ~DriftControl();
  DriftControl(const DriftControl&) = delete;
  DriftControl& operator=(const DriftControl&) = delete;

  // One timed run on its own profiling queue (after one warm-up, at the first call), in device
  // nanoseconds; nullopt when it fails (the record then simply has no control).
  std::optional<double> timeOnce();
  const DriftControlSpec& spec() const { return spec_; }

 private:
  DriftControlSpec spec_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer data_;
  bool warmed_up_ = false;
};

}  // namespace rooflab
