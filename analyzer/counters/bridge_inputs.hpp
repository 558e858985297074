#pragma once
// The bridged launches' buffers on the device: uploaded once per record, and kept pristine so that
// every run starts from the same inputs. Internal to the bridge_*.cpp files, which need the CUDA
// Toolkit's headers.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/counters/bridge_device_memory.hpp"
#include "analyzer/counters/counters.hpp"

namespace rooflab::counters::bridge_detail {

using DeviceBuffers = std::map<std::string, std::shared_ptr<DeviceBuffer>>;

// Device copies of every buffer a launch names, uploaded once. The caller's read-only inputs stay
// uploaded from an earlier record with the same inputs key (on the same device: the copies belong to
// its context).
DeviceBuffers uploadBuffers(const std::vector<BridgeLaunch>& launches,
                            const std::map<std::string, const HostBuffer*>& hosts,
                            const std::map<std::string, HostBuffer>& buffers, const std::string& inputs_key);

// Every later run (the read-back, each profiling pass) must start from the same inputs as the timed
// runs, and only the buffers a launch may write change: each keeps a pristine copy on the device,
// restored device to device (about a hundred times the host link's rate), or on the host where the
// device has no room for it.
struct PristineInputs {
  std::map<std::string, std::unique_ptr<DeviceBuffer>> on_device;
  std::map<std::string, std::vector<std::byte>> on_host;
};

// `written_buffers` empty: every buffer may be written.
PristineInputs keepPristineInputs(const DeviceBuffers& device_buffers,
                                  const std::map<std::string, const HostBuffer*>& hosts,
                                  const std::vector<std::string>& written_buffers);

// Returns once the copies have ended.
void restorePristineInputs(const PristineInputs& pristine, const DeviceBuffers& device_buffers);

}  // namespace rooflab::counters::bridge_detail
