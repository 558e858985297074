// The counters API (analyzer/counters/counters.hpp). Everywhere: availability reasons, the metric table,
// derived values, JSON, launch checks. On a machine with an NVIDIA GPU (tests named CountersGpu.*):
// bridged runs of PTX fixtures, their results, and exact FP32 FLOP counts; they skip with the reason
// when libcuda or a CUDA device is missing, and after checking results when CUPTI may not profile.
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

#define SKIP_WITHOUT_CUDA_DEVICE()                                                          \
  do {                                                                                      \
    if (const std::string why = rc::bridgeUnavailableReason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// After a bridged run whose results were checked: the counters, or a skip saying why there are none.
#define SKIP_WITHOUT_COUNTERS(m)                                                                   \
  do {                                                                                             \
    std::cout << #m << " = " << rc::toJson(m).dump(2) << "\n";                                     \
    if (!(m).available) GTEST_SKIP() << "bridged results verified; counters unavailable: " << (m).reason; \
  } while (0)

}  // namespace

TEST(Counters, NonNvidiaDeviceIsUnavailableWithAReason) {
  rooflab::DeviceInfo cpu;
  cpu.platform = "Portable Computing Language";
  cpu.vendor = "GenuineIntel";
  cpu.name = "cpu-haswell-Intel(R) Xeon(R)";
  cpu.type = "CPU";
  const std::string reason = rc::countersUnavailableReason(cpu);
  EXPECT_NE(reason.find("not an NVIDIA device"), std::string::npos) << reason;
}

TEST(Counters, NvidiaDeviceReasonIsTheBridgesWhenTheBridgeCannotRun) {
  rooflab::DeviceInfo gpu;
  gpu.platform = "NVIDIA CUDA";
  gpu.vendor = "NVIDIA Corporation";
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.type = "GPU";
  const std::string bridge = rc::bridgeUnavailableReason();
  if (!bridge.empty()) {
    EXPECT_EQ(rc::countersUnavailableReason(gpu), bridge);
  } else {
    // libcuda and a device are here; what is left to fail is libcupti.
    const std::string reason = rc::countersUnavailableReason(gpu);
    EXPECT_TRUE(reason.empty() || reason.find("libcupti") != std::string::npos) << reason;
  }
}

TEST(Counters, MetricTableHoldsTheIssueMetricsOnce) {
  const std::set<std::string> required = {
      kFadd, kFmul, kFfma, "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active", "smsp__inst_executed.sum",
      "smsp__issue_active.avg.pct_of_peak_sustained_active", "sm__cycles_elapsed.avg.per_second"};
  std::set<std::string> seen;
  for (const rc::CounterMetric& metric : rc::counterMetricTable()) {
    EXPECT_TRUE(seen.insert(metric.raw_name).second) << "twice: " << metric.raw_name;
    EXPECT_NE(std::string(metric.display_name), "");
    EXPECT_NE(std::string(metric.unit), "");
    EXPECT_NE(std::string(metric.description), "");
  }
  for (const std::string& name : required) EXPECT_EQ(seen.count(name), 1u) << "missing: " << name;

  std::set<std::string> derived_keys;
  for (const rc::CounterMetric& metric : rc::derivedCounterTable()) derived_keys.insert(metric.raw_name);
  for (const char* key : {"fp32_flops", "dram_bytes_read", "dram_bytes_write", "dram_bytes", "l2_bytes",
                          "warp_instructions_per_dram_byte", "fp32_flops_per_dram_byte"})
    EXPECT_EQ(derived_keys.count(key), 1u) << key;
}

TEST(Counters, DerivedValuesFollowTheirFormulas) {
  rc::CounterSet m;
  m.available = true;
  m.values = {{kFadd, 10},
              {kFmul, 20},
              {kFfma, 30},
              {"dram__bytes_read.sum", 1000},
              {"dram__bytes_write.sum", 500},
              {"lts__t_bytes.sum", 4000},
              {"smsp__inst_executed.sum", 300},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 10},
              {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 40},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 0},
              {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0},
              {"sm__warps_active.avg.pct_of_peak_sustained_active", 87.5},
              {"smsp__issue_active.avg.pct_of_peak_sustained_active", 81.25},
              {"sm__cycles_elapsed.avg.per_second", 1.98e9}};
  m.bridged_kernel_ns = 100;
  rc::deriveCounterValues(m);

  EXPECT_EQ(derived(m, "fp32_flops"), 10 + 20 + 2 * 30);
  EXPECT_EQ(derived(m, "dram_bytes"), 1500);
  EXPECT_EQ(derived(m, "dram_bytes_read"), 1000);
  EXPECT_EQ(derived(m, "dram_bytes_write"), 500);
  EXPECT_EQ(derived(m, "l2_bytes"), 4000);
  EXPECT_DOUBLE_EQ(*derived(m, "fp32_flops_per_dram_byte"), 90.0 / 1500);
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_dram_byte"), 300.0 / 1500);
  EXPECT_DOUBLE_EQ(*derived(m, "global_load_sectors_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(*derived(m, "fp32_gflops"), 0.9);
  EXPECT_DOUBLE_EQ(*derived(m, "dram_gbps"), 15.0);
  EXPECT_EQ(derived(m, "achieved_occupancy_pct"), 87.5);
  EXPECT_EQ(derived(m, "issue_slots_busy_pct"), 81.25);
  EXPECT_DOUBLE_EQ(*derived(m, "sm_clock_mhz"), 1980.0);

  // Not computable: null, with a reason beside it.
  EXPECT_FALSE(derived(m, "global_store_sectors_per_request").has_value());
  EXPECT_EQ(m.derived_reasons.at("global_store_sectors_per_request"), "no global stores");
  EXPECT_FALSE(derived(m, "shared_bank_conflicts").has_value());
  EXPECT_FALSE(m.derived_reasons.at("shared_bank_conflicts").empty());

  m.values["dram__bytes_read.sum"] = 0;
  m.values["dram__bytes_write.sum"] = 0;
  rc::deriveCounterValues(m);
  EXPECT_FALSE(derived(m, "fp32_flops_per_dram_byte").has_value());
  EXPECT_NE(m.derived_reasons.at("fp32_flops_per_dram_byte").find("no DRAM traffic"), std::string::npos);
}

// The course's profiler readings from hand-built raw values: a 4-way conflicted, partly
// divergent kernel whose loads use half of each sector.
TEST(Counters, ProfilerReadingsFollowTheirFormulas) {
  rc::CounterSet m;
  m.available = true;
  m.values = {{"smsp__sass_branch_targets.sum", 400},
              {"smsp__sass_branch_targets_threads_divergent.sum", 100},
              {"smsp__inst_executed.sum", 1000},
              {"smsp__inst_issued.sum", 1250},
              {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 50},
              {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", 100},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 10},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 5},
              {"l1tex__t_sector_hit_rate.pct", 12.5},
              {"lts__t_sector_hit_rate.pct", 75},
              {"lts__t_bytes.sum", 4096},
              {"smsp__sass_inst_executed_op_shared_ld.sum", 60},
              {"smsp__sass_inst_executed_op_shared_st.sum", 20},
              {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 180},
              {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 60},
              {"dram__bytes_read.sum", 6400},
              {"dram__bytes_write.sum", 3200}};
  rc::deriveCounterValues(m);

  EXPECT_DOUBLE_EQ(*derived(m, "branch_divergence_pct"), 25.0);
  EXPECT_DOUBLE_EQ(*derived(m, "instruction_replay_overhead"), 0.25);
  EXPECT_DOUBLE_EQ(*derived(m, "global_load_efficiency_pct"), 50.0);
  EXPECT_DOUBLE_EQ(*derived(m, "global_store_efficiency_pct"), 100.0);
  EXPECT_DOUBLE_EQ(*derived(m, "l1_hit_rate_pct"), 12.5);
  EXPECT_DOUBLE_EQ(*derived(m, "l2_hit_rate_pct"), 75.0);
  EXPECT_DOUBLE_EQ(*derived(m, "shared_bank_conflicts_per_access"), 3.0);  // (180 + 60) / (60 + 20)
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_dram_transaction"), 1000.0 / 300);  // 9600 B / 32
  for (const std::string& key : rc::profilerReadingKeys()) EXPECT_EQ(m.derived_reasons.count(key), 0u) << key;

  // What did not happen gives no reading, and says so.
  m.values["smsp__sass_branch_targets.sum"] = 0;
  m.values["smsp__sass_inst_executed_op_shared_ld.sum"] = 0;
  m.values["smsp__sass_inst_executed_op_shared_st.sum"] = 0;
  m.values["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] = 0;
  m.values["l1tex__t_sector_hit_rate.pct"] = std::numeric_limits<double>::quiet_NaN();
  m.values["dram__bytes_read.sum"] = 0;
  m.values["dram__bytes_write.sum"] = 0;
  rc::deriveCounterValues(m);
  const std::map<std::string, std::string> reasons = {
      {"branch_divergence_pct", "no branches"},
      {"shared_bank_conflicts_per_access", "no shared-memory accesses"},
      {"global_store_efficiency_pct", "no global stores"},
      {"l1_hit_rate_pct", "no L1/TEX sector lookups"},
      {"warp_instructions_per_dram_transaction", "no DRAM traffic: the data stayed in cache"}};
  for (const auto& [key, reason] : reasons) {
    EXPECT_FALSE(derived(m, key).has_value()) << key;
    EXPECT_EQ(m.derived_reasons.at(key), reason) << key;
  }
  EXPECT_DOUBLE_EQ(*derived(m, "global_load_efficiency_pct"), 50.0);
}

// A device without a metric keeps every other reading; the missing one names the metric and the
// profiler's reason.
TEST(Counters, ProfilerReadingOfAMissingMetricSaysWhich) {
  rc::CounterSet m;
  m.available = true;
  m.values = {{"smsp__inst_executed.sum", 1000}, {"lts__t_sector_hit_rate.pct", 40}, {"lts__t_bytes.sum", 64}};
  m.missing = {{"smsp__inst_issued.sum", "not available on GH100: CUPTI_ERROR_INVALID_METRIC_NAME"}};
  rc::deriveCounterValues(m);
  EXPECT_DOUBLE_EQ(*derived(m, "l2_hit_rate_pct"), 40.0);
  EXPECT_FALSE(derived(m, "instruction_replay_overhead").has_value());
  EXPECT_EQ(m.derived_reasons.at("instruction_replay_overhead"),
            "smsp__inst_issued.sum was not collected: not available on GH100: CUPTI_ERROR_INVALID_METRIC_NAME");
  EXPECT_EQ(m.derived_reasons.at("branch_divergence_pct"), "smsp__sass_branch_targets.sum was not collected");
  for (const std::string& key : rc::profilerReadingKeys()) {
    EXPECT_EQ(m.derived.count(key), 1u) << key;
    if (!derived(m, key)) EXPECT_FALSE(m.derived_reasons[key].empty()) << key;
  }
}

TEST(Counters, ProfilerReadingsAreDerivedKeysFromTheFullTable) {
  std::set<std::string> derived_keys, raw_names;
  for (const rc::CounterMetric& metric : rc::derivedCounterTable()) derived_keys.insert(metric.raw_name);
  for (const rc::CounterMetric& metric : rc::counterMetricTable()) raw_names.insert(metric.raw_name);
  ASSERT_EQ(rc::profilerReadingKeys().size(), 8u);
  for (const std::string& key : rc::profilerReadingKeys()) EXPECT_EQ(derived_keys.count(key), 1u) << key;
  for (const char* raw : {"smsp__sass_branch_targets.sum", "smsp__sass_branch_targets_threads_divergent.sum",
                          "smsp__inst_issued.sum", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                          "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
                          "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                          "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"}) {
    EXPECT_EQ(raw_names.count(raw), 1u) << raw;
    // Mutants collect only their validation subset: the readings are the originals'.
    const auto& subset = rc::mutantValidationMetrics();
    EXPECT_EQ(std::count(subset.begin(), subset.end(), raw), 0) << raw;
  }
}

TEST(Counters, JsonOfAnUnavailableMeasurement) {
  const nlohmann::json j = rc::toJson(rc::unavailableMeasurement("not an NVIDIA device"));
  EXPECT_EQ(j.at("available"), false);
  EXPECT_EQ(j.at("reason"), "not an NVIDIA device");
  EXPECT_TRUE(j.at("values").is_object() && j.at("values").empty());
  EXPECT_TRUE(j.at("derived").is_object());
  EXPECT_TRUE(j.at("bridged_kernel_ns").is_null());
  EXPECT_TRUE(j.at("kernels").is_object() && j.at("kernels").empty());
}

TEST(Counters, JsonWritesCountsAsIntegersAndNeverNaN) {
  rc::CounterSet m;
  m.available = true;
  m.values = {{kFfma, 16777216.0}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 42.5},
              {"lts__t_bytes.sum", std::numeric_limits<double>::quiet_NaN()}};
  m.bridged_kernel_ns = 70762;
  m.kernels["k"].registers_per_thread = 32;
  rc::deriveCounterValues(m);
  const nlohmann::json j = rc::toJson(m);
  EXPECT_TRUE(j.at("reason").is_null());
  EXPECT_TRUE(j.at("values").at(kFfma).is_number_integer());
  EXPECT_EQ(j.at("values").at(kFfma), 16777216);
  EXPECT_EQ(j.at("values").at("sm__warps_active.avg.pct_of_peak_sustained_active"), 42.5);
  EXPECT_TRUE(j.at("values").at("lts__t_bytes.sum").is_null());
  EXPECT_EQ(j.at("bridged_kernel_ns"), 70762);
  EXPECT_EQ(j.at("l2_flushed_before_profiling"), false);
  EXPECT_FALSE(j.contains("l2_flush_error"));
  EXPECT_EQ(j.at("kernels").at("k").at("registers_per_thread"), 32);
  EXPECT_EQ(j.dump().find("NaN"), std::string::npos);
}

TEST(Counters, BridgeNeverThrowsOnGarbage) {
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "x", kFloat, 4);
  const std::vector<rc::BridgeLaunch> launches = {{"k", {rc::BridgeArg::buffer("x")}, {4}, {4}}};
  rc::CounterSet m;
  EXPECT_NO_THROW(m = rc::measureBridged("this is not PTX", buffers, launches, 3));
  EXPECT_FALSE(m.available);
  EXPECT_FALSE(m.reason.empty());
  EXPECT_FALSE(m.bridged_kernel_ns);
  EXPECT_FALSE(m.buffers_read_back);
  EXPECT_NO_THROW(m = rc::measureBridged("", buffers, {}, 0));
  EXPECT_FALSE(m.reason.empty());
}

// Launches the bridge cannot express are refused before any GPU work, naming the launch and argument.
TEST(Counters, BadLaunchesAreReportedWithTheirLaunchAndArgument) {
  if (builtWithoutCuda()) GTEST_SKIP() << rc::bridgeUnavailableReason();
  const std::string ptx = readPtxFixture("nvidia-opencl-tiled-and-dynlocal.ptx");
  std::map<std::string, HostBuffer> buffers;
  for (const char* name : {"a", "b", "c"}) addBuffer(buffers, name, kFloat, 16 * 16);
  const std::vector<rc::BridgeArg> mm_args = {rc::BridgeArg::buffer("a"), rc::BridgeArg::buffer("b"),
                                              rc::BridgeArg::buffer("c"), rc::BridgeArg::scalarOf<std::int32_t>(16)};
  auto reasonFor = [&](const rc::BridgeLaunch& launch) {
    const rc::CounterSet m = rc::measureBridged(ptx, buffers, {launch}, 1);
    EXPECT_FALSE(m.available);
    EXPECT_FALSE(m.buffers_read_back);
    return m.reason;
  };
  auto expectReason = [](const std::string& reason, const std::string& part) {
    EXPECT_NE(reason.find(part), std::string::npos) << "reason: " << reason << "\nexpected: " << part;
  };

  expectReason(reasonFor({"nope", mm_args, {16, 16}, {16, 16}}), "launch #0 (kernel nope): no such kernel");
  expectReason(reasonFor({"nope", mm_args, {16, 16}, {16, 16}}), "mm, dyn");
  expectReason(reasonFor({"mm", {mm_args[0], mm_args[1], mm_args[2]}, {16, 16}, {16, 16}}),
               "3 arguments given, the kernel takes 4");
  std::vector<rc::BridgeArg> missing_buffer = mm_args;
  missing_buffer[2] = rc::BridgeArg::buffer("q");
  expectReason(reasonFor({"mm", missing_buffer, {16, 16}, {16, 16}}), "argument 2 (mm_param_2): no buffer named q");
  std::vector<rc::BridgeArg> wide_scalar = mm_args;
  wide_scalar[3] = rc::BridgeArg::scalarOf<std::int64_t>(16);
  expectReason(reasonFor({"mm", wide_scalar, {16, 16}, {16, 16}}), "8 bytes given, the PTX parameter takes 4");
  expectReason(reasonFor({"dyn", {mm_args[0], mm_args[1], mm_args[2]}, {16}, {16}}),
               "argument 2 (dyn_param_2): the kernel expects a __local size");
  expectReason(reasonFor({"mm", mm_args, {100, 16}, {16, 16}}), "not a multiple of local size");
  expectReason(reasonFor({"mm", mm_args, {16, 16}, {}}), "explicit local size");
}

TEST(CountersGpu, Fp32OpsCountsEveryFlop) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const std::size_t n = std::size_t{1} << 20;
  const float a = 1.25f;
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "x", kFloat, n);
  addBuffer(buffers, "y", kFloat, n);
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.5f + static_cast<float>(i % 97) * 0.25f;
    y[i] = 1.0f + static_cast<float>(i % 13) * 0.125f;
    buffers.at("x").data<float>()[i] = x[i];
    buffers.at("y").data<float>()[i] = y[i];
  }
  const std::vector<rc::BridgeLaunch> launches = {
      {"fp32_ops", {rc::BridgeArg::buffer("x"), rc::BridgeArg::buffer("y"), rc::BridgeArg::scalarOf(a)}, {n}, {256}}};
  const rc::CounterSet m = rc::measureBridged(readPtxFixture("fp32-ops.ptx"), buffers, launches, 5);

  ASSERT_TRUE(m.buffers_read_back) << m.reason;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float expected = std::fma(a, x[i], y[i]);
    expected = expected * a;
    expected = expected + x[i];
    if (buffers.at("y").data<float>()[i] != expected) ++wrong;
  }
  EXPECT_EQ(wrong, 0u) << "the GPU rounds fma, mul and add as IEEE single precision, like the CPU";
  EXPECT_EQ(buffers.at("x").data<float>()[7], x[7]) << "an input came back changed";
  ASSERT_TRUE(m.bridged_kernel_ns);
  EXPECT_GT(*m.bridged_kernel_ns, 0);
  EXPECT_EQ(m.bridged_repetitions_ns.size(), 5u);
  ASSERT_EQ(m.kernels.count("fp32_ops"), 1u);
  EXPECT_GT(m.kernels.at("fp32_ops").registers_per_thread, 0);
  EXPECT_EQ(m.kernels.at("fp32_ops").local_bytes_per_thread, 0);

  SKIP_WITHOUT_COUNTERS(m);
  EXPECT_TRUE(m.missing.empty()) << rc::toJson(m).at("missing").dump();
  EXPECT_EQ(m.values.at(kFfma), static_cast<double>(n));
  EXPECT_EQ(m.values.at(kFmul), static_cast<double>(n));
  EXPECT_EQ(m.values.at(kFadd), static_cast<double>(n));
  EXPECT_EQ(derived(m, "fp32_flops"), 4.0 * n);
  // Each warp loads 32 consecutive floats: 4 sectors of 32 bytes per request.
  ASSERT_TRUE(derived(m, "global_load_sectors_per_request"));
  EXPECT_NEAR(*derived(m, "global_load_sectors_per_request"), 4.0, 0.01);
  EXPECT_NEAR(m.values.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2.0 * n / 32, 1);
  // x and y are read once and y written once, all through L2.
  EXPECT_GE(m.values.at("lts__t_bytes.sum"), 0.99 * 12.0 * n);
  // The L2 was emptied before the pass: the 8 MB of inputs come from DRAM although they would fit in L2.
  EXPECT_TRUE(m.l2_flushed_before_profiling) << m.l2_flush_error;
  EXPECT_GE(m.values.at("dram__bytes_read.sum"), 0.9 * 8.0 * n);
  EXPECT_GT(m.values.at("smsp__inst_executed.sum"), 0);
  const double occupancy = m.values.at("sm__warps_active.avg.pct_of_peak_sustained_active");
  EXPECT_GT(occupancy, 0);
  EXPECT_LE(occupancy, 100);
  EXPECT_GE(m.profiler_passes, 1);
}

