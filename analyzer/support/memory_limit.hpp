#pragma once
// The memory limits a process runs under, for messages: when an OpenCL driver fails to load, a
// worker dies or stalls, the user should read that memory ran out, not that no device exists or
// that the kernel hangs.
#include <optional>
#include <string>
#include <sys/types.h>

namespace rooflab {

// RLIMIT_AS of this process in bytes (set by `ulimit -v`); nullopt when unlimited.
std::optional<unsigned long long> addressSpaceLimitBytes();

// "; this process may use at most 390 MiB of address space (ulimit -v): memory may have run out", or
// "" when the address space is not limited.
std::string addressSpaceLimitNote();

// The virtual size of process `pid` in bytes (from /proc/<pid>/status); nullopt when unknown.
std::optional<unsigned long long> processVirtualBytes(pid_t pid);

// Whether a child process using `used_bytes` of address space (processVirtualBytes) is at 90% or
// more of the limit of this process, which it inherited: then it ran out of memory rather than hung.
bool nearAddressSpaceLimit(std::optional<unsigned long long> used_bytes);

}  // namespace rooflab
