// The counters API on a machine with an NVIDIA GPU (moved from tests/counters/test_counters.cpp): bridged
// runs of PTX fixtures, their results, and exact FP32 FLOP counts; they skip with the reason when libcuda
// or a CUDA device is missing, and after checking results when CUPTI may not profile.
#include "counters/counters_test_support.hpp"

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

namespace {

// The fixture scalar-args.ptx's one kernel: every scalar type OpenCL passes, written into `out`.
std::vector<rc::BridgeLaunch> scalarArgumentsLaunch() {
  const std::array<float, 4> v = {1.5f, -2.5f, 3.5f, -4.5f};
  return {{"scalars",
           {rc::BridgeArg::buffer("out"), rc::BridgeArg::scalarOf<std::int8_t>(-5),
            rc::BridgeArg::scalarOf<std::int16_t>(-1234), rc::BridgeArg::scalarOf<std::int32_t>(123456),
            rc::BridgeArg::scalarOf<std::int64_t>(-(std::int64_t{1} << 40)), rc::BridgeArg::scalarOf(1.5f),
            rc::BridgeArg::scalarOf(3.25), rc::BridgeArg::scalarOf<std::uint8_t>(200), rc::BridgeArg::scalarOf(v)},
           {1},
           {1}}};
}

}  // namespace

TEST(CountersGpu, ScalarArgumentsArriveIntact) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "out", kDouble, 11);
  poison(buffers.at("out"));
  const std::vector<rc::BridgeLaunch> launches = scalarArgumentsLaunch();
  rc::BridgeOptions options;
  options.collect_counters = false;
  const rc::CounterSet m = rc::measureBridged(readPtxFixture("scalar-args.ptx"), buffers, launches, 1, options);
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
      {"static_and_dynamic",
       {rc::BridgeArg::buffer("data"), rc::BridgeArg::local(work_group * 4)},
       {items},
       {work_group}},
      {"fill", {rc::BridgeArg::buffer("other"), rc::BridgeArg::scalarOf(2.5f)}, {items}, {work_group}},
      {"no_args", {}, {1}, {1}},
  };
  rc::BridgeOptions options;
  options.read_back_buffers = {"data", "other"};
  const rc::CounterSet m = rc::measureBridged(readPtxFixture("several-kernels.ptx"), buffers, launches, 3, options);
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

// Each NVIDIA OpenCL GPU gives its PCI location, no two the same, and the bridge counts on the CUDA
// device at that location: told a location CUDA does not list, it says so and runs nothing, rather
// than counting on another GPU (two workers on CUDA device 0 lost records to HARDWARE_BUSY).
TEST(CountersGpu, TheBridgeRunsOnTheCudaDeviceAtTheOpenClDevicesPciLocation) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::vector<rooflab::SelectedDevice> nvidia;
  for (rooflab::SelectedDevice& d : rooflab::discoverDevices())
    if (d.info.isNvidia() && d.info.isGpu()) nvidia.push_back(d);
  if (nvidia.empty()) GTEST_SKIP() << "no NVIDIA GPU among the OpenCL devices";
  std::set<std::string> locations;
  for (const rooflab::SelectedDevice& d : nvidia) {
    ASSERT_TRUE(d.info.pci_location) << d.info.name << ": no PCI location (cl_nv_device_attribute_query)";
    locations.insert(rooflab::toString(*d.info.pci_location));
  }
  EXPECT_EQ(locations.size(), nvidia.size());

  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "out", kDouble, 11);
  poison(buffers.at("out"));
  const std::vector<rc::BridgeLaunch> launches = scalarArgumentsLaunch();
  rc::BridgeOptions options;
  options.collect_counters = false;
  options.device = {nvidia[0].info.name, nvidia[0].info.pci_location};
  const rc::CounterSet found = rc::measureBridged(readPtxFixture("scalar-args.ptx"), buffers, launches, 1, options);
  EXPECT_TRUE(found.buffers_read_back) << found.reason;
  options.device.pci = rooflab::PciLocation{0xffff, 0xff, 0x1f};
  const rc::CounterSet missing = rc::measureBridged(readPtxFixture("scalar-args.ptx"), buffers, launches, 1, options);
  EXPECT_FALSE(missing.buffers_read_back);
  EXPECT_NE(missing.reason.find("no CUDA device is at the OpenCL device's PCI location ffff:ff:1f"), std::string::npos)
      << missing.reason;
}

// The sampling pass: the fixture given the line directives of a -nv-line-info build (the loads on line
// 3, the arithmetic on 4 and 5, the store on 5), sampled over one run. Every sample lands on one of
// those lines of ops.cl, and the counters stay as they were.
TEST(CountersGpu, PcSamplingPlacesEverySampleOnTheKernelsLines) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::string ptx = readPtxFixture("fp32-ops.ptx");
  auto insertBefore = [&](const std::string& at, const std::string& text) {
    const std::size_t pos = ptx.find(at);
    ASSERT_NE(pos, std::string::npos) << at;
    ptx.insert(pos, text);
  };
  insertBefore("\t// .globl", "\t.file\t1 \"/tmp/rooflab-test/ops.cl\"\n");
  insertBefore("\tld.param.u64 \t%rd1", "\t.loc\t1 2 0\n");
  insertBefore("\tmul.wide.s32", "\t.loc\t1 3 0\n");
  insertBefore("\tfma.rn.f32", "\t.loc\t1 4 0\n");
  insertBefore("\tadd.rn.f32", "\t.loc\t1 5 0\n");
  const std::size_t n = std::size_t{1} << 24;
  std::map<std::string, HostBuffer> buffers;
  addBuffer(buffers, "x", kFloat, n);
  addBuffer(buffers, "y", kFloat, n);
  const std::vector<rc::BridgeLaunch> launches = {
      {"fp32_ops",
       {rc::BridgeArg::buffer("x"), rc::BridgeArg::buffer("y"), rc::BridgeArg::scalarOf(1.5f)},
       {n},
       {256}}};
  rc::PcSampling sampled;
  rc::BridgeOptions options;
  options.line_samples = &sampled;
  const rc::CounterSet m = rc::measureBridged(ptx, buffers, launches, 3, options);
  SKIP_WITHOUT_COUNTERS(m);
  ASSERT_TRUE(sampled.available) << sampled.reason;
  EXPECT_GT(sampled.total_samples, 0);
  std::int64_t on_lines = 0;
  for (const rc::SampledLine& line : sampled.lines) {
    if (line.line == 0) continue;
    EXPECT_NE(line.file.find("ops.cl"), std::string::npos) << line.file;
    EXPECT_GE(line.line, 2);
    EXPECT_LE(line.line, 5);
    on_lines += line.samples;
  }
  EXPECT_GT(on_lines, 0);
  EXPECT_EQ(m.values.at(kFfma), static_cast<double>(n)) << "the sampling pass comes after the counters";
}
