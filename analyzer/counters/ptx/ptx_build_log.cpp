// ptxasRegistersFromBuildLog (ptx_rewrite.hpp): what NVIDIA's OpenCL compiler says about each kernel.
#include <sstream>

#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::counters {

// "ptxas info    : Compiling entry function 'k' for 'sm_90a'" ... "ptxas info    : Used 32 registers, ..."
// (NVIDIA's -cl-nv-verbose build log) -> {k: 32}.
std::map<std::string, int> ptxasRegistersFromBuildLog(const std::string& log) {
  std::map<std::string, int> registers;
  std::istringstream in(log);
  std::string line, kernel;
  while (std::getline(in, line)) {
    const std::string entry = "Compiling entry function '";
    if (const auto at = line.find(entry); at != std::string::npos) {
      const auto end = line.find('\'', at + entry.size());
      kernel = end == std::string::npos ? "" : line.substr(at + entry.size(), end - at - entry.size());
      continue;
    }
    const std::string used = "Used ";
    if (const auto at = line.find(used);
        at != std::string::npos && !kernel.empty() && line.find(" registers") != std::string::npos) {
      try {
        registers[kernel] = std::stoi(line.substr(at + used.size()));
      } catch (const std::exception&) {
      }
      kernel.clear();
    }
  }
  return registers;
}

}  // namespace rooflab::counters
