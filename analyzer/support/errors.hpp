#pragma once
#include <stdexcept>
#include <string>

namespace rooflab {

// The exit codes every command uses (docs/using.md, "Commands").
// io_error: rooflab could not write its output (a full disk, a file it cannot write).
enum class ExitCode : int { ok = 0, variant_failed = 1, bad_input = 2, no_device = 3, io_error = 4, interrupted = 130 };

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

// Writing an output file failed (ENOSPC, EIO, EFBIG...): the message names the file and the system's reason.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure while building or running one variant; caught at the batch boundary.
class VariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rooflab
