// Host condition readers (analyzer/host_condition.hpp) on sysfs and procfs files made by the test.
#include <gtest/gtest.h>

#include "analyzer/device/gpu_clock.hpp"
#include "analyzer/device/host_condition.hpp"
#include "reports/text/host_sentences.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::TempDir;

namespace {

HostPaths pathsIn(const TempDir& dir) {
  HostPaths paths;
  paths.governor = dir.path() / "cpufreq/scaling_governor";
  paths.loadavg = dir.path() / "loadavg";
  paths.online_cpus = dir.path() / "online";
  paths.cpu0_caches = dir.path() / "cache";
  return paths;
}

void writeCache(const TempDir& dir, int index, const char* level, const char* type, const char* size,
                const char* shared) {
  const std::string base = "cache/index" + std::to_string(index) + "/";
  dir.write(base + "level", std::string(level) + "\n");
  dir.write(base + "type", std::string(type) + "\n");
  dir.write(base + "size", std::string(size) + "\n");
  dir.write(base + "shared_cpu_list", std::string(shared) + "\n");
}

}  // namespace

TEST(HostCondition, ReadsGovernorLoadAndCores) {
  TempDir dir;
  dir.write("cpufreq/scaling_governor", "performance\n");
  dir.write("loadavg", "0.42 0.67 0.62 2/94 6552\n");
  dir.write("online", "0-3,8-11\n");
  const HostCondition host = readHostCondition(pathsIn(dir));
  EXPECT_EQ(host.cpu_governor, "performance");
  ASSERT_TRUE(host.load_average_1min.has_value());
  EXPECT_DOUBLE_EQ(*host.load_average_1min, 0.42);
  EXPECT_EQ(host.core_count, 8u);
  EXPECT_FALSE(noisyHost(host).has_value());
}

TEST(HostCondition, UnreadableFilesLeaveReadingsAbsent) {
  TempDir dir;
  dir.write("loadavg", "not a number\n");
  const HostCondition host = readHostCondition(pathsIn(dir));
  EXPECT_FALSE(host.cpu_governor.has_value());
  EXPECT_FALSE(host.load_average_1min.has_value());
  EXPECT_FALSE(host.core_count.has_value());
  EXPECT_FALSE(noisyHost(host).has_value());  // nothing known, nothing to blame
}

TEST(HostCondition, CpuListsCount) {
  EXPECT_EQ(countCpuList("0"), 1u);
  EXPECT_EQ(countCpuList("0-1"), 2u);
  EXPECT_EQ(countCpuList("0-3,8-11"), 8u);
  EXPECT_EQ(countCpuList("0,2,4"), 3u);
  EXPECT_FALSE(countCpuList("").has_value());
  EXPECT_FALSE(countCpuList("3-1").has_value());
  EXPECT_FALSE(countCpuList("a-b").has_value());
}

TEST(HostCondition, NoisyWhenLoadedOrClocksFloat) {
  HostCondition host;
  host.load_average_1min = 5.89;
  host.core_count = 2;
  auto reason = noisyHost(host);
  ASSERT_TRUE(reason && reason->load);
  EXPECT_EQ(reason->load->core_count, 2u);
  EXPECT_DOUBLE_EQ(reason->load->load_per_core, 2.945);
  EXPECT_NE(reports::hostNoiseText(*reason).find("load average 5.89 on 2 cores (2.94 per core, above 0.50)"),
            std::string::npos)
      << reports::hostNoiseText(*reason);

  host.load_average_1min = 0.9;  // 0.45 per core
  EXPECT_FALSE(noisyHost(host).has_value());
  EXPECT_TRUE(noisyHost(host, HostNoiseLimits{0.25}).has_value());

  host.cpu_governor = "powersave";
  reason = noisyHost(host);
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->cpu_governor, std::optional<std::string>("powersave"));
  EXPECT_NE(reports::hostNoiseText(*reason).find("governor 'powersave'"), std::string::npos);
}

TEST(HostCondition, LastLevelCacheSumsItsInstances) {
  TempDir dir;
  dir.write("online", "0-15\n");
  writeCache(dir, 0, "1", "Data", "48K", "0");
  writeCache(dir, 1, "1", "Instruction", "32K", "0");
  writeCache(dir, 2, "2", "Unified", "1024K", "0");
  writeCache(dir, 3, "3", "Unified", "32768K", "0-7");  // one L3 per 8-core chiplet: two of them
  const auto bytes = readLastLevelCacheBytes(pathsIn(dir));
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(*bytes, 2ull * 32 * 1024 * 1024);
}

TEST(HostCondition, LastLevelCacheAbsentWithoutSysfsCaches) {
  TempDir dir;
  EXPECT_FALSE(readLastLevelCacheBytes(pathsIn(dir)).has_value());
  writeCache(dir, 0, "1", "Instruction", "32K", "0");
  EXPECT_FALSE(readLastLevelCacheBytes(pathsIn(dir)).has_value());
}

TEST(HostCondition, NoisyWhenTheGpuClockMoved) {
  HostCondition host;
  host.gpu_sm_clock = GpuClockSamples{1980, 1980, 12};
  EXPECT_FALSE(noisyHost(host).has_value());
  host.gpu_sm_clock = GpuClockSamples{1410, 1980, 12};
  const auto reason = noisyHost(host);
  ASSERT_TRUE(reason && reason->gpu_clock);
  EXPECT_EQ(reason->gpu_clock->min_mhz, 1410);
  EXPECT_NE(reports::hostNoiseText(*reason).find("GPU SM clock between 1410 and 1980 MHz"), std::string::npos);
}

// Off NVIDIA, the sampler says why it has no clock and sampling is harmless.
TEST(HostCondition, GpuClockIsAbsentWithAReasonOffNvidia) {
  DeviceInfo cpu;
  cpu.vendor = "The pocl project";
  cpu.type = "CPU";
  GpuClockSampler sampler(cpu);
  sampler.sample();
  EXPECT_FALSE(sampler.samples().has_value());
  EXPECT_EQ(sampler.unavailableReason(), "not an NVIDIA GPU");
}
