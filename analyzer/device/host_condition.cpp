#include "analyzer/device/host_condition.hpp"

#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

namespace rooflab {
namespace {

std::optional<std::string> firstLine(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
  if (line.empty()) return std::nullopt;
  return line;
}

std::optional<unsigned long long> parseUnsigned(std::string_view text) {
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A sysfs cache size: "32K", "1024K", "32M" (binary units), or a plain byte count.
std::optional<std::uint64_t> parseCacheSize(std::string text) {
  std::uint64_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
      case 'k':
        scale = 1024;
        text.pop_back();
        break;
      case 'M':
      case 'm':
        scale = 1024 * 1024;
        text.pop_back();
        break;
      case 'G':
      case 'g':
        scale = 1024ull * 1024 * 1024;
        text.pop_back();
        break;
      default: break;
    }
  }
  const auto value = parseUnsigned(text);
  if (!value || *value == 0) return std::nullopt;
  return *value * scale;
}

}  // namespace

std::optional<unsigned> countCpuList(const std::string& list) {
  unsigned count = 0;
  std::stringstream ranges(list);
  std::string range;
  while (std::getline(ranges, range, ',')) {
    if (range.empty()) return std::nullopt;
    const std::size_t dash = range.find('-');
    const auto first = parseUnsigned(std::string_view(range).substr(0, dash));
    const auto last = dash == std::string::npos ? first : parseUnsigned(std::string_view(range).substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    count += static_cast<unsigned>(*last - *first + 1);
  }
  if (count == 0) return std::nullopt;
  return count;
}

HostCondition readHostCondition(const HostPaths& paths) {
  HostCondition host;
  host.cpu_governor = firstLine(paths.governor);
  if (const auto loadavg = firstLine(paths.loadavg)) {
    const std::string first = loadavg->substr(0, loadavg->find(' '));
    double value = 0;
    const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), value);
    if (error == std::errc() && end == first.data() + first.size() && value >= 0) host.load_average_1min = value;
  }
  if (const auto online = firstLine(paths.online_cpus)) host.core_count = countCpuList(*online);
  if (!host.core_count && paths.online_cpus == HostPaths{}.online_cpus) {
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0) host.core_count = static_cast<unsigned>(online);
  }
  return host;
}

std::optional<HostNoise> noisyHost(const HostCondition& host, const HostNoiseLimits& limits) {
  HostNoise noise;
  if (host.load_average_1min && host.core_count && *host.core_count > 0) {
    const double per_core = *host.load_average_1min / double(*host.core_count);
    if (per_core > limits.max_load_per_core)
      noise.load = HostLoadNoise{*host.load_average_1min, *host.core_count, per_core, limits.max_load_per_core};
  }
  if (host.cpu_governor && *host.cpu_governor != "performance") noise.cpu_governor = host.cpu_governor;
  if (const auto& clock = host.gpu_sm_clock; clock && clock->max_mhz > 0) {
    const double spread = (clock->max_mhz - clock->min_mhz) / clock->max_mhz;
    if (spread > limits.max_gpu_clock_spread)
      noise.gpu_clock = GpuClockNoise{clock->min_mhz, clock->max_mhz, spread, limits.max_gpu_clock_spread};
  }
  if (!noise.load && !noise.cpu_governor && !noise.gpu_clock) return std::nullopt;
  return noise;
}

std::optional<std::uint64_t> readLastLevelCacheBytes(const HostPaths& paths) {
  std::error_code ec;
  if (!std::filesystem::is_directory(paths.cpu0_caches, ec)) return std::nullopt;
  unsigned best_level = 0;
  std::uint64_t best_bytes = 0;
  std::optional<unsigned> best_sharers;
  for (const auto& entry : std::filesystem::directory_iterator(paths.cpu0_caches, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    const auto type = firstLine(entry.path() / "type");
    const auto level_text = firstLine(entry.path() / "level");
    const auto size_text = firstLine(entry.path() / "size");
    if (!type || *type == "Instruction" || !level_text || !size_text) continue;
    const auto level = parseUnsigned(*level_text);
    const auto bytes = parseCacheSize(*size_text);
    if (!level || !bytes) continue;
    if (*level > best_level || (*level == best_level && *bytes > best_bytes)) {
      best_level = static_cast<unsigned>(*level);
      best_bytes = *bytes;
      const auto shared = firstLine(entry.path() / "shared_cpu_list");
      best_sharers = shared ? countCpuList(*shared) : std::nullopt;
    }
  }
  if (best_bytes == 0) return std::nullopt;
  // One instance serves best_sharers CPUs; the online CPUs hold ceil(online / sharers) of them.
  const std::optional<unsigned> online = readHostCondition(paths).core_count;
  std::uint64_t instances = 1;
  if (online && best_sharers && *best_sharers > 0) instances = (*online + *best_sharers - 1) / *best_sharers;
  return best_bytes * instances;
}

}  // namespace rooflab
