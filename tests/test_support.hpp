#pragma once
// Helpers shared by the test suites: temporary folders, files, and whether PoCL is there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "analyzer/device.hpp"

namespace rooflab::testing {

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
