#include "analyzer/data/ceilings_report.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<CacheSizeSource> kCacheSizeSourceNames[] = {
    {CacheSizeSource::none, "none"},
    {CacheSizeSource::device, "device"},
    {CacheSizeSource::datasheet, "datasheet"},
    {CacheSizeSource::host_sysfs, "host-sysfs"},
    {CacheSizeSource::host_cpuinfo, "host-cpuinfo"},
};

std::string toString(CacheSizeSource source) { return nameOf(kCacheSizeSourceNames, source); }
std::optional<CacheSizeSource> parseCacheSizeSource(std::string_view text) {
  return valueOf(kCacheSizeSourceNames, text);
}

const CeilingBenchmark* CeilingsReport::dramCeiling() const {
  const CeilingBenchmark* best = nullptr;
  for (const CeilingBenchmark* benchmark : {&dram_copy, &dram_read, dram_write ? &*dram_write : nullptr})
    if (benchmark && benchmark->best_rate && (!best || *benchmark->best_rate > *best->best_rate)) best = benchmark;
  return best;
}

bool CeilingsReport::complete() const {
  for (const CeilingBenchmark* benchmark : benchmarks())
    if (!benchmark->best_rate) return false;
  return model.has_value();
}

}  // namespace rooflab
