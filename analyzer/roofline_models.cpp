#include "analyzer/roofline_models.hpp"

#include "analyzer/errors.hpp"
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

nlohmann::json toJson(const RooflineModels& models) {
  nlohmann::json out = nlohmann::json::object();
  out[models.reference.key] = toJson(models.reference);
  out[models.reference.key]["role"] = "reference";
  if (models.device) {
    out["device"] = toJson(*models.device);
    out["device"]["role"] = models.ceilings && models.ceilings->model ? "measured" : "datasheet";
  }
  if (models.datasheet) {
    out["datasheet"] = toJson(*models.datasheet);
    out["datasheet"]["role"] = "datasheet";
  }
  if (models.ceilings) out["ceilings"] = toJson(*models.ceilings);
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
  record.roofline[key] = toJson(placeOnRoofline(model, input));

  // Counters' intensity beside the analytic one: the FLOPs and DRAM bytes the hardware saw.
  const nlohmann::json& c = record.counters;
  if (c.is_object() && c.value("available", false) && c.contains("derived")) {
    const nlohmann::json& d = c["derived"];
    if (d.contains("fp32_flops") && d["fp32_flops"].is_number() && d.contains("dram_bytes") && d["dram_bytes"].is_number()) {
      RooflineInput measured = input;
      measured.flops = d["fp32_flops"].get<double>();
      measured.dram_bytes = d["dram_bytes"].get<double>();
      measured.intensity_source = IntensitySource::counters;
      record.roofline[key + "_counters"] = toJson(placeOnRoofline(model, measured));
    }
  }
}
}  // namespace

void placeRecord(RunRecord& record, const RooflineModels& models) {
  placeOn(record, models.reference, models.reference.key, models.datasheet && models.datasheet->key == models.reference.key);
  if (models.device) placeOn(record, *models.device, "device", true);
  if (models.datasheet) placeOn(record, *models.datasheet, "datasheet", true);
}

}  // namespace rooflab
