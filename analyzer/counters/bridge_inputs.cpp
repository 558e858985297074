#include "analyzer/counters/bridge_inputs.hpp"

#include <set>

#include "analyzer/counters/bridge_cache.hpp"
#include "analyzer/counters/cuda_driver.hpp"

namespace rooflab::counters::bridge_detail {

DeviceBuffers uploadBuffers(const std::vector<BridgeLaunch>& launches,
                            const std::map<std::string, const HostBuffer*>& hosts,
                            const std::map<std::string, HostBuffer>& buffers, const std::string& inputs_key) {
  DeviceBuffers device_buffers;
  for (const BridgeLaunch& launch : launches)
    for (const BridgeArg& arg : launch.args) {
      const std::string& name = arg.buffer_name;
      if (arg.kind != BridgeArg::Kind::buffer || device_buffers.count(name)) continue;
      const HostBuffer& host = *hosts.at(name);
      const bool keepable = !inputs_key.empty() && buffers.count(name) == 0;
      if (keepable)
        if (auto kept = keptInput(inputs_key, name, host.sizeBytes())) {
          device_buffers[name] = std::move(kept);
          continue;
        }
      auto device_buffer = std::make_shared<DeviceBuffer>(host.sizeBytes());
      if (host.sizeBytes() > 0)
        checkCuda(driver().memcpyHtoD(device_buffer->pointer(), host.bytes.data(), host.sizeBytes()),
                  "cuMemcpyHtoD (buffer " + name + ")");
      if (keepable) keepInput(inputs_key, name, device_buffer);
      device_buffers[name] = std::move(device_buffer);
    }
  return device_buffers;
}

PristineInputs keepPristineInputs(const DeviceBuffers& device_buffers,
                                  const std::map<std::string, const HostBuffer*>& hosts,
                                  const std::vector<std::string>& written_buffers) {
  const std::set<std::string> written(written_buffers.begin(), written_buffers.end());
  PristineInputs pristine;
  for (const auto& [name, device_buffer] : device_buffers) {
    if ((!written.empty() && written.count(name) == 0) || device_buffer->bytes() == 0) continue;
    if (auto copy = DeviceBuffer::tryAllocate(device_buffer->bytes())) {
      checkCuda(driver().memcpyDtoD(copy->pointer(), device_buffer->pointer(), device_buffer->bytes()),
                "cuMemcpyDtoD (pristine copy of buffer " + name + ")");
      pristine.on_device[name] = std::move(copy);
    } else {
      pristine.on_host[name] = hosts.at(name)->bytes;
    }
  }
  return pristine;
}

void restorePristineInputs(const PristineInputs& pristine, const DeviceBuffers& device_buffers) {
  for (const auto& [name, copy] : pristine.on_device)
    checkCuda(driver().memcpyDtoD(device_buffers.at(name)->pointer(), copy->pointer(), copy->bytes()),
              "cuMemcpyDtoD (restoring buffer " + name + ")");
  for (const auto& [name, bytes] : pristine.on_host)
    checkCuda(driver().memcpyHtoD(device_buffers.at(name)->pointer(), bytes.data(), bytes.size()),
              "cuMemcpyHtoD (restoring buffer " + name + ")");
  // A copy between device buffers returns before it ends: one still running when a profiling range
  // opens adds its L2 traffic to the kernel's (an L2 hit rate of 104% on the H100).
  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (after restoring the inputs)");
}

}  // namespace rooflab::counters::bridge_detail
