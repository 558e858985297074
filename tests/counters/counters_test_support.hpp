// Shared by tests/counters/test_counters.cpp and test_counters_gpu.cpp: buffers, fixtures and skips.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include "analyzer/counters/counters.hpp"
#include "analyzer/data/counter_metrics.hpp"
#include "analyzer/json/results_json.hpp"
#include "test_support.hpp"
#include "analyzer/device/device.hpp"

namespace rc = rooflab::counters;
namespace fs = std::filesystem;
using rooflab::ElementType;
using rooflab::HostBuffer;
using rooflab::ScalarKind;

using rooflab::testing::readPtxFixture;

namespace {

const ElementType kFloat{ScalarKind::f32, 1};
const ElementType kDouble{ScalarKind::f64, 1};

constexpr const char* kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
constexpr const char* kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
constexpr const char* kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";

void addBuffer(std::map<std::string, HostBuffer>& buffers, const std::string& name, ElementType type,
               std::size_t count) {
  buffers.emplace(name, HostBuffer(name, type, count));
}

// Outputs start as NaN, so an element the bridged kernel did not write is seen.
void poison(HostBuffer& buffer) {
  for (std::size_t i = 0; i < buffer.scalarCount(); ++i) buffer.setScalar(i, std::numeric_limits<double>::quiet_NaN());
}

std::optional<double> derived(const rc::CounterSet& m, const std::string& key) {
  const auto it = m.derived.find(key);
  return it == m.derived.end() ? std::nullopt : it->second;
}

bool builtWithoutCuda() { return rc::bridgeUnavailableReason().find("built without") != std::string::npos; }

#define SKIP_WITHOUT_CUDA_DEVICE() \
  do { \
    if (const std::string why = rc::bridgeUnavailableReason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// After a bridged run whose results were checked: the counters, or a skip saying why there are none.
#define SKIP_WITHOUT_COUNTERS(m) \
  do { \
    std::cout << #m << " = " << rc::toJson(m).dump(2) << "\n"; \
    if (!(m).available) GTEST_SKIP() << "bridged results verified; counters unavailable: " << (m).reason; \
  } while (0)

}  // namespace
