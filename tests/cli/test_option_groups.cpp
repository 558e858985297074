// One option group per concern: the help a user reads for a flag is the same in every command that
// takes it, and the counters' sources (flag, [run] key, environment variable) reach the run's settings
// in that order.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "analyzer/cli/run_finish.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/counters/cupti_choice.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

// The line `rooflab <command> --help` shows for `option`, from the option to the end of its line.
std::string helpLineOf(const std::string& command, const std::string& option) {
  TempDir dir;
  const BinaryOutcome o = runRooflab(command + " --help", dir.path());
  EXPECT_EQ(o.exit_code, 0) << show(o);
  const std::size_t at = o.out.find("  " + option + " ");
  EXPECT_NE(at, std::string::npos) << command << " --help has no " << option << ":\n" << o.out;
  if (at == std::string::npos) return "";
  return o.out.substr(at, o.out.find('\n', at) - at);
}

// An environment variable set for one test, and unset (or restored) after it.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedVariable() {
    if (old_.empty()) ::unsetenv(name_);
    else ::setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

const char* const kCountersOff = "[run]\ndevice = \"cpu\"\ncounters = \"off\"\n";

// The run's settings as `rooflab run` would hand them to the batch, for a [run] table and flags.
RunSettings settledRun(const std::string& run_table, const RunCommand& cmd) {
  TempDir dir;
  BatchConfig config = parseBatchConfig(run_table + "[[study]]\nfamily = \"vecadd\"\n", "test.toml", dir.path());
  batchOptionsOf(cmd, config);
  return config.run;
}

std::string configError(const std::string& text) {
  TempDir dir;
  try {
    parseBatchConfig(text, "test.toml", dir.path());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OptionChecks, DeviceHelpIsTheSameInRunAbTuneAndCeilings) {
  const std::string run = helpLineOf("run", "--device");
  EXPECT_NE(run.find("auto | gpu | cpu"), std::string::npos) << run;
  for (const char* command : {"ab", "tune", "ceilings"}) EXPECT_EQ(helpLineOf(command, "--device"), run) << command;
}

// The flags that run, ab and tune share read alike in each, and report and merge say what --quiet does
// as they do.
TEST(OptionChecks, SharedFlagsHaveOneHelpTextInEveryCommand) {
  for (const char* option :
       {"--no-counters", "--extra-metrics", "--cupti-library", "--repetitions", "--formats", "--quiet"}) {
    const std::string run = helpLineOf("run", option);
    for (const char* command : {"ab", "tune"}) EXPECT_EQ(helpLineOf(command, option), run) << command << " " << option;
  }
  for (const char* command : {"report", "merge"}) {
    EXPECT_EQ(helpLineOf(command, "--quiet"), helpLineOf("run", "--quiet")) << command;
    EXPECT_EQ(helpLineOf(command, "--formats"), helpLineOf("run", "--formats")) << command;
  }
  EXPECT_NE(helpLineOf("tune", "--phases"), "");
  EXPECT_EQ(helpLineOf("ab", "--only"), helpLineOf("run", "--only"));
}

TEST(OptionChecks, ExtraMetricsFlagOverTheConfigKeyOverTheEnvironment) {
  const ScopedVariable variable("ROOFLAB_EXTRA_METRICS", "test__from_environment.sum");
  const std::string with_key = std::string(kCountersOff) + "extra_metrics = [\"test__from_config.sum\"]\n";
  RunCommand flag;
  flag.extra_metrics = "test__from_flag.sum, test__second.sum";
  EXPECT_EQ(settledRun(with_key, flag).environment.extra_metrics,
            (std::vector<std::string>{"test__from_flag.sum", "test__second.sum"}));
  EXPECT_EQ(settledRun(with_key, RunCommand{}).environment.extra_metrics,
            (std::vector<std::string>{"test__from_config.sum"}));
  EXPECT_EQ(settledRun(kCountersOff, RunCommand{}).environment.extra_metrics,
            (std::vector<std::string>{"test__from_environment.sum"}));
}

TEST(OptionChecks, CuptiLibraryFlagOverTheConfigKeyOverTheEnvironment) {
  const ScopedVariable variable("ROOFLAB_CUPTI_LIBRARY", "/environment/libcupti.so");
  const std::string with_key = std::string(kCountersOff) + "cupti_library = \"/config/libcupti.so\"\n";
  RunCommand flag;
  flag.cupti_library = "/flag/libcupti.so";
  EXPECT_EQ(settledRun(with_key, flag).environment.cupti_library, "/flag/libcupti.so");
  EXPECT_EQ(counters::chosenCuptiLibrary(), "/flag/libcupti.so");
  EXPECT_EQ(settledRun(with_key, RunCommand{}).environment.cupti_library, "/config/libcupti.so");
  EXPECT_EQ(settledRun(kCountersOff, RunCommand{}).environment.cupti_library, "/environment/libcupti.so");
  EXPECT_EQ(counters::chosenCuptiLibrary(), "/environment/libcupti.so");
  counters::chooseCuptiLibrary("");
}

TEST(OptionChecks, BadCountersKeysAreErrorsAtTheirFileLineAndKey) {
  const std::string error =
      configError("[run]\nrepetitions = 1\nextra_metrics = [\"a.sum, b.sum\"]\ncupti_library = \"\"\n");
  EXPECT_NE(error.find("test.toml:3: run.extra_metrics: 'a.sum, b.sum' is not a metric name"), std::string::npos)
      << error;
  EXPECT_NE(error.find("test.toml:4: run.cupti_library: must name a libcupti file"), std::string::npos) << error;
  EXPECT_NE(configError("[run]\nextra_metrics = \"a.sum\"\n").find("test.toml:2: run.extra_metrics"),
            std::string::npos);
}

}  // namespace
}  // namespace rooflab::testing
