#include "analyzer/run/nvidia_build.hpp"

#include <functional>
#include <sstream>
#include <string_view>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::nvidia {
namespace {

std::string_view binaryBytes(const std::vector<unsigned char>& bytes) {
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::size_t ptxHash(const std::string& ptx) { return std::hash<std::string>{}(ptx); }

}  // namespace

// Without -nv-line-info NVIDIA's OpenCL emits no `.loc` line, not even with -g.
std::string verboseBuildOption(const DeviceInfo& device) {
  return device.isNvidia() ? " -cl-nv-verbose -nv-line-info" : "";
}

std::string programPtx(const cl::Program& program) {
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.empty()) return "";
  return counters::ptxTextFromProgramBinary(binaryBytes(binaries.front()));
}

std::optional<ReadableBinary> readableBinary(const cl::Program& program, const DeviceInfo& device) {
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.empty()) return std::nullopt;
  const std::string_view binary = binaryBytes(binaries.front());
  if (device.isNvidia()) return ReadableBinary{".ptx", counters::ptxTextFromProgramBinary(binary)};
  return ReadableBinary{".bin", std::string(binary)};
}

bool RegisterLog::add(const cl::Program& program, const SelectedDevice& device) {
  if (!device.info.isNvidia()) return true;
  try {
    const std::size_t hash = ptxHash(programPtx(program));
    auto registers = counters::ptxasRegistersFromBuildLog(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device));
    std::istringstream kernels(program.getInfo<CL_PROGRAM_KERNEL_NAMES>());
    bool every_kernel = true;
    for (std::string kernel; std::getline(kernels, kernel, ';');)
      if (!kernel.empty() && registers.count(kernel) == 0) every_kernel = false;
    if (!registers.empty()) by_ptx_hash_[hash] = std::move(registers);
    return every_kernel;
  } catch (const cl::Error&) {
    return true;  // no log or binary to be had: the bridge then compiles whole-program
  }
}

const std::map<std::string, int>* RegisterLog::find(const std::string& ptx) const {
  const auto it = by_ptx_hash_.find(ptxHash(ptx));
  return it == by_ptx_hash_.end() ? nullptr : &it->second;
}

bool occupancyThroughBridge(const DeviceInfo& device) {
  return device.isNvidia() && counters::bridgeUnavailableReason().empty();
}

}  // namespace rooflab::nvidia