TEST(CountersGpu, NvidiaSampleTiledMatmulAndDynamicLocalInOneSequence) {
  SKIP_WITHOUT_CUDA_DEVICE();
  constexpr int N = 64;
  constexpr std::size_t reverse_items = 1024, work_group = 256;
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "a", kFloat, N * N);
  addBuffer(buffers, "b", kFloat, N * N);
  addBuffer(buffers, "c", kFloat, N * N);
  addBuffer(buffers, "in", kFloat, reverse_items);
  addBuffer(buffers, "out", kFloat, reverse_items);
  for (int i = 0; i < N * N; ++i) {
    buffers.at("a").data<float>()[i] = static_cast<float>((i * 7) % 11 - 5) * 0.25f;
    buffers.at("b").data<float>()[i] = static_cast<float>((i * 5) % 13 - 6) * 0.125f;
  }
  for (std::size_t i = 0; i < reverse_items; ++i) buffers.at("in").data<float>()[i] = static_cast<float>(i);
  poison(buffers.at("c"));
  poison(buffers.at("out"));
  const std::vector<float> a(buffers.at("a").data<float>(), buffers.at("a").data<float>() + N * N);
  const std::vector<float> b(buffers.at("b").data<float>(), buffers.at("b").data<float>() + N * N);

  const std::vector<rc::BridgeLaunch> launches = {
      {"mm",
       {rc::BridgeArg::buffer("a"), rc::BridgeArg::buffer("b"), rc::BridgeArg::buffer("c"),
        rc::BridgeArg::scalarOf<std::int32_t>(N)},
       {N, N},
       {16, 16}},
      {"dyn",
       {rc::BridgeArg::buffer("in"), rc::BridgeArg::buffer("out"), rc::BridgeArg::local(work_group * sizeof(float))},
       {reverse_items},
       {work_group}},
  };
  const rc::CounterSet m =
      rc::measureBridged(readPtxFixture("nvidia-opencl-tiled-and-dynlocal.ptx"), buffers, launches, 3);
  ASSERT_TRUE(m.buffers_read_back) << m.reason;

  double max_error = 0;
  for (int row = 0; row < N; ++row)
    for (int col = 0; col < N; ++col) {
      double expected = 0;
      for (int k = 0; k < N; ++k) expected += static_cast<double>(a[row * N + k]) * b[k * N + col];
      max_error = std::max(max_error, std::fabs(buffers.at("c").data<float>()[row * N + col] - expected));
    }
  EXPECT_LT(max_error, 1e-4) << "C = A x B, row-major";
  for (std::size_t g = 0; g < reverse_items; ++g) {
    const std::size_t lid = g % work_group, base = g - lid;
    ASSERT_EQ(buffers.at("out").data<float>()[g], static_cast<float>(base + work_group - 1 - lid)) << g;
  }
  // OpenCL's layout (ptx_rewrite.hpp, rewrite 5): 4 reserved bytes before the two 1024-byte tiles;
  // the driver may round the total up to 16.
  EXPECT_GE(m.kernels.at("mm").static_shared_bytes, 2052);
  EXPECT_LE(m.kernels.at("mm").static_shared_bytes, 2064);
  EXPECT_EQ(m.kernels.at("dyn").dynamic_shared_bytes, static_cast<std::int64_t>(work_group * sizeof(float)));

  SKIP_WITHOUT_COUNTERS(m);
  // mm: N FFMA per work-item, N x N work-items, and no FADD or FMUL; dyn does no arithmetic.
  EXPECT_EQ(m.values.at(kFfma), 1.0 * N * N * N);
  EXPECT_EQ(m.values.at(kFadd), 0.0);
  EXPECT_EQ(m.values.at(kFmul), 0.0);
  EXPECT_EQ(derived(m, "fp32_flops"), 2.0 * N * N * N);
  EXPECT_GT(*derived(m, "shared_wavefronts"), 0);
}

