#include "analyzer/workcount/oclgrind_counts.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// The lanes a call's name shows: "llvm.fmuladd.v4f32" or a mangled vector argument "Dv4_"; else 1.
std::uint64_t lanesOf(const std::string& name) {
  static const std::regex llvm_vector(R"(\.v(\d+)f(16|32|64))"), mangled_vector(R"(Dv(\d+)_)");
  std::smatch match;
  if (std::regex_search(name, match, llvm_vector) || std::regex_search(name, match, mangled_vector))
    return std::stoull(match[1].str());
  return 1;
}

bool isFloatOpcode(const std::string& name) {
  return name == "fadd" || name == "fsub" || name == "fmul" || name == "fdiv" || name == "frem" || name == "fneg";
}

// fma and mad (OpenCL builtins, mangled) and llvm.fma / llvm.fmuladd (what the compiler made of a*b+c).
bool isFusedCall(const std::string& name) {
  static const std::regex fused(R"(^call (_Z3fma|_Z3mad|_Z10native_fma|llvm\.fmuladd\.|llvm\.fma\.))");
  return std::regex_search(name, fused);
}

// A floating-point builtin the rule does not count (sqrt, exp, sin, ...): its first argument, after
// the mangled name's length and name, is a float, a double or a half, or a vector of them.
bool isUncountedFloatCall(const std::string& name) {
  static const std::regex llvm_float(R"(^call llvm\.[a-z]+\.(v\d+)?f(16|32|64))");
  if (std::regex_search(name, llvm_float)) return true;
  static const std::regex mangled(R"(^call _Z(\d+))");
  std::smatch match;
  if (!std::regex_search(name, match, mangled)) return false;
  const std::size_t args = std::size_t(match.length(0)) + std::stoul(match[1].str());
  if (args >= name.size()) return false;
  static const std::regex float_argument(R"(^(Dv\d+_)?(f|d|Dh))");
  const std::string function = name.substr(std::size_t(match.length(0)), std::stoul(match[1].str()));
  return std::regex_search(name.substr(args), float_argument) && function.find("vload") == std::string::npos &&
         function.find("vstore") == std::string::npos && function.find("convert") == std::string::npos;
}

// vloadN / vstoreN of global memory: N elements of the mangled element type.
bool globalVectorAccess(const std::string& name, bool& store, std::uint64_t& elements, std::uint64_t& bytes) {
  static const std::regex access(R"(^call _Z\d+v(load|store)(\d+).*PU3AS1K?(Dh|[cahstijlmfdxy]))");
  std::smatch match;
  if (!std::regex_search(name, match, access)) return false;
  store = match[1] == "store";
  elements = std::stoull(match[2].str());
  const std::string type = match[3];
  const std::uint64_t size = type == "Dh" || type == "s" || type == "t"                                ? 2
                             : type == "c" || type == "a" || type == "h"                               ? 1
                             : type == "l" || type == "m" || type == "d" || type == "x" || type == "y" ? 8
                                                                                                       : 4;
  bytes = elements * size;
  return true;
}

std::string wholeNumber(double value) { return formatNumber(std::round(value)); }

}  // namespace

std::optional<std::string> findOclgrind() {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / "oclgrind";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

std::vector<LaunchInstructionCounts> parseOclgrindInstCounts(const std::string& output) {
  static const std::regex header(R"(^Instructions executed for kernel '([^']*)':\s*$)");
  static const std::regex row(R"(^\s*(\d+) - (.*?)(?: \((\d+) bytes\))?\s*$)");
  std::vector<LaunchInstructionCounts> launches;
  std::istringstream lines(output);
  bool in_block = false;
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_match(line, match, header)) {
      launches.push_back(LaunchInstructionCounts{match[1].str(), {}});
      in_block = true;
    } else if (in_block && std::regex_match(line, match, row)) {
      launches.back().instructions.push_back(InstructionCount{match[2].str(), std::stoull(match[1].str()),
                                                              match[3].matched ? std::stoull(match[3].str()) : 0});
    } else {
      in_block = false;  // a blank line or the program's own output ends the histogram
    }
  }
  return launches;
}

MeasuredWork measuredWork(const LaunchInstructionCounts& counts, std::uint64_t counted_work_groups,
                          std::uint64_t total_work_groups) {
  MeasuredWork work;
  work.kernel = counts.kernel;
  work.counted_work_groups = counted_work_groups;
  work.total_work_groups = total_work_groups;
  for (const InstructionCount& entry : counts.instructions) {
    const std::string& name = entry.instruction;
    bool store = false;
    std::uint64_t elements = 0, bytes = 0;
    if (isFloatOpcode(name)) {
      work.counted_flops += double(entry.count);
    } else if (isFusedCall(name)) {
      work.counted_flops += 2.0 * double(entry.count * lanesOf(name));
    } else if (name == "load global" || name == "store global") {
      (name == "load global" ? work.counted_global_loads : work.counted_global_stores) += entry.count;
      (name == "load global" ? work.counted_global_load_bytes : work.counted_global_store_bytes) += entry.bytes;
    } else if (globalVectorAccess(name, store, elements, bytes)) {
      (store ? work.counted_global_stores : work.counted_global_loads) += entry.count * elements;
      (store ? work.counted_global_store_bytes : work.counted_global_load_bytes) += entry.count * bytes;
    } else if (name.rfind("call _Z15get_global_size", 0) == 0 || name.rfind("call _Z14get_num_groups", 0) == 0) {
      work.reads_launch_size = true;
    } else if (isUncountedFloatCall(name)) {
      work.uncounted_calls.push_back(entry);
    }
  }
  const double scale = counted_work_groups > 0 ? double(total_work_groups) / double(counted_work_groups) : 1.0;
  work.flops = work.counted_flops * scale;
  work.global_accesses = double(work.counted_global_loads + work.counted_global_stores) * scale;
  work.bytes = double(work.counted_global_load_bytes + work.counted_global_store_bytes) * scale;
  return work;
}

std::string familyWorkToml(const MeasuredWork& work) {
  return "# counted by oclgrind --inst-counts, scaled from " + std::to_string(work.counted_work_groups) + " of " +
         std::to_string(work.total_work_groups) + " work-groups\n" +
         (work.reads_launch_size && work.counted_work_groups < work.total_work_groups
              ? "# the kernel reads get_global_size or get_num_groups: count the launch whole to trust these\n"
              : "") +
         "flops = \"" + wholeNumber(work.flops) + "\"\n" + "global_accesses = \"" + wholeNumber(work.global_accesses) +
         "\"\n" + "bytes = \"" + wholeNumber(work.bytes) + "\"\n";
}

}  // namespace rooflab
