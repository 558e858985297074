#include "analyzer/batch/host_watch.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "analyzer/device/host_condition.hpp"

namespace rooflab {

HostWatch::HostWatch(const DeviceInfo& device, HostNoiseText noise_text, GpuClockText clock_text)
    : host_(readHostCondition()),
      gpu_clock_(device),
      noise_text_(std::move(noise_text)),
      clock_text_(std::move(clock_text)) {
  host_.gpu_sm_clock_unavailable = gpu_clock_.unavailableReason().empty()
                                       ? std::nullopt
                                       : std::optional<std::string>(gpu_clock_.unavailableReason());
  if (const auto noisy = noisyHost(host_); noisy && noise_text_)
    std::fprintf(stderr, "rooflab: warning: noisy host: %s\n", noise_text_(*noisy).c_str());
}

HostCondition HostWatch::condition() const {
  HostCondition host = host_;
  host.gpu_sm_clock = gpu_clock_.samples();
  return host;
}

void HostWatch::reportAtEnd() const {
  const HostCondition host = condition();
  if (host.gpu_sm_clock && clock_text_) std::fprintf(stderr, "rooflab: %s\n", clock_text_(*host.gpu_sm_clock).c_str());
  if (const auto noisy = noisyHost(host); noisy && noise_text_)
    std::fprintf(stderr, "rooflab: warning: this batch ran on a noisy host (%s); compare its timings with care\n",
                 noise_text_(*noisy).c_str());
}

}  // namespace rooflab
