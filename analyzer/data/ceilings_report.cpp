#include "analyzer/data/ceilings_report.hpp"

namespace rooflab {

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