// The course's profiler readings on a real GPU: every metric they need exists on the device (a
// missing one would name itself in the reason), and each reading is in its range.
TEST(CountersGpu, ProfilerReadingsExistAndAreInRange) {
  SKIP_WITHOUT_CUDA_DEVICE();
  constexpr int N = 256;
  std::map<std::string, HostBuffer> buffers;
  for (const char* name : {"a", "b", "c"}) addBuffer(buffers, name, kFloat, N * N);
  for (int i = 0; i < N * N; ++i) {
    buffers.at("a").data<float>()[i] = static_cast<float>((i * 7) % 11 - 5) * 0.25f;
    buffers.at("b").data<float>()[i] = static_cast<float>((i * 5) % 13 - 6) * 0.125f;
  }
  const std::vector<rc::BridgeLaunch> launches = {
      {"mm",
       {rc::BridgeArg::buffer("a"), rc::BridgeArg::buffer("b"), rc::BridgeArg::buffer("c"),
        rc::BridgeArg::scalarOf<std::int32_t>(N)},
       {N, N},
       {16, 16}}};
  const rc::CounterSet m =
      rc::measureBridged(readPtxFixture("nvidia-opencl-tiled-and-dynlocal.ptx"), buffers, launches, 3);
  ASSERT_TRUE(m.buffers_read_back) << m.reason;
  SKIP_WITHOUT_COUNTERS(m);

  const std::map<std::string, std::pair<double, double>> ranges = {
      {"branch_divergence_pct", {0, 100}},
      {"instruction_replay_overhead", {-0.01, 10}},
      // Above 100 when the threads of a warp read the same words (the tile loads do not, A's row does).
      {"global_load_efficiency_pct", {1, 3200}},
      {"global_store_efficiency_pct", {1, 100}},
      {"l1_hit_rate_pct", {0, 100}},
      {"l2_hit_rate_pct", {0, 100}},
      {"shared_bank_conflicts_per_access", {0, 31}},
      {"warp_instructions_per_dram_transaction", {0, 1e9}}};
  for (const std::string& key : rc::profilerReadingKeys()) {
    const auto value = derived(m, key);
    std::cout << key << " = " << (value ? std::to_string(*value) : "null: " + m.derived_reasons.at(key)) << "\n";
    if (!value) {
      EXPECT_EQ(m.derived_reasons.at(key).find("was not collected"), std::string::npos) << key;
      continue;
    }
    const auto [low, high] = ranges.at(key);
    EXPECT_GE(*value, low) << key;
    EXPECT_LE(*value, high) << key;
  }
  // The tiled kernel reads its tiles from shared memory and stores C, one word per work-item, coalesced.
  EXPECT_TRUE(derived(m, "shared_bank_conflicts_per_access").has_value());
  EXPECT_TRUE(derived(m, "global_store_efficiency_pct").has_value());
}

