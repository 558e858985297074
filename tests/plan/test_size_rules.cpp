// Size rules (docs/config.md): a study param given as "fill" is read with its keys checked, planned at
// the family's default before any device is open, and chosen for a device from its compute units,
// roofs and memory, rounded to a size every studied variant accepts. The devices here are typed in:
// no OpenCL device is needed.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/config/config.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/support/errors.hpp"
#include "reports/text/size_choice_text.hpp"
#include "test_support.hpp"

namespace rooflab::testing {
namespace {

std::string configError(const std::string& text) {
  try {
    parseBatchConfig(text, "rules.toml", "/tmp");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

BatchConfig builtinConfig(const std::string& studies) {
  return parseBatchConfig(std::string(kQuickCpuRun) + studies, "rules.toml", ROOFLAB_SOURCE_DIR);
}

// An H100 as OpenCL describes it, with roofs of its order.
SizeDevice gpu(const DeviceModel& roofs) {
  DeviceInfo info;
  info.name = "test GPU";
  info.compute_units = 132;
  info.max_work_group_size = 1024;
  info.max_work_item_sizes = {1024, 1024, 64};
  info.max_alloc_bytes = 20ull << 30;
  info.global_mem_bytes = 80ull << 30;
  info.local_mem_bytes = 49152;
  return SizeDevice{info, &roofs, "measured"};
}

DeviceModel roofs(double gflops, double gbps) {
  DeviceModel model;
  model.key = "device";
  model.peak_gflops = gflops;
  model.dram_gbps = gbps;
  return model;
}

std::vector<SizeChoice> choose(const BatchConfig& config, const SizeDevice& device) {
  const BatchPlan plan = planBatch(config);
  EXPECT_TRUE(plan.input_errors.empty()) << (plan.input_errors.empty() ? "" : plan.input_errors.front());
  return chooseSizes(config, plan, device);
}

TEST(SizeRules, AStudyParamMayBeARuleWithItsKeysChecked) {
  const BatchConfig c = builtinConfig(R"(
[[study]]
family = "matmul"
params = { N = "fill", COL_MAJOR = [0] }
[[study]]
family = "vecadd"
params = { N = { rule = "fill", waves = 2, min_kernel_us = 50, max = 1e8, sweep_from = 4096 } }
)");
  ASSERT_EQ(c.studies.size(), 2u);
  ASSERT_EQ(c.studies[0].size_rules.size(), 1u);
  EXPECT_EQ(c.studies[0].size_rules[0].param, "N");
  EXPECT_EQ(c.studies[0].size_rules[0].waves, 4);
  ASSERT_EQ(c.studies[0].params.size(), 1u);  // COL_MAJOR stays a sweep
  const SizeRuleSpec& rule = c.studies[1].size_rules.at(0);
  EXPECT_EQ(rule.waves, 2);
  EXPECT_EQ(rule.min_kernel_us, 50);
  EXPECT_EQ(rule.max, 1e8);
  EXPECT_EQ(rule.sweep_from, 4096);
  EXPECT_EQ(rule.where.line, 17);  // after the 10 lines of the [run] table

  EXPECT_TRUE(contains(configError("[[study]]\nfamily = \"x\"\nparams = { N = \"fil\" }\n"), "unknown rule 'fil'"));
  const std::string bad =
      configError("[[study]]\nfamily = \"x\"\nparams = { N = { rule = \"fill\", waves = -1, wave = 3, "
                  "min = 10, max = 5 } }\n");
  EXPECT_TRUE(contains(bad, "rules.toml:3: study[0].params.N.waves: must be a finite number above 0")) << bad;
  EXPECT_TRUE(contains(bad, "study[0].params.N.wave: unknown key")) << bad;
  EXPECT_TRUE(contains(bad, "min (10) must not exceed max (5)")) << bad;
  EXPECT_TRUE(contains(configError("[[study]]\nfamily = \"x\"\nparams = { N = { waves = 2 } }\n"), "rule"));
}

TEST(SizeRules, TheRuleIsPlannedAtTheDefaultAndItsParamMustExist) {
  BatchPlan plan =
      planBatch(builtinConfig("[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { M = \"fill\" }\n"));
  ASSERT_EQ(plan.input_errors.size(), 1u);
  EXPECT_TRUE(contains(plan.input_errors[0], "rules.toml:14: study 'vecadd': parameter 'M' is not declared"))
      << plan.input_errors[0];

  plan =
      planBatch(builtinConfig("[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = \"fill\" }\n"));
  ASSERT_TRUE(plan.input_errors.empty());
  EXPECT_EQ(plan.points.at(0).run_point.params.at("N"), 1048576);  // the family's default until the device is known

  // No size between 1 and 100 suits blocked128 (global 16*ceil(N/128) by local 16 suits every N, but
  // naive_coalesced's local of 32 needs N a multiple of 32): found before any device work.
  plan = planBatch(builtinConfig("[[study]]\nfamily = \"matmul\"\nvariants = [\"naive_coalesced\"]\nparams = { N = { "
                                 "rule = \"fill\", max = 30 } }\n"));
  ASSERT_EQ(plan.input_errors.size(), 1u);
  EXPECT_TRUE(contains(plan.input_errors[0], "N: no size within the rule's bounds suits every studied variant"))
      << plan.input_errors[0];
}

TEST(SizeRules, FillingAGpuTakesWavesOfWorkGroupsOnEveryComputeUnit) {
  const DeviceModel h100 = roofs(50000, 3000);
  const std::vector<SizeChoice> choices = choose(builtinConfig(R"(
[[study]]
family = "matmul"
variants = ["naive_coalesced", "tiled16", "blocked128_8x8"]
params = { N = "fill" }
)"),
                                                 gpu(h100));
  ASSERT_EQ(choices.size(), 1u);
  const SizeChoice& c = choices[0];
  // 4 x 132 = 528 work-groups: blocked128's (N/128)^2 reach it at N = 2941; the first round size
  // every variant accepts above that is 3072 (naive_coalesced needs a multiple of 32).
  EXPECT_EQ(c.value, 3072);
  EXPECT_EQ(c.values, std::vector<double>{3072});
  EXPECT_EQ(c.limited_by, SizeLimit::waves);
  EXPECT_EQ(c.work_groups_needed, 528);
  EXPECT_EQ(c.fewest_variant, "blocked128_8x8");
  EXPECT_EQ(c.fewest_work_groups, 576);
  ASSERT_TRUE(c.estimated_kernel_us);
  EXPECT_NEAR(*c.estimated_kernel_us, 2.0 * 3072 * 3072 * 3072 / 50000e9 * 1e6, 1);
  EXPECT_TRUE(contains(reports::sizeChoiceText(c), "N = 3072 (size rule \"fill\")")) << reports::sizeChoiceText(c);
  EXPECT_TRUE(contains(reports::sizeChoiceText(c), "decided by the waves")) << reports::sizeChoiceText(c);
}

TEST(SizeRules, AFastMemoryBoundFamilyIsSizedByItsKernelTime) {
  const DeviceModel h100 = roofs(50000, 3000);
  const std::vector<SizeChoice> choices = choose(builtinConfig(R"(
[[study]]
family = "vecadd"
variants = ["global", "float4"]
params = { N = { rule = "fill", min_kernel_us = 200, sweep_from = 1048576, sweep_factor = 4 } }
)"),
                                                 gpu(h100));
  ASSERT_EQ(choices.size(), 1u);
  const SizeChoice& c = choices[0];
  // 12 N bytes at 3000 GB/s for 200 us: N >= 5e7; the next round size is 6 x 2^23.
  EXPECT_EQ(c.value, 6 * 8388608);
  EXPECT_EQ(c.limited_by, SizeLimit::kernel_time);
  EXPECT_GE(*c.estimated_kernel_us, 200);
  EXPECT_EQ(c.values, (std::vector<double>{1048576, 4194304, 16777216, 6 * 8388608}));
  const BatchConfig sized = withChosenSizes(builtinConfig(R"(
[[study]]
family = "vecadd"
variants = ["global", "float4"]
params = { N = { rule = "fill", min_kernel_us = 200, sweep_from = 1048576, sweep_factor = 4 } }
)"),
                                            choices);
  EXPECT_TRUE(sized.studies[0].size_rules.empty());
  EXPECT_EQ(planBatch(sized).points.size(), 8u);  // 2 variants x 4 sizes
}

TEST(SizeRules, MemoryHoldsTheSizeDownAndSaysTheGoalsAreNotMet) {
  const DeviceModel slow = roofs(100, 1);  // 200 us of vecadd here would need N in the billions
  SizeDevice device = gpu(slow);
  device.info.max_alloc_bytes = 64ull << 20;
  const std::vector<SizeChoice> choices =
      choose(builtinConfig("[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\nparams = { N = { rule = \"fill\", "
                           "min_kernel_us = 1e9 } }\n"),
             device);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0].limited_by, SizeLimit::memory);
  EXPECT_EQ(choices[0].value, 16777216);  // 64 MiB of floats: the largest that fits
  EXPECT_TRUE(contains(reports::sizeChoiceText(choices[0]), "the goals are not met"))
      << reports::sizeChoiceText(choices[0]);
}

TEST(SizeRules, WithoutRoofsTheWavesAloneDecideAndExplicitNumbersWin) {
  SizeDevice cpu = gpu(roofs(1, 1));
  cpu.roofs = nullptr;
  cpu.info.compute_units = 2;
  BatchConfig config =
      builtinConfig("[[study]]\nfamily = \"matmul\"\nvariants = [\"blocked128_8x8\"]\nparams = { N = \"fill\" }\n");
  std::vector<SizeChoice> choices = choose(config, cpu);
  ASSERT_EQ(choices.size(), 1u);
  // 4 waves of 2 compute units: 8 work-groups of 128x128 tiles, first at N = 320 (3 x 3 tiles).
  EXPECT_EQ(choices[0].value, 320);
  EXPECT_EQ(choices[0].limited_by, SizeLimit::waves);
  EXPECT_FALSE(choices[0].estimated_kernel_us);
  EXPECT_TRUE(contains(reports::sizeChoiceText(choices[0]), "not estimated (no roofs known for this device)"))
      << reports::sizeChoiceText(choices[0]);
  config.param_overrides.push_back(parseParamOverride("N=512"));
  EXPECT_TRUE(choose(config, cpu).empty());
  EXPECT_EQ(planBatch(config).points.at(0).run_point.params.at("N"), 512);
}

// PoCL on the 2-core EPYC that runs CI, as OpenCL describes it, with roofs of the order it measures.
SizeDevice pocl(const DeviceModel& roofs) {
  DeviceInfo info;
  info.name = "test CPU";
  info.compute_units = 2;
  info.max_work_group_size = 4096;
  info.max_work_item_sizes = {4096, 4096, 4096};
  info.max_alloc_bytes = 8ull << 30;
  info.global_mem_bytes = 12ull << 30;
  info.global_mem_cache_bytes = 32ull << 20;
  info.local_mem_bytes = 4ull << 20;
  return SizeDevice{info, &roofs, "measured"};
}

// Sized by the kernel time alone, vecadd's 11 MB stayed in the CPU's 32 MB cache and ran above its
// DRAM roof; a memory-bound family's buffers now take at least 4 x the cache.
TEST(SizeRules, AMemoryBoundFamilyIsSizedPastTheDevicesCache) {
  const DeviceModel cpu_roofs = roofs(130, 20);
  const SizeDevice cpu = pocl(cpu_roofs);
  const std::vector<SizeChoice> choices = choose(builtinConfig(R"(
[[study]]
family = "vecadd"
variants = ["global", "local_staged", "float4"]
params = { N = "fill" }
)"),
                                                 cpu);
  ASSERT_EQ(choices.size(), 1u);
  const SizeChoice& c = choices[0];
  EXPECT_GE(c.buffer_bytes, 4.0 * static_cast<double>(cpu.info.global_mem_cache_bytes)) << reports::sizeChoiceText(c);
  EXPECT_EQ(c.value, 3 * 4194304);  // 12 N bytes >= 128 MiB: N >= 11184811, the next round size
  EXPECT_EQ(c.limited_by, SizeLimit::cache);
  EXPECT_EQ(c.cache_bytes, cpu.info.global_mem_cache_bytes);
  EXPECT_TRUE(contains(reports::sizeChoiceText(c),
                       "past the cache: memory-bound at the roofs, so the buffers take at least 4 x the "
                       "device's 33.6 MB global-memory cache; decided by the cache"))
      << reports::sizeChoiceText(c);
}

// matmul is compute-bound at these roofs from small sizes on: the cache does not decide its place.
TEST(SizeRules, AComputeBoundFamilyIsNotHeldToTheCache) {
  const DeviceModel cpu_roofs = roofs(130, 20);
  const std::vector<SizeChoice> choices =
      choose(builtinConfig("[[study]]\nfamily = \"matmul\"\nvariants = [\"naive_coalesced\"]\nparams = { N = { rule = "
                           "\"fill\", waves = 2 } }\n"),
             pocl(cpu_roofs));
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0].cache_bytes, 0u) << reports::sizeChoiceText(choices[0]);
  EXPECT_NE(choices[0].limited_by, SizeLimit::cache) << reports::sizeChoiceText(choices[0]);
  EXPECT_LT(choices[0].buffer_bytes, 32.0 * 1024 * 1024) << reports::sizeChoiceText(choices[0]);
}

}  // namespace
}  // namespace rooflab::testing
