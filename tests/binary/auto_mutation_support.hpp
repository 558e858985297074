#pragma once
// What the automatic mutants' tests share: skipping where libclang or clang is missing, and building
// a mutant's program on PoCL as the runner does.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/run/program_builds.hpp"
#include "mutators/auto_mutation.hpp"
#include "test_support.hpp"

#define ROOFLAB_REQUIRE_LIBCLANG() \
  do { \
    if (!rooflab::automaticMutantsAvailable()) GTEST_SKIP() << rooflab::automaticMutantsOffReason(); \
  } while (0)

namespace rooflab::testing {

// Builds the mutant on the OpenCL CPU device as the runner does (with its mode's RL_MODE; a
// compute-only mutant's kernels then read prelude.cl's key constant, where the runner gives them the
// key as an argument); "" or the build failure.
inline std::string buildMutantOnPocl(const AutoMutant& mutant, const std::string& options = "") {
  const SelectedDevice device = selectDevice("cpu");
  cl::Context context(device.device);
  const std::string mode = mutant.kind == AutoMutantKind::compute_only ? "1" : "2";
  const ProgramBuild built =
      buildProgramNow(context, device.device, automaticMutantProgram(mutant), "-D RL_MODE=" + mode + " " + options);
  return built.ok ? "" : built.failure + "\n" + built.log + "\n" + mutant.source.value_or("");
}

}  // namespace rooflab::testing
