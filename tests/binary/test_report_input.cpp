// `rooflab report` on a file that is not results: exit 2, and the message names the file (moved from
// tests/json/test_results_json.cpp, whose other tests need no binary).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>

#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::testing::fileText;

TEST(ResultsJson, ReportNamesTheFileItCannotRead) {
  rooflab::testing::TempDir dir;
  const fs::path not_results = dir.path() / "model.json";
  std::ofstream(not_results) << R"({"key": "gtx670", "peak_gflops": 2460})";
  const std::string command = std::string(ROOFLAB_BINARY) + " report " + not_results.string() + " --out " +
                              (dir.path() / "out").string() + " > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string log = fileText(dir.path() / "log");
  EXPECT_NE(log.find(not_results.string()), std::string::npos) << log;
  EXPECT_NE(log.find("not a rooflab results file"), std::string::npos) << log;
}
