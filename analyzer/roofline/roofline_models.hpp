#pragma once
// The models a run places its records on, and how the results file lists them.
#include <cstdint>
#include <optional>

#include "analyzer/data/ceilings_report.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/results_document.hpp"

namespace rooflab {

// The models a run places its records on, under the keys records and reports use:
//   <reference key> (gtx670)  the course's reference device
//   "device"                   the device that ran, as measured by the ceilings at the start of the
//                              run (or its datasheet model when ceilings are off)
//   "datasheet"                the datasheet model matched to the device, when there is one
struct RooflineModels {
  DeviceModel reference;
  std::optional<DeviceModel> device;
  std::optional<DeviceModel> datasheet;
  std::optional<CeilingsReport> ceilings;
  // The device that ran, for telling why a point stands above its roof: its cache and timer.
  std::uint64_t device_cache_bytes = 0;   // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
  std::uint64_t timer_resolution_ns = 0;  // CL_DEVICE_PROFILING_TIMER_RESOLUTION
};

// What the results file says about the models: each under its key, with its role.
ResultsModels resultsModels(const RooflineModels& models);

}  // namespace rooflab
