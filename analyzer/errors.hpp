#pragma once
#include <stdexcept>
#include <string>

namespace rooflab {

// Exit codes of DESIGN.md.
enum class ExitCode : int { ok = 0, variant_failed = 1, bad_input = 2, no_device = 3, interrupted = 130 };

// Bad config, manifest or command line: the message names the file, key and line.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable OpenCL device, or the selector matched none.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure while building or running one variant; caught at the batch boundary.
class VariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rooflab