TEST(CountersGpu, TwoLocalArgumentsDoNotOverlap) {
  SKIP_WITHOUT_CUDA_DEVICE();
  constexpr std::size_t items = 100, work_group = 10;  // 40-byte __local arrays: the second starts at 48
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "in", kFloat, items);
  addBuffer(buffers, "out", kFloat, items);
  for (std::size_t i = 0; i < items; ++i) buffers.at("in").data<float>()[i] = static_cast<float>(i);
  poison(buffers.at("out"));
  const std::vector<rc::BridgeLaunch> launches = {
      {"two_local",
       {rc::BridgeArg::buffer("in"), rc::BridgeArg::buffer("out"), rc::BridgeArg::local(work_group * 4),
        rc::BridgeArg::local(work_group * 4)},
       {items},
       {work_group}}};
  const rc::CounterSet m = rc::measureBridged(readPtxFixture("two-local-args.ptx"), buffers, launches, 3);
  ASSERT_TRUE(m.buffers_read_back) << m.reason;
  for (std::size_t g = 0; g < items; ++g) {
    const std::size_t lid = g % work_group, base = g - lid;
    ASSERT_EQ(buffers.at("out").data<float>()[g], static_cast<float>(base + work_group - 1 - lid) + 2.0f * g) << g;
  }
  EXPECT_EQ(m.kernels.at("two_local").dynamic_shared_bytes, 88);
  SKIP_WITHOUT_COUNTERS(m);
  EXPECT_EQ(derived(m, "fp32_flops"), 2.0 * items);  // one mul (or ptxas's x + x), one add per work-item
  EXPECT_EQ(m.values.at(kFfma), 0.0);
}

