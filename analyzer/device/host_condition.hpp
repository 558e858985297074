#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "analyzer/data/host_condition.hpp"

namespace rooflab {

// Where the readers look; tests point them at files of their own.
struct HostPaths {
  std::filesystem::path governor = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor";
  std::filesystem::path loadavg = "/proc/loadavg";
  std::filesystem::path online_cpus = "/sys/devices/system/cpu/online";
  std::filesystem::path cpu0_caches = "/sys/devices/system/cpu/cpu0/cache";
};

// Core count from `online_cpus` (a list such as "0-3,8-11"), else from sysconf when reading the
// real host.
HostCondition readHostCondition(const HostPaths& paths = {});

// The number of CPUs in a sysfs CPU list ("0-3,8-11" has 8); absent when it does not parse.
std::optional<unsigned> countCpuList(const std::string& list);

struct HostNoiseLimits {
  double max_load_per_core = 0.5;      // 1-minute load average per online core
  double max_gpu_clock_spread = 0.05;  // (max - min) / max of the sampled SM clock
};

// Why timings taken now may be noisy, or nothing when the readings show no reason: a load average
// above the limit (other processes share the cores), a CPU governor other than "performance"
// (clocks change under the measurement; google/benchmark warns of "CPU scaling" the same way), or a
// GPU SM clock that moved by more than the limit during the batch.
std::optional<HostNoise> noisyHost(const HostCondition& host, const HostNoiseLimits& limits = {});

// The host CPU's last-level cache in bytes, summed over its instances (an L3 per chiplet or per
// socket): the size of the highest-level data or unified cache under `cpu0_caches`
// (index*/level, type, size, shared_cpu_list) times the online CPUs over the CPUs sharing it.
// Absent where sysfs does not describe the caches (some virtual machines).
std::optional<std::uint64_t> readLastLevelCacheBytes(const HostPaths& paths = {});

}  // namespace rooflab
