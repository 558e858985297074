#pragma once
// A kernel's place on a roofline model, as typed values: the bounds, intensity sources, memory levels
// and the placement itself. roofline/roofline.hpp computes placements.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// What limits a kernel on one model (docs/results-schema.md, "bound").
enum class RooflineBound { memory, compute, latency, unknown };
// Where the flops and bytes of a placement came from.
enum class IntensitySource { analytic, counters };
// The memory level whose bytes a placement divides the flops by. dram: the family's compulsory
// bytes (or the counters' DRAM bytes); global: the variant's declared global accesses x element
// bytes, the course's CGMA in FLOP per byte; l1, l2: the bytes the caches served (counters); local:
// local (shared) memory bytes. A kernel's time is bounded by every level at once, so each has a
// placement and a roof.
enum class MemoryLevel { dram, global, l1, l2, local };
// The type a family's work computes in (docs/manifest.md, [work] type): which compute roof bounds
// it. fp32 is the model's peak_gflops, fp64 its fp64_gflops, int32 its int32_gops (a multiply-add
// counting 2 operations, as a flop does).
enum class Arithmetic { fp32, fp64, int32 };
// Why a record has no position on a model: work_not_measured, the work the placement needs (flops,
// the level's bytes) was declared "unmeasured" in its manifest (docs/manifest.md).
enum class UnplacedReason { work_not_measured };

std::string toString(RooflineBound bound);
std::string toString(IntensitySource source);
std::string toString(MemoryLevel level);
std::optional<MemoryLevel> parseMemoryLevel(std::string_view text);
std::string toString(Arithmetic arithmetic);
std::optional<Arithmetic> parseArithmetic(std::string_view text);
// The key of a record's placement on `model_key` at `level`: "<model>" for the compulsory DRAM
// level (as before levels existed), "<model>_<level>" otherwise ("gtx670_global", "device_l2").
std::string levelPlacementKey(const std::string& model_key, MemoryLevel level);
std::optional<RooflineBound> parseRooflineBound(std::string_view text);
std::optional<IntensitySource> parseIntensitySource(std::string_view text);
std::string toString(UnplacedReason reason);
std::optional<UnplacedReason> parseUnplacedReason(std::string_view text);

// A kernel that reaches at least this fraction of the roof at its intensity is said to be bound by
// that roof (DRAM bandwidth left of the ridge, arithmetic right of it). Datasheet roofs are seldom
// reached (a good streaming kernel gets 80-90% of DRAM bandwidth, a good GEMM 70-90% of the FMA
// peak), so the margin is generous: at half the roof one resource is still clearly the main limit.
// Below it neither resource is saturated and the time goes to latency: too little parallelism,
// dependent loads, synchronisation or launch overhead. The same margin applies to the local roof.
inline constexpr double kRoofBoundFraction = 0.5;

struct RooflineInput {
  double flops = 0;
  double dram_bytes = 0;  // bytes moved at `level` (DRAM bytes for the dram level)
  // Median kernel time on the device that ran; nullopt when the variant did not run.
  std::optional<double> kernel_ns;
  // Local-memory accesses x element size, when the variant declares local_accesses.
  std::optional<double> local_bytes;
  IntensitySource intensity_source = IntensitySource::analytic;
  MemoryLevel level = MemoryLevel::dram;
  // Which compute roof bounds the work: the model's FP32, FP64 or int32 peak.
  Arithmetic arithmetic = Arithmetic::fp32;
  // False when the timing was taken on another device than the model describes (the GTX 670
  // reference model for a run on an H100 or a CPU). Achieved rates and fractions are still reported,
  // but the bound is then the roof that limits this work on the model, decided by intensity alone:
  // "latency" would only say the device that ran is slower than the model.
  bool timed_on_model_device = true;
};

// Why a placement's fields are null, or what decided its bound (docs/results-schema.md, "reasons").
enum class PlacementReasonKind {
  no_level_bandwidth,         // the model has no bandwidth at the placement's level: no roof there
  no_arithmetic_peak,         // the model has no peak for the work's type (FP64, int32)
  invalid_work,               // flops or bytes negative or not finite
  no_work,                    // flops and bytes both 0
  no_dram_bytes,              // intensity undefined: the work sits on the compute roof
  no_local_bandwidth,         // the model has no local_gbps: no local roof
  no_flops_under_local_roof,  // local bytes but no flops: nothing to place under the local roof
  kernel_time_invalid,        // a kernel time of 0 or not finite: no achieved rate
  not_timed,                  // no kernel time: no achieved rate
  fraction_is_bandwidth,      // no flops: fraction_of_roof is achieved DRAM bandwidth over the model's
  timed_on_other_device,      // the bound is the model's roof for this work, by intensity alone
  local_memory_bound,         // the local roof is below the roofline and reached
  below_bound_margin,         // the roof reached by less than the margin: latency
};
std::string toString(PlacementReasonKind kind);
std::optional<PlacementReasonKind> parsePlacementReasonKind(std::string_view text);