TEST(CountersGpu, ScalarArgumentsArriveIntact) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "out", kDouble, 11);
  poison(buffers.at("out"));
  const std::array<float, 4> v = {1.5f, -2.5f, 3.5f, -4.5f};
  const std::vector<rc::BridgeLaunch> launches = {{"scalars",
                                                   {rc::BridgeArg::buffer("out"), rc::BridgeArg::scalarOf<std::int8_t>(-5),
                                                    rc::BridgeArg::scalarOf<std::int16_t>(-1234),
                                                    rc::BridgeArg::scalarOf<std::int32_t>(123456),
                                                    rc::BridgeArg::scalarOf<std::int64_t>(-(std::int64_t{1} << 40)),
                                                    rc::BridgeArg::scalarOf(1.5f), rc::BridgeArg::scalarOf(3.25),
                                                    rc::BridgeArg::scalarOf<std::uint8_t>(200), rc::BridgeArg::scalarOf(v)},
                                                   {1},
                                                   {1}}};
  rc::BridgeOptions options;
  options.collect_counters = false;
  const rc::CounterSet m =
      rc::measureBridged(readPtxFixture("scalar-args.ptx"), buffers, launches, 1, options);
  ASSERT_TRUE(m.buffers_read_back) << m.reason;
  EXPECT_FALSE(m.available);
  EXPECT_EQ(m.reason, "counters not requested");
  const std::vector<double> expected = {-5, -1234, 123456, -1099511627776.0, 1.5, 3.25, 200, 1.5, -2.5, 3.5, -4.5};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(buffers.at("out").data<double>()[i], expected[i]) << i;
}

