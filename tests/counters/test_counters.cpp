// The counters API (analyzer/counters/counters.hpp). Everywhere: availability reasons, the metric table,
// derived values, JSON, launch checks. On a machine with an NVIDIA GPU (tests named CountersGpu.*):
// bridged runs of PTX fixtures, their results, and exact FP32 FLOP counts; they skip with the reason
// when libcuda or a CUDA device is missing, and after checking results when CUPTI may not profile.
#include "counters/counters_test_support.hpp"

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
  const std::set<std::string> required = {kFadd,
                                          kFmul,
                                          kFfma,
                                          "dram__bytes_read.sum",
                                          "dram__bytes_write.sum",
                                          "lts__t_bytes.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                                          "sm__warps_active.avg.pct_of_peak_sustained_active",
                                          "smsp__inst_executed.sum",
                                          "smsp__issue_active.avg.pct_of_peak_sustained_active",
                                          "sm__cycles_elapsed.avg.per_second"};
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

// The instruction roofline's values from the raw counts of a tiled transpose on an H100 (N = 8192):
// 32-way conflicted shared loads, conflict-free stores, coalesced global accesses.
TEST(Counters, InstructionRooflineValuesFollowTheirFormulas) {
  rc::CounterSet m;
  m.available = true;
  m.values = {{"smsp__inst_executed.sum", 27262976},
              {"dram__bytes_read.sum", 268435456},
              {"dram__bytes_write.sum", 252420096},
              {"lts__t_bytes.sum", 809407808},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 2097152},
              {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 8388608},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 2097152},
              {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 8388608},
              {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 67653632},
              {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 2235392},
              {"smsp__sass_inst_executed_op_shared_ld.sum", 2097152},
              {"smsp__sass_inst_executed_op_shared_st.sum", 2097152},
              {"smsp__sass_thread_inst_executed_op_integer_pred_on.sum", 402653184}};
  m.bridged_kernel_ns = 344016;
  rc::deriveCounterValues(m);

  EXPECT_EQ(derived(m, "integer_ops"), 402653184);
  EXPECT_DOUBLE_EQ(*derived(m, "warp_gips"), 27262976.0 / 344016);
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_l1_transaction"), 27262976.0 / 16777216);
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_l2_transaction"), 27262976.0 / (809407808.0 / 32));
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_dram_transaction"), 27262976.0 / (520855552.0 / 32));
  EXPECT_DOUBLE_EQ(*derived(m, "warp_instructions_per_shared_transaction"), 27262976.0 / (67653632.0 + 2235392));
  EXPECT_DOUBLE_EQ(*derived(m, "shared_load_wavefronts_per_request"), 67653632.0 / 2097152);  // 32.3: the 32-way wall
  EXPECT_DOUBLE_EQ(*derived(m, "shared_store_wavefronts_per_request"), 2235392.0 / 2097152);
  EXPECT_DOUBLE_EQ(*derived(m, "global_load_gips"), 2097152.0 / 344016);
  EXPECT_DOUBLE_EQ(*derived(m, "shared_store_gips"), 2097152.0 / 344016);

  // A kernel without shared memory: its shared values are null, and say why.
  m.values["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 0;
  m.values["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 0;
  m.values["smsp__sass_inst_executed_op_shared_ld.sum"] = 0;
  m.values.erase("smsp__sass_thread_inst_executed_op_integer_pred_on.sum");
  rc::deriveCounterValues(m);
  EXPECT_FALSE(derived(m, "warp_instructions_per_shared_transaction").has_value());
  EXPECT_FALSE(derived(m, "shared_load_wavefronts_per_request").has_value());
  EXPECT_FALSE(m.derived_reasons.at("shared_load_wavefronts_per_request").empty());
  EXPECT_FALSE(derived(m, "integer_ops").has_value());
  EXPECT_NE(m.derived_reasons.at("integer_ops").find("not collected"), std::string::npos);
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
  EXPECT_DOUBLE_EQ(*derived(m, "shared_bank_conflicts_per_access"), 3.0);                 // (180 + 60) / (60 + 20)
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
  m.values = {{kFfma, 16777216.0},
              {"sm__warps_active.avg.pct_of_peak_sustained_active", 42.5},
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

TEST(Counters, ExtraMetricsListDropsDuplicatesAndTableNames) {
  EXPECT_EQ(rc::parseExtraMetrics(" smsp__a.sum,smsp__b.sum  smsp__a.sum,, smsp__inst_executed.sum "),
            (std::vector<std::string>{"smsp__a.sum", "smsp__b.sum"}));
  EXPECT_TRUE(rc::parseExtraMetrics("").empty());
}