// One reason, with the figures and names its finding needs (the others absent).
struct PlacementReason {
  PlacementReasonKind kind = PlacementReasonKind::not_timed;
  std::optional<std::string>
      model_key;  // no_level_bandwidth, no_arithmetic_peak, no_local_bandwidth, timed_on_other_device
  std::optional<MemoryLevel> level;         // no_level_bandwidth
  std::optional<Arithmetic> arithmetic;     // no_arithmetic_peak
  std::optional<double> local_roof_gflops;  // local_memory_bound
  std::optional<double> reached_fraction;   // local_memory_bound: of the local roof; below_bound_margin: of the roof
  std::optional<double> margin_fraction;    // below_bound_margin: kRoofBoundFraction
};

// Why a point stands above its roof, as far as rooflab can tell (analyzer/place/roof_excess.hpp).
enum class AboveRoofCauseKind {
  timed_on_other_device,         // the run was timed on another device than the model describes
  working_set_in_cache,          // the working set fits in the cache: repetitions read it from there
  counters_saw_less_dram,        // the counters saw fewer DRAM bytes than the compulsory ones
  median_near_timer_resolution,  // the median is within the margin of the timer's resolution
};
std::string toString(AboveRoofCauseKind kind);
std::optional<AboveRoofCauseKind> parseAboveRoofCauseKind(std::string_view text);

struct AboveRoofCause {
  AboveRoofCauseKind kind = AboveRoofCauseKind::timed_on_other_device;
  std::optional<double> working_set_bytes;    // working_set_in_cache
  std::optional<double> cache_bytes;          // working_set_in_cache
  std::optional<double> counter_dram_bytes;   // counters_saw_less_dram
  std::optional<double> compulsory_bytes;     // counters_saw_less_dram
  std::optional<double> median_ns;            // median_near_timer_resolution
  std::optional<double> timer_resolution_ns;  // median_near_timer_resolution
  std::optional<double> margin;               // median_near_timer_resolution: kTimerResolutionMargin
};

// A point above its roof: by how much, and why. No cause: none rooflab can tell (the roof's own
// figure is then the suspect).
struct AboveRoof {
  double fraction_of_roof = 0;
  std::vector<AboveRoofCause> causes;
  // The sentence a schema-1 results file saved instead: reports show it as written.
  std::optional<std::string> text_as_saved;
};

// One record's place on one model's roofline; nullopt fields are JSON null, explained in `reasons`.
struct RooflinePlacement {
  std::optional<double> intensity;  // FLOP per byte of `level`; nullopt when its bytes are 0
  IntensitySource intensity_source = IntensitySource::analytic;
  MemoryLevel level = MemoryLevel::dram;
  std::optional<double> achieved_gflops;    // flops / kernel time
  std::optional<double> attainable_gflops;  // min(peak, intensity x dram bandwidth)
  // achieved / attainable; can exceed 1 when the run's device is faster than the model. For work
  // without flops (a copy, a transpose) the flop roof is 0, and the fraction is the limit of the
  // same ratio: achieved DRAM bandwidth over the model's.
  std::optional<double> fraction_of_roof;
  double ridge_intensity = 0;  // peak / dram bandwidth
  RooflineBound bound = RooflineBound::unknown;
  // max(flops / peak, dram_bytes / bandwidth): the time the work would need at this model's roof,
  // i.e. on the reference model "the time it would need on a GTX 670".
  std::optional<std::int64_t> time_at_roof_ns;
  // flops / (local_bytes / local_gbps): the roof set by local-memory bandwidth.
  std::optional<double> local_roof_gflops;
  std::vector<PlacementReason> reasons;  // why fields are null, and what decided the bound
  // The reasons as one sentence, as a schema-1 results file saved them: reports show it as written.
  std::optional<std::string> reason_as_saved;
  // Set when the point stands above its roof (fraction_of_roof > 1): what rooflab can tell of why
  // (analyzer/place/roof_excess.hpp). Absent otherwise, and in results written before it existed.
  std::optional<AboveRoof> above_roof;
  // The compute roof this placement stands under where it is not that of the record's declared work:
  // int32 for integer work the counters counted in a kernel declared (or defaulting) to FP32, whose
  // FLOPs they found none of. Absent otherwise.
  std::optional<Arithmetic> arithmetic;
  // Set when the record is not placed on this model at all (intensity, rates, fraction and time at
  // roof null, bound unknown): a chart draws no marker for it, and reports say why. Absent in
  // results written before it existed.
  std::optional<UnplacedReason> unplaced;
};

}  // namespace rooflab
