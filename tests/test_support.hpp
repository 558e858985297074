#pragma once
// Helpers shared by the test suites: temporary folders, files, and whether PoCL is there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>
#include <string>

#include "analyzer/device.hpp"

namespace rooflab::testing {

// A file's bytes as text ("" when it cannot be read).
inline std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line where two texts differ, for a readable failure on a 1 MB file.
inline std::string firstDifference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la)), more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "texts are equal";
    if (la != lb || more_a != more_b)
      return "line " + std::to_string(line) + ":\n  expected: " + la.substr(0, 300) + "\n  actual:   " + lb.substr(0, 300);
  }
}

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("rooflab-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

// A PTX fixture: tests/fixtures/ptx/<name>, or ../shared/fixtures/<name> beside the checkout.
inline std::string readPtxFixture(const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates{fs::path(ROOFLAB_SOURCE_DIR) / "tests" / "fixtures" / "ptx" / name};
#ifdef ROOFLAB_SHARED_DIR
  candidates.push_back(fs::path(ROOFLAB_SHARED_DIR) / "fixtures" / name);
#endif
  for (const fs::path& path : candidates) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  ADD_FAILURE() << "PTX fixture " << name << " not found";
  return "";
}

// The part of a test family that computes c = a + b over N floats, verified against cpu:vecadd:
// name, params, work, buffers a, b, c and the check. Tests append their own [[variants]].
inline std::string vecaddFamilyHeader(const std::string& name, const std::string& description = "") {
  return "name = \"" + name + "\"\n" + (description.empty() ? "" : "description = \"" + description + "\"\n") +
         R"([params]
N = 4096
[work]
flops = "N"
bytes = "12*N"
[[buffers]]
name = "a"
type = "float"
count = "N"
[[buffers]]
name = "b"
type = "float"
count = "N"
[[buffers]]
name = "c"
type = "float"
count = "N"
access = "write"
[check]
reference = "cpu:vecadd"
tolerance = 1e-6
)";
}

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) unsetenv(name_);
    else setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

inline bool hasOpenclCpuDevice() {
  for (const auto& d : discoverDevices())
    if (d.info.type == "CPU") return true;
  return false;
}

#define ROOFLAB_REQUIRE_CPU_DEVICE()                                                   \
  do {                                                                                 \
    if (!::rooflab::testing::hasOpenclCpuDevice())                                     \
      GTEST_SKIP() << "no OpenCL CPU device (install pocl-opencl-icd to run this test)"; \
  } while (0)

}  // namespace rooflab::testing
