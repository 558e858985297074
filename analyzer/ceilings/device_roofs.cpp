// The roofs a run places its records on: the reference model, and the device's own, measured at the
// start of the run or taken from its datasheet.
#include "analyzer/ceilings/device_roofs.hpp"

#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

RooflineModels prepareRooflineModels(const RunSettings& settings, const SelectedDevice& device, std::ostream& log,
                                     const CeilingsWords& words, const std::vector<Arithmetic>& typed_peaks,
                                     bool warp_issue_rate, bool link_and_launch) {
  const std::vector<DeviceModel> models = loadDeviceModels();
  auto reference = findDeviceModel(models, settings.reference_model);
  if (!reference)
    throw InputError("reference_model '" + settings.reference_model + "' not found in " +
                     defaultDeviceModelDir().string());
  RooflineModels out{*reference, std::nullopt, matchDeviceModel(device.info, models), std::nullopt};
  out.device_cache_bytes = device.info.global_mem_cache_bytes;
  out.timer_resolution_ns = device.info.timer_resolution_ns;
  if (settings.ceilings == CeilingsSource::measure) {
    CeilingsOptions options;
    options.datasheet = out.datasheet;
    options.typed_peaks = typed_peaks;
    options.warp_issue_rate = warp_issue_rate;
    options.link_and_launch = link_and_launch;
    options.roof_source = words.roof_source;
    out.ceilings = measureCeilings(device, options);
    if (words.table) log << words.table(*out.ceilings, out.datasheet);
    if (out.ceilings->model) {
      out.device = out.ceilings->model;
      out.device->key = "device";
    }
  }
  // Datasheet roofs, but a study runs end to end: its predictions need the link and the launch,
  // which no datasheet gives.
  if (settings.ceilings == CeilingsSource::datasheet && link_and_launch) {
    CeilingsOptions options;
    options.roofs = false;
    options.link_and_launch = true;
    out.ceilings = measureCeilings(device, options);
    if (words.table) log << words.table(*out.ceilings, out.datasheet);
  }
  if (!out.device && out.datasheet) {
    out.device = out.datasheet;
    out.device->key = "device";
  }
  return out;
}

}  // namespace rooflab
