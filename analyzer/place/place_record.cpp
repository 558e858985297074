// A record placed on every roofline model and memory level.
#include "analyzer/place/place_record.hpp"

#include <cmath>

#include "analyzer/place/roof_excess.hpp"
#include "analyzer/roofline/roofline.hpp"

namespace rooflab {

namespace {

// A counters' derived value the results would write as a number (a null is no measurement).
std::optional<double> measured(const counters::CounterSet& c, const char* name) {
  const auto found = c.derived.find(name);
  if (!c.available || found == c.derived.end() || !found->second || !std::isfinite(*found->second)) return std::nullopt;
  return *found->second;
}

void placeOn(RunRecord& record, const DeviceModel& model, const std::string& key, bool timed_on_model_device) {
  RooflineInput input;
  input.flops = record.work.flops;
  input.dram_bytes = record.work.bytes;
  if (record.timings) input.kernel_ns = record.timings->kernel_ns.median;
  if (record.work.local_accesses) input.local_bytes = *record.work.local_accesses * 4.0;
  input.timed_on_model_device = timed_on_model_device;
  input.arithmetic = record.work.arithmetic;
  record.roofline[key] = placeOnRoofline(model, input);

  // One placement per further memory level, each against that level's roof: the hierarchical
  // roofline. `bytes` are the level's traffic; the flops stay the same work.
  auto placeLevel = [&](MemoryLevel level, double flops, double bytes, IntensitySource source) {
    RooflineInput at_level = input;
    at_level.flops = flops;
    at_level.dram_bytes = bytes;
    at_level.local_bytes.reset();
    at_level.level = level;
    at_level.intensity_source = source;
    record.roofline[levelPlacementKey(key, level)] = placeOnRoofline(model, at_level);
  };
  // The course's CGMA placement: the traffic the variant's code asks of global memory, which moves
  // right rung by rung as tiling reuses data, where the compulsory bytes stay the family's.
  if (const auto global_bytes = record.work.globalBytes())
    placeLevel(MemoryLevel::global, input.flops, *global_bytes, IntensitySource::analytic);

  // The levels the hardware saw, with the FLOPs it counted; the declared local accesses where no
  // counter measured shared memory.
  const counters::CounterSet& c = record.counters;
  const std::optional<double> counted_flops = measured(c, "fp32_flops");
  if (counted_flops) {
    if (const auto bytes = measured(c, "l1_global_bytes")) placeLevel(MemoryLevel::l1, *counted_flops, *bytes, IntensitySource::counters);
    if (const auto bytes = measured(c, "l2_bytes")) placeLevel(MemoryLevel::l2, *counted_flops, *bytes, IntensitySource::counters);
  }
  const std::optional<double> shared_bytes = measured(c, "shared_bytes");
  if (counted_flops && shared_bytes && *shared_bytes > 0)
    placeLevel(MemoryLevel::local, *counted_flops, *shared_bytes, IntensitySource::counters);
  else if (input.local_bytes && *input.local_bytes > 0)
    placeLevel(MemoryLevel::local, input.flops, *input.local_bytes, IntensitySource::analytic);

  // Counters' DRAM intensity beside the analytic one: the FLOPs and DRAM bytes the hardware saw.
  const std::optional<double> dram_bytes = measured(c, "dram_bytes");
  if (!counted_flops || !dram_bytes) return;
  RooflineInput counted = input;
  counted.flops = *counted_flops;
  counted.dram_bytes = *dram_bytes;
  counted.intensity_source = IntensitySource::counters;
  record.roofline[key + "_counters"] = placeOnRoofline(model, counted);
}
}  // namespace

void placeRecord(RunRecord& record, const RooflineModels& models) {
  const bool reference_is_device = models.datasheet && models.datasheet->key == models.reference.key;
  placeOn(record, models.reference, models.reference.key, reference_is_device);
  if (models.device) placeOn(record, *models.device, "device", true);
  if (models.datasheet) placeOn(record, *models.datasheet, "datasheet", true);
  for (auto& [key, placement] : record.roofline) {
    const bool on_reference = key.rfind(models.reference.key, 0) == 0 && key.rfind("device", 0) != 0 &&
                              key.rfind("datasheet", 0) != 0;
    const DeviceModel& model = on_reference ? models.reference
                               : key.rfind("datasheet", 0) == 0 && models.datasheet ? *models.datasheet
                               : models.device ? *models.device : models.reference;
    RoofExcessContext context{models.device_cache_bytes, model.last_level_cache_bytes, models.timer_resolution_ns,
                              !on_reference || reference_is_device};
    placement.above_roof = explainAboveRoof(record, placement, context);
  }
}

}  // namespace rooflab
