#pragma once
// Helpers shared by the test suites: temporary folders, files, and whether PoCL is there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>
#include <string>

#include <sys/wait.h>

#include "analyzer/data/results_document.hpp"
#include "analyzer/device/device.hpp"

namespace rooflab::testing {

// And back: the records as measured and the analysis apart, as a batch keeps them and writes them.
inline ResultsDocument asDocument(const AnalysedResults& results) {
  ResultsDocument document;
  static_cast<ResultsHeader&>(document) = results;
  for (const AnalysedRecord& record : results.records) {
    document.records.push_back(static_cast<const RunRecord&>(record));
    document.analysis.records.push_back(static_cast<const RecordConclusions&>(record));
  }
  return document;
}

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
      return "line " + std::to_string(line) + ":\n  expected: " + la.substr(0, 300) +
             "\n  actual:   " + lb.substr(0, 300);
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

#define ROOFLAB_REQUIRE_CPU_DEVICE() \
  do { \
    if (!::rooflab::testing::hasOpenclCpuDevice()) \
      GTEST_SKIP() << "no OpenCL CPU device (install pocl-opencl-icd to run this test)"; \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Running the binary, as a user does (ROOFLAB_BINARY is the rooflab built beside the tests)

struct BinaryOutcome {
  int exit_code = -1;  // the process's exit status, or 128 + signal when a signal ended it
  std::string out;
  std::string err;
};

// The exit code a shell would show for a status from system() or waitpid(): 128 + signal when a
// signal ended the process.
inline int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Runs `rooflab <args>` in `cwd` (so a relative --out or [run] out lands in the temp folder), after
// `shell_prefix` (such as "ulimit -v 1000000; ") in the same shell.
// ROOFLAB_TEST_ECHO=1 shows what the user sees for each run (for release notes, reviews).
inline BinaryOutcome runRooflab(const std::string& args, const std::filesystem::path& cwd,
                                const std::string& shell_prefix = "") {
  const std::filesystem::path out = cwd / ".stdout", err = cwd / ".stderr";
  const std::string command = "cd '" + cwd.string() + "' && " + shell_prefix + "'" + ROOFLAB_BINARY + "' " + args +
                              " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  BinaryOutcome o;
  o.exit_code = exitCodeOf(std::system(command.c_str()));
  o.out = fileText(out);
  o.err = fileText(err);
  if (std::getenv("ROOFLAB_TEST_ECHO"))
    std::printf("$ rooflab %s\n%s[exit %d]\n", args.c_str(), o.err.c_str(), o.exit_code);
  return o;
}

inline std::string show(const BinaryOutcome& o) {
  return "exit " + std::to_string(o.exit_code) + "\nstderr:\n" + o.err + "\nstdout:\n" + o.out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `text` with the first `from` replaced by `to` (a failure when `from` is not there).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// 1-based line of the first line of `text` that contains `needle`.
inline int lineOf(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// A [run] table that runs a family from ./kernels once per point on PoCL, into ./out, JSON only.
inline const char* const kQuickCpuRun = R"([run]
device = "cpu"
repetitions = 1
warmup = 0
modes = ["normal"]
counters = "off"
ceilings = "datasheet"
formats = ["json"]
kernels = ["kernels"]
out = "out"
)";

}  // namespace rooflab::testing
