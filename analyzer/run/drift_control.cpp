#include "analyzer/run/drift_control.hpp"

#include <vector>

namespace rooflab {
namespace {

// Two dependent chains of multiply-adds per work-item that converge to 1 (no denormal, no overflow,
// whatever the iteration count), and one load and store: the work of a small compute-bound kernel
// of many work-groups, which runs on every core a CPU device has, as most kernels do.
constexpr const char* kControlSource = R"(
__kernel void rooflab_drift_control(__global float* data, const int iterations) {
  const size_t i = get_global_id(0);
  float x = data[i];
  float y = 1.0f - x;
  for (int k = 0; k < iterations; ++k) {
    x = x * 0.9f + 0.1f;
    y = y * 0.8f + 0.2f;
  }
  data[i] = 0.5f * (x + y);
}
)";

constexpr std::size_t kLocalSize = 64;

}  // namespace

DriftControlSpec DriftControl::specFor(const DeviceInfo& device) {
  DriftControlSpec spec;
  const bool cpu = device.type == "CPU";
  spec.global_size = cpu ? 16384 : 1 << 20;
  spec.iterations = cpu ? 128 : 512;
  spec.repetitions = 0;  // one beside each of the record's timed runs
  spec.kernel = "rooflab_drift_control " + std::to_string(spec.global_size) + " x " + std::to_string(spec.iterations) +
                " x 2 FMA";
  return spec;
}

DriftControl::DriftControl(const cl::Context& context, const cl::Device& device, const DeviceInfo& info)
    : spec_(specFor(info)), queue_(context, device, CL_QUEUE_PROFILING_ENABLE) {
  cl::Program program(context, kControlSource);
  program.build({device});
  kernel_ = cl::Kernel(program, "rooflab_drift_control");
  const std::vector<float> initial(static_cast<std::size_t>(spec_.global_size), 0.5f);
  data_ = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, initial.size() * sizeof(float),
                     const_cast<float*>(initial.data()));
  kernel_.setArg(0, data_);
  kernel_.setArg(1, static_cast<cl_int>(spec_.iterations));
}

DriftControl::~DriftControl() = default;

std::optional<double> DriftControl::timeOnce() {
  try {
    // One warm-up in the worker's life: a first launch may compile the kernel (PoCL).
    for (int run = warmed_up_ ? 1 : 0; run <= 1; ++run) {
      cl::Event event;
      queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(static_cast<std::size_t>(spec_.global_size)),
                                  cl::NDRange(kLocalSize), nullptr, &event);
      event.wait();
      warmed_up_ = true;
      if (run == 1)
        return static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                   event.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    }
  } catch (const cl::Error&) {
  }
  return std::nullopt;
}

}  // namespace rooflab
