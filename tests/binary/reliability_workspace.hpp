// Shared by the reliability suites (tests/binary/test_reliability_*.cpp): a family and a config in a
// temp folder, run through the real binary, and what to read back.
#pragma once
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/json/json_file_io.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "test_support.hpp"

extern char** environ;

using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::lineOf;
using rooflab::testing::replaced;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;
using Outcome = rooflab::testing::BinaryOutcome;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------------
// A kernel folder with one family, and a config that runs it quickly on PoCL

const char* kSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
// Deliberately wrong: subtracts.
kernel void subtract(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] - b[i];
}
// Uses a scratch buffer so that its size can be made larger than the device allows.
kernel void add_via(global const float* a, global const float* b, global float* c, global float* big, int n) {
  int i = get_global_id(0);
  if (i < n) { big[i] = a[i]; c[i] = big[i] + b[i]; }
}
kernel void add_scaled(global const float* a, global const float* b, global float* c, int n, float f) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + f * b[i];
}
kernel void copy_chars(global const char* in, global char* out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i];
}
// Slow on purpose (about a millisecond per launch on PoCL): the interrupt tests need a long batch.
kernel void add_slowly(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float x = a[i];
  for (int k = 0; k < 2000; ++k) x = x * 0.5f + a[i];
  c[i] = a[i] + b[i] + (x - x);
}
)";

const std::string kFamily = rooflab::testing::vecaddFamilyHeader("adder", "c = a + b") + R"([[variants]]
name = "good"
source = "add.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
)";

std::string variant(const std::string& name, const std::string& body) {
  return "[[variants]]\nname = \"" + name + "\"\nsource = \"add.cl\"\n" + body;
}

const char* const kRun = rooflab::testing::kQuickCpuRun;

std::string study(const std::string& family = "adder", const std::string& extra = "") {
  return "[[study]]\nfamily = \"" + family + "\"\n" + extra;
}

struct Workspace {
  TempDir dir;
  fs::path manifest;
  fs::path config;
  std::string manifest_text;
  std::string config_text;

  explicit Workspace(const std::string& family_toml = kFamily,
                     const std::string& config_toml = std::string(kRun) + study()) {
    dir.write("kernels/adder/add.cl", kSource);
    setManifest(family_toml);
    setConfig(config_toml);
  }
  void setManifest(const std::string& text) {
    manifest_text = text;
    manifest = dir.write("kernels/adder/family.toml", text);
  }
  void setConfig(const std::string& text) {
    config_text = text;
    config = dir.write("cfg.toml", text);
  }
  Outcome run(const std::string& extra = "") const { return runRooflab("run cfg.toml --quiet " + extra, dir.path()); }
  nlohmann::json results() const { return readJsonFile(dir.path() / "out" / "results.json"); }
  // "<abs>/kernels/adder/family.toml:<line>: " for the line holding `needle`
  std::string at(const std::string& needle) const {
    return manifest.string() + ":" + std::to_string(lineOf(manifest_text, needle)) + ": ";
  }
};

// The record of `variant_name`, or null when there is none.
nlohmann::json recordOf(const nlohmann::json& results, const std::string& variant_name) {
  if (results.contains("records"))
    for (const auto& r : results["records"])
      if (r["variant"] == variant_name) return r;
  return nullptr;
}

// The error of `variant_name`'s record in <out>/results.json; "" when the run left no such record
// (a crashed run writes none).
std::string recordedError(const Workspace& w, const std::string& variant_name) {
  const fs::path path = w.dir.path() / "out" / "results.json";
  if (!fs::exists(path)) return "";
  const nlohmann::json rec = recordOf(readJsonFile(path), variant_name);
  return rec.is_object() && rec.contains("error") && rec["error"].is_string() ? rec["error"].get<std::string>() : "";
}

// A manifest error: exit 2, the message names file, line and key.
void expectManifestError(const Workspace& w, const std::string& message) {
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: " + message)) << "expected: rooflab: " << message << "\n" << show(o);
}

}  // namespace
