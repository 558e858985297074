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

// The work the hardware counted, and the roof it stands under: FP32 FLOPs, or the integer instructions
// of a kernel without floating-point work (declared in integers, or declaring FP32 work of which the
// counters saw none), placed under the int32 roof whatever the manifest says.
struct CountedWork {
  double amount = 0;
  Arithmetic arithmetic = Arithmetic::fp32;
};

std::optional<CountedWork> countedWork(const RunRecord& record) {
  const counters::CounterSet& c = record.counters;
  const std::optional<double> flops = measured(c, "fp32_flops");
  const std::optional<double> integer_ops = measured(c, "integer_ops");
  const bool no_fp32 = !flops || *flops <= 0;
  if (record.work.arithmetic != Arithmetic::fp64 && integer_ops && *integer_ops > 0 &&
      (record.work.arithmetic == Arithmetic::int32 || no_fp32))
    return CountedWork{*integer_ops, Arithmetic::int32};
  if (flops) return CountedWork{*flops, record.work.arithmetic};
  return std::nullopt;
}

// A placement that the record's declared work cannot make: work declared "unmeasured" has no
// intensity, so no position; the model's ridge stays, for the reader's scale.
RooflinePlacement unplaced(const DeviceModel& model, MemoryLevel level) {
  RooflinePlacement placement;
  placement.level = level;
  placement.ridge_intensity = model.ridgeIntensity();
  placement.unplaced = UnplacedReason::work_not_measured;
  return placement;
}

using Placements = std::map<std::string, RooflinePlacement>;

void placeOn(const RunRecord& record, Placements& placements, const DeviceModel& model, const std::string& key,
             bool timed_on_model_device) {
  const WorkEstimate& declared_work = record.work;
  if (declared_work.flops_unmeasured || declared_work.bytes_unmeasured)
    placements[key] = unplaced(model, MemoryLevel::dram);
  if (declared_work.global_accesses_unmeasured || (declared_work.flops_unmeasured && declared_work.global_accesses))
    placements[levelPlacementKey(key, MemoryLevel::global)] = unplaced(model, MemoryLevel::global);
  if (declared_work.flops_unmeasured && declared_work.local_accesses)
    placements[levelPlacementKey(key, MemoryLevel::local)] = unplaced(model, MemoryLevel::local);
  RooflineInput input;
  input.flops = record.work.flops;
  input.dram_bytes = record.work.bytes;
  if (record.timings) input.kernel_ns = record.timings->kernel_ns.median;
  if (record.work.local_accesses) input.local_bytes = *record.work.local_accesses * 4.0;
  input.timed_on_model_device = timed_on_model_device;
  input.arithmetic = record.work.arithmetic;
  if (!placements.count(key)) placements[key] = placeOnRoofline(model, input);

  // One placement per further memory level, each against that level's roof: the hierarchical
  // roofline. `bytes` are the level's traffic; the flops stay the same work.
  // The roof a placement of counted work stands under, said on it where the manifest declares another.
  auto underCountedRoof = [&](RooflinePlacement placement, Arithmetic arithmetic) {
    if (arithmetic != record.work.arithmetic) placement.arithmetic = arithmetic;
    return placement;
  };
  auto placeLevel = [&](MemoryLevel level, double flops, double bytes, IntensitySource source, Arithmetic arithmetic) {
    RooflineInput at_level = input;
    at_level.flops = flops;
    at_level.dram_bytes = bytes;
    at_level.local_bytes.reset();
    at_level.level = level;
    at_level.intensity_source = source;
    at_level.arithmetic = arithmetic;
    placements[levelPlacementKey(key, level)] = underCountedRoof(placeOnRoofline(model, at_level), arithmetic);
  };
  // The course's CGMA placement: the traffic the variant's code asks of global memory, which moves
  // right rung by rung as tiling reuses data, where the compulsory bytes stay the family's.
  const Arithmetic declared = input.arithmetic;
  const bool flops_known = !declared_work.flops_unmeasured;
  if (const auto global_bytes = record.work.globalBytes(); global_bytes && flops_known)
    placeLevel(MemoryLevel::global, input.flops, *global_bytes, IntensitySource::analytic, declared);

  // The levels the hardware saw, with the work it counted; the declared local accesses where no
  // counter measured shared memory.
  const counters::CounterSet& c = record.counters;
  const std::optional<CountedWork> work = countedWork(record);
  if (work) {
    if (const auto bytes = measured(c, "l1_global_bytes"))
      placeLevel(MemoryLevel::l1, work->amount, *bytes, IntensitySource::counters, work->arithmetic);
    if (const auto bytes = measured(c, "l2_bytes"))
      placeLevel(MemoryLevel::l2, work->amount, *bytes, IntensitySource::counters, work->arithmetic);
  }
  const std::optional<double> shared_bytes = measured(c, "shared_bytes");
  if (work && shared_bytes && *shared_bytes > 0)
    placeLevel(MemoryLevel::local, work->amount, *shared_bytes, IntensitySource::counters, work->arithmetic);
  else if (input.local_bytes && *input.local_bytes > 0 && flops_known)
    placeLevel(MemoryLevel::local, input.flops, *input.local_bytes, IntensitySource::analytic, declared);

  // Counters' DRAM intensity beside the analytic one: the work and DRAM bytes the hardware saw.
  const std::optional<double> dram_bytes = measured(c, "dram_bytes");
  if (!work || !dram_bytes) return;
  RooflineInput counted = input;
  counted.flops = work->amount;
  counted.dram_bytes = *dram_bytes;
  counted.intensity_source = IntensitySource::counters;
  counted.arithmetic = work->arithmetic;
  placements[key + "_counters"] = underCountedRoof(placeOnRoofline(model, counted), work->arithmetic);
}
}  // namespace

std::map<std::string, RooflinePlacement> placeRecord(const RunRecord& record, const RooflineModels& models) {
  Placements placements;
  const bool reference_is_device = models.datasheet && models.datasheet->key == models.reference.key;
  placeOn(record, placements, models.reference, models.reference.key, reference_is_device);
  if (models.device) placeOn(record, placements, *models.device, "device", true);
  if (models.datasheet) placeOn(record, placements, *models.datasheet, "datasheet", true);
  for (auto& [key, placement] : placements) {
    const bool on_reference =
        key.rfind(models.reference.key, 0) == 0 && key.rfind("device", 0) != 0 && key.rfind("datasheet", 0) != 0;
    const DeviceModel& model = on_reference                                         ? models.reference
                               : key.rfind("datasheet", 0) == 0 && models.datasheet ? *models.datasheet
                               : models.device                                      ? *models.device
                                                                                    : models.reference;
    RoofExcessContext context{models.device_cache_bytes, model.last_level_cache_bytes, models.timer_resolution_ns,
                              !on_reference || reference_is_device};
    placement.above_roof = explainAboveRoof(record, placement, context);
  }
  return placements;
}

}  // namespace rooflab
