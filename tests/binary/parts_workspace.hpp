// Shared by the several-devices, parts and Slurm suites (tests/binary/test_devices.cpp,
// test_shards.cpp, test_slurm.cpp): a small family swept over sizes in a temp folder, so that a batch
// has groups to deal into parts, and what two results files are compared on.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/json/results_json.hpp"
#include "test_support.hpp"

namespace rooflab::testing {

// c = a + b, annotated (so it has mutants), and a scaled variant; at three sizes with two modes: six
// groups of two points.
inline const char* const kPartsSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
kernel void add_twice(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_MUL(RL_LOAD(float, b, i), 1.0f)));
}
)";

inline std::string partsFamily() {
  return vecaddFamilyHeader("adder", "c = a + b") + R"([[variants]]
name = "plain"
source = "add.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
[[variants]]
name = "twice"
source = "add.cl"
kernel = "add_twice"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
)";
}

// A temp folder with the family and cfg.toml: every point once on PoCL, JSON (and what `formats`
// adds), into ./out unless --out says otherwise.
struct PartsWorkspace {
  TempDir dir;
  explicit PartsWorkspace(const std::string& formats = "\"json\"", const std::string& ceilings = "datasheet") {
    dir.write("kernels/adder/add.cl", kPartsSource);
    dir.write("kernels/adder/family.toml", partsFamily());
    dir.write("cfg.toml",
              "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nmodes = [\"normal\", \"memory-only\"]\n"
              "counters = \"off\"\nceilings = \"" +
                  ceilings + "\"\nformats = [" + formats +
                  "]\n"
                  "kernels = [\"kernels\"]\nout = \"out\"\n"
                  "[[study]]\nfamily = \"adder\"\nparams = { N = [1024, 2048, 4096] }\n");
  }
  BinaryOutcome run(const std::string& args, const std::string& shell_prefix = "") const {
    return runRooflab(args, dir.path(), shell_prefix);
  }
  ResultsDocument results(const std::string& folder) const {
    return readResultsFile(dir.path() / folder / "results.json");
  }
};

// What a record is compared on: its point (label and device), its status and its verification.
inline std::vector<std::string> pointsAndStatuses(const ResultsDocument& results) {
  std::vector<std::string> lines;
  for (const RunRecord& record : results.records)
    lines.push_back(record.label() + (record.device ? " on " + *record.device : "") + ": " + toString(record.status) +
                    ", " + toString(record.verification.status));
  return lines;
}

}  // namespace rooflab::testing
