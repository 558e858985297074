#pragma once
// What rooflab reads from NVIDIA's OpenCL driver beyond standard OpenCL, in one place: its
// compiler's register log (-cl-nv-verbose) and its program binaries, which are PTX text.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "analyzer/support/cl.hpp"
#include "analyzer/device/device.hpp"

namespace rooflab::nvidia {

// " -cl-nv-verbose -nv-line-info" on NVIDIA, else "". NVIDIA's compiler then logs each kernel's
// registers and shared memory ("ptxas info"); it changes no code (H100: same times with and without).
// The PTX bridge compares its own compile with those registers. With -nv-line-info the PTX carries
// the source lines, which the bridge's PC sampling maps its samples through.
std::string verboseBuildOption(const DeviceInfo& device);

// The program's PTX: NVIDIA's program binary is PTX text, NUL-terminated inside the binary.
// "" when the program has no binary. Throws cl::Error.
std::string programPtx(const cl::Program& program);

// A built program's binary as a user reads it: PTX text on NVIDIA, the raw bytes elsewhere.
struct ReadableBinary {
  std::string extension;  // ".ptx" or ".bin"
  std::string content;
};
std::optional<ReadableBinary> readableBinary(const cl::Program& program, const DeviceInfo& device);

// OpenCL's ptxas registers per kernel, kept by the program's PTX. NVIDIA's driver caches ptxas
// results by PTX: a program whose PTX it compiled before (another variant whose defines change
// nothing, or an earlier run) builds without a ptxas log. The same PTX has the same registers.
class RegisterLog {
 public:
  // Reads the build log of a program just built; does nothing on other vendors, and keeps nothing
  // when the log or binary cannot be read (the bridge then compiles whole-program). False when an
  // NVIDIA log names no registers for one of the program's kernels.
  bool add(const cl::Program& program, const SelectedDevice& device);
  // The registers per kernel of OpenCL's compile of `ptx`, or nullptr when no log gave them.
  const std::map<std::string, int>* find(const std::string& ptx) const;

 private:
  std::map<std::size_t, std::map<std::string, int>> by_ptx_hash_;
};

// Whether the CUDA driver can tell, through the PTX bridge, how many work-groups of a kernel fit one
// compute unit of this device.
bool occupancyThroughBridge(const DeviceInfo& device);

}  // namespace rooflab::nvidia
