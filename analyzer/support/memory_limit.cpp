#include "analyzer/support/memory_limit.hpp"

#include <sys/resource.h>

#include <fstream>
#include <sstream>

namespace rooflab {

std::optional<unsigned long long> addressSpaceLimitBytes() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<unsigned long long>(limit.rlim_cur);
}

std::string addressSpaceLimitNote() {
  const auto limit = addressSpaceLimitBytes();
  if (!limit) return "";
  return "; this process may use at most " + std::to_string(*limit >> 20) +
         " MiB of address space (ulimit -v): memory may have run out";
}

std::optional<unsigned long long> processVirtualBytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) {
      std::istringstream fields(line.substr(7));
      unsigned long long kib = 0;
      if (fields >> kib) return kib * 1024;
    }
  return std::nullopt;
}

bool nearAddressSpaceLimit(std::optional<unsigned long long> used_bytes) {
  const auto limit = addressSpaceLimitBytes();
  return limit && used_bytes && static_cast<double>(*used_bytes) >= 0.9 * static_cast<double>(*limit);
}

}  // namespace rooflab
