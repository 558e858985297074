#include "analyzer/device/gpu_clock.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace rooflab {

// The few NVML entry points rooflab uses, with their C signatures from nvml.h (NVML_SUCCESS is 0,
// NVML_CLOCK_SM is 1, nvmlDevice_t is an opaque pointer).
struct GpuClockSampler::Nvml {
  using Device = void*;
  void* library = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*count)(unsigned*) = nullptr;
  int (*handle_by_index)(unsigned, Device*) = nullptr;
  int (*name)(Device, char*, unsigned) = nullptr;
  int (*clock_info)(Device, int, unsigned*) = nullptr;
  Device device = nullptr;
  bool initialised = false;
};

namespace {

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

template <class Function>
bool bind(void* library, const char* symbol, Function& function) {
  function = reinterpret_cast<Function>(::dlsym(library, symbol));
  return function != nullptr;
}

}  // namespace

GpuClockSampler::GpuClockSampler(const DeviceInfo& device) {
  if (!device.isNvidia() || !device.isGpu()) {
    unavailable_reason_ = "not an NVIDIA GPU";
    return;
  }
  auto nvml = new Nvml;
  nvml_ = nvml;
  nvml->library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml->library == nullptr) {
    unavailable_reason_ = "libnvidia-ml.so.1 not found";
    return;
  }
  if (!bind(nvml->library, "nvmlInit_v2", nvml->init) || !bind(nvml->library, "nvmlShutdown", nvml->shutdown) ||
      !bind(nvml->library, "nvmlDeviceGetCount_v2", nvml->count) ||
      !bind(nvml->library, "nvmlDeviceGetHandleByIndex_v2", nvml->handle_by_index) ||
      !bind(nvml->library, "nvmlDeviceGetName", nvml->name) ||
      !bind(nvml->library, "nvmlDeviceGetClockInfo", nvml->clock_info)) {
    unavailable_reason_ = "libnvidia-ml.so.1 lacks an NVML function rooflab uses";
    return;
  }
  if (nvml->init() != kNvmlSuccess) {
    unavailable_reason_ = "nvmlInit failed";
    return;
  }
  nvml->initialised = true;
  unsigned count = 0;
  if (nvml->count(&count) != kNvmlSuccess || count == 0) {
    unavailable_reason_ = "NVML lists no GPU";
    return;
  }
  for (unsigned index = 0; index < count && nvml->device == nullptr; ++index) {
    Nvml::Device handle = nullptr;
    if (nvml->handle_by_index(index, &handle) != kNvmlSuccess) continue;
    char name[96] = {};
    const bool named = nvml->name(handle, name, sizeof name) == kNvmlSuccess;
    if (count == 1 || (named && device.name == name)) nvml->device = handle;
  }
  if (nvml->device == nullptr) unavailable_reason_ = "no NVML GPU is named '" + device.name + "'";
}

GpuClockSampler::~GpuClockSampler() {
  if (nvml_ == nullptr) return;
  if (nvml_->initialised) nvml_->shutdown();
  if (nvml_->library != nullptr) ::dlclose(nvml_->library);
  delete nvml_;
}

void GpuClockSampler::sample() {
  if (nvml_ == nullptr || nvml_->device == nullptr) return;
  unsigned mhz = 0;
  if (nvml_->clock_info(nvml_->device, kNvmlClockSm, &mhz) != kNvmlSuccess || mhz == 0) return;
  if (!samples_) {
    samples_ = GpuClockSamples{double(mhz), double(mhz), 0};
  }
  samples_->min_mhz = std::min(samples_->min_mhz, double(mhz));
  samples_->max_mhz = std::max(samples_->max_mhz, double(mhz));
  ++samples_->count;
}

std::optional<GpuClockSamples> GpuClockSampler::samples() const { return samples_; }

}  // namespace rooflab