TEST(CountersGpu, StaticAndDynamicLocalCoexistAcrossSeveralKernels) {
  SKIP_WITHOUT_CUDA_DEVICE();
  constexpr std::size_t items = 256, work_group = 64;
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "data", kFloat, items);
  addBuffer(buffers, "other", kFloat, items);
  for (std::size_t i = 0; i < items; ++i) buffers.at("data").data<float>()[i] = static_cast<float>(i);
  poison(buffers.at("other"));
  const std::vector<rc::BridgeLaunch> launches = {
      {"static_and_dynamic", {rc::BridgeArg::buffer("data"), rc::BridgeArg::local(work_group * 4)}, {items}, {work_group}},
      {"fill", {rc::BridgeArg::buffer("other"), rc::BridgeArg::scalarOf(2.5f)}, {items}, {work_group}},
      {"no_args", {}, {1}, {1}},
  };
  rc::BridgeOptions options;
  options.read_back_buffers = {"data", "other"};
  const rc::CounterSet m =
      rc::measureBridged(readPtxFixture("several-kernels.ptx"), buffers, launches, 3, options);
  ASSERT_TRUE(m.buffers_read_back) << m.reason;
  for (std::size_t g = 0; g < items; ++g) {
    const std::size_t lid = g % work_group, base = g - lid;
    ASSERT_EQ(buffers.at("data").data<float>()[g], static_cast<float>(base + work_group - 1 - lid) + 3.0f * g) << g;
    ASSERT_EQ(buffers.at("other").data<float>()[g], 2.5f) << g;
  }
  EXPECT_GE(m.kernels.at("static_and_dynamic").static_shared_bytes, 260);  // 4 reserved + 256, maybe rounded to 16
  EXPECT_LE(m.kernels.at("static_and_dynamic").static_shared_bytes, 272);
  EXPECT_EQ(m.kernels.size(), 3u);
  SKIP_WITHOUT_COUNTERS(m);
  EXPECT_EQ(derived(m, "fp32_flops"), 2.0 * items);  // static_and_dynamic: one FMUL, one FADD per work-item
  EXPECT_EQ(m.values.at(kFmul), 1.0 * items);
  EXPECT_EQ(m.values.at(kFadd), 1.0 * items);
  EXPECT_EQ(m.values.at(kFfma), 0.0);
}

TEST(Counters, ExtraMetricsListDropsDuplicatesAndTableNames) {
  EXPECT_EQ(rc::parseExtraMetrics(" smsp__a.sum,smsp__b.sum  smsp__a.sum,, smsp__inst_executed.sum "),
            (std::vector<std::string>{"smsp__a.sum", "smsp__b.sum"}));
  EXPECT_TRUE(rc::parseExtraMetrics("").empty());
}
