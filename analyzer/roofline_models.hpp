#pragma once
#include <optional>
#include <ostream>

#include "analyzer/ceilings.hpp"
#include "analyzer/config.hpp"
#include "analyzer/device.hpp"
#include "analyzer/device_model.hpp"
#include "analyzer/results_document.hpp"
#include "analyzer/run_record.hpp"

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

// Throws InputError when the reference model does not exist. `typed_peaks`: the compute roofs
// beside FP32 that the studied families' work needs (their [work] type), measured with the others.
RooflineModels prepareRooflineModels(const RunSettings& settings, const SelectedDevice& device, std::ostream& log,
                                     const std::vector<Arithmetic>& typed_peaks = {});
// What the results file says about the models: each under its key, with its role.
ResultsModels resultsModels(const RooflineModels& models);

// Fills record.roofline with one placement per model (analytic intensity at the compulsory DRAM
// bytes), one per model with the counters' intensity (key "<model>_counters") when counters measured
// FLOPs and DRAM bytes, and one per further memory level (levelPlacementKey): global (declared
// accesses), l1 and l2 (counters), local (counters' shared bytes, else the declared local accesses).
// Local-memory accesses are counted as 4-byte words.
void placeRecord(RunRecord& record, const RooflineModels& models);

}  // namespace rooflab
