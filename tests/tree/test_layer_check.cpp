// The build's layering check (cmake/check_layers.cmake): it passes on this tree, and on a small tree
// where a low layer includes a higher one it fails, naming the file, the line and the layers.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::testing::contains;
using rooflab::testing::exitCodeOf;
using rooflab::testing::TempDir;

namespace {

const fs::path kSource = ROOFLAB_SOURCE_DIR;

struct ScriptOutcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `cmake -DROOT=<root> -P <script>` and captures what it prints.
ScriptOutcome runCheck(const fs::path& root, const fs::path& script) {
  const std::string command =
      "'" + std::string(ROOFLAB_CMAKE_COMMAND) + "' -DROOT='" + root.string() + "' -P '" + script.string() + "' 2>&1";
  ScriptOutcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return outcome;
  std::array<char, 4096> buffer{};
  for (std::size_t read; (read = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
    outcome.output.append(buffer.data(), read);
  outcome.exit_code = exitCodeOf(pclose(pipe));
  return outcome;
}

}  // namespace

TEST(LayerCheck, TheSourceTreePasses) {
  const ScriptOutcome outcome = runCheck(kSource, kSource / "cmake" / "check_layers.cmake");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
}

TEST(LayerCheck, AnIncludeAgainstThePipelineFailsNamingFileLineAndLayers) {
  TempDir tree;
  fs::copy(kSource / "cmake", tree.path() / "cmake", fs::copy_options::recursive);
  tree.write("analyzer/data/x.hpp", "#pragma once\n"
                                    "#include <string>\n"
                                    "#include \"analyzer/batch/batch.hpp\"\n");
  // Down the pipeline is allowed: batch/ sees data/.
  tree.write("analyzer/batch/y.hpp", "#pragma once\n#include \"analyzer/data/x.hpp\"\n");

  const ScriptOutcome outcome = runCheck(tree.path(), tree.path() / "cmake" / "check_layers.cmake");
  std::printf("%s", outcome.output.c_str());  // the message a developer reads, in the test's log
  EXPECT_NE(outcome.exit_code, 0) << outcome.output;
  EXPECT_TRUE(contains(outcome.output, "analyzer/data/x.hpp:3: includes analyzer/batch/batch.hpp")) << outcome.output;
  EXPECT_TRUE(contains(outcome.output, "must not see analyzer/batch/")) << outcome.output;
  EXPECT_FALSE(contains(outcome.output, "analyzer/batch/y.hpp")) << outcome.output;
}
