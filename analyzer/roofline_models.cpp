#include "analyzer/roofline_models.hpp"

#include <cmath>

#include "analyzer/errors.hpp"
#include "analyzer/results_json.hpp"
#include "analyzer/roofline.hpp"

namespace rooflab {

RooflineModels prepareRooflineModels(const RunSettings& settings, const SelectedDevice& device, std::ostream& log) {
  const std::vector<DeviceModel> models = loadDeviceModels();
  auto reference = findDeviceModel(models, settings.reference_model);
  if (!reference)
    throw InputError("reference_model '" + settings.reference_model + "' not found in " +
                     defaultDeviceModelDir().string());
  RooflineModels out{*reference, std::nullopt, matchDeviceModel(device.info, models), std::nullopt};
  if (settings.ceilings == "measure") {
    CeilingsOptions options;
    options.datasheet = out.datasheet;
    out.ceilings = measureCeilings(device, options);
    log << formatCeilingsReport(*out.ceilings, out.datasheet);
    if (out.ceilings->model) {
      out.device = out.ceilings->model;
      out.device->key = "device";
    }
  }
  if (!out.device && out.datasheet) {
    out.device = out.datasheet;
    out.device->key = "device";
  }
  return out;
}

ResultsModels resultsModels(const RooflineModels& models) {
  ResultsModels out;
  out.roofline_models[models.reference.key] = {models.reference, RooflineModelRole::reference};
  if (models.device)
    out.roofline_models["device"] = {*models.device, models.ceilings && models.ceilings->model
                                                         ? RooflineModelRole::measured
                                                         : RooflineModelRole::datasheet};
  if (models.datasheet) out.roofline_models["datasheet"] = {*models.datasheet, RooflineModelRole::datasheet};
  out.ceilings = models.ceilings;
  return out;
}

namespace {
void placeOn(RunRecord& record, const DeviceModel& model, const std::string& key, bool timed_on_model_device) {
  RooflineInput input;
  input.flops = record.work.flops;
  input.dram_bytes = record.work.bytes;
  if (record.timings) input.kernel_ns = record.timings->kernel_ns.median;
  if (record.work.local_accesses) input.local_bytes = *record.work.local_accesses * 4.0;
  input.timed_on_model_device = timed_on_model_device;
  record.roofline[key] = placeOnRoofline(model, input);

  // The course's CGMA placement: the traffic the variant's code asks of global memory, which moves
  // right rung by rung as tiling reuses data, where the compulsory bytes stay the family's.
  if (const auto global_bytes = record.work.globalBytes()) {
    RooflineInput global = input;
    global.dram_bytes = *global_bytes;
    global.level = MemoryLevel::global;
    record.roofline[levelPlacementKey(key, MemoryLevel::global)] = placeOnRoofline(model, global);
  }

  // Counters' intensity beside the analytic one: the FLOPs and DRAM bytes the hardware saw.
  const counters::CounterSet& c = record.counters;
  if (!c.available) return;
  const auto flops = c.derived.find("fp32_flops"), dram_bytes = c.derived.find("dram_bytes");
  // A value the results would write as null (not finite) is no measurement.
  auto measuredValue = [&](auto found) { return found != c.derived.end() && found->second && std::isfinite(*found->second); };
  if (!measuredValue(flops) || !measuredValue(dram_bytes)) return;
  RooflineInput measured = input;
  measured.flops = *flops->second;
  measured.dram_bytes = *dram_bytes->second;
  measured.intensity_source = IntensitySource::counters;
  record.roofline[key + "_counters"] = placeOnRoofline(model, measured);
}
}  // namespace

void placeRecord(RunRecord& record, const RooflineModels& models) {
  placeOn(record, models.reference, models.reference.key, models.datasheet && models.datasheet->key == models.reference.key);
  if (models.device) placeOn(record, *models.device, "device", true);
  if (models.datasheet) placeOn(record, *models.datasheet, "datasheet", true);
}

}  // namespace rooflab
