// The measured device model `rooflab ceilings` writes: each roof from its best benchmark, with a
// source that says how it was measured and how noisy it was.
#include <optional>
#include <string>

#include "analyzer/ceilings/ceilings_kinds.hpp"

namespace rooflab::ceiling_bench {
std::string measuredRoofSourceOr(const RoofSourceText& roof_source, const CeilingsReport& report, const char* key) {
  return roof_source ? roof_source(report, key) : "rooflab ceilings " + report.measured_at;
}

std::optional<DeviceModel> measuredModel(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet,
                                         const RoofSourceText& roof_source) {
  const CeilingBenchmark* dram = report.dramCeiling();
  if (!report.fp32_fma.best_rate || !dram) return std::nullopt;
  const DeviceInfo& info = report.device;
  DeviceModel model;
  model.key = "measured";
  model.display_name = info.name + " (measured)";
  model.match_names = {info.name};
  model.measured = MeasurementStamp{report.measured_at, info.name, info.driver_version};
  auto measured = [&](const char* key) { model.sources[key] = measuredRoofSourceOr(roof_source, report, key); };
  model.peak_gflops = *report.fp32_fma.best_rate;
  measured("peak_gflops");
  model.dram_gbps = *dram->best_rate;
  measured("dram_gbps");
  if (report.local_read.best_rate) {
    model.local_gbps = *report.local_read.best_rate;
    measured("local_gbps");
  }
  struct OptionalRoof {
    const std::optional<CeilingBenchmark>& benchmark;
    std::optional<double> DeviceModel::*roof;
    const char* key;
  };
  for (const OptionalRoof& optional :
       {OptionalRoof{report.l2_read, &DeviceModel::l2_gbps, "l2_gbps"},
        OptionalRoof{report.fp64_fma, &DeviceModel::fp64_gflops, "fp64_gflops"},
        OptionalRoof{report.int32_mad, &DeviceModel::int32_gops, "int32_gops"},
        OptionalRoof{report.warp_issue, &DeviceModel::warp_issue_gips, "warp_issue_gips"}})
    if (optional.benchmark && optional.benchmark->best_rate) {
      model.*optional.roof = *optional.benchmark->best_rate;
      measured(optional.key);
    }
  addLinkRoofs(report, model, roof_source);
  if (info.local_mem_bytes > 0) {
    model.local_mem_bytes = info.local_mem_bytes;
    model.sources["local_mem_bytes"] = "CL_DEVICE_LOCAL_MEM_SIZE (what one work-group may use)";
  }
  if (info.compute_units > 0) {
    model.compute_units = info.compute_units;
    model.sources["compute_units"] = "CL_DEVICE_MAX_COMPUTE_UNITS";
  }
  if (info.clock_mhz > 0) {
    model.clock_mhz = info.clock_mhz;
    model.sources["clock_mhz"] = "CL_DEVICE_MAX_CLOCK_FREQUENCY";
  }
  if (datasheet && datasheet->last_level_cache_bytes) {
    model.last_level_cache_bytes = datasheet->last_level_cache_bytes;
    auto source = datasheet->sources.find("last_level_cache_bytes");
    model.sources["last_level_cache_bytes"] =
        "datasheet model " + datasheet->key + (source != datasheet->sources.end() ? ": " + source->second : "");
  }
  model.notes = "Measured by `rooflab ceilings` on " + info.name + " (" + info.platform + ", driver " +
                info.driver_version + ").";
  return model;
}

}  // namespace rooflab::ceiling_bench
