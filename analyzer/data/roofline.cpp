// The roofline's names, as results files spell them.
#include "analyzer/data/roofline.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<RooflineBound> kRooflineBoundNames[] = {
    {RooflineBound::memory, "memory"},
    {RooflineBound::compute, "compute"},
    {RooflineBound::latency, "latency"},
    {RooflineBound::unknown, "unknown"},
};

std::string toString(RooflineBound bound) { return nameOf(kRooflineBoundNames, bound); }

constexpr EnumName<IntensitySource> kIntensitySourceNames[] = {
    {IntensitySource::analytic, "analytic"},
    {IntensitySource::counters, "counters"},
};

std::string toString(IntensitySource source) { return nameOf(kIntensitySourceNames, source); }

constexpr EnumName<UnplacedReason> kUnplacedReasonNames[] = {
    {UnplacedReason::work_not_measured, "work not measured"},
};

std::string toString(UnplacedReason reason) { return nameOf(kUnplacedReasonNames, reason); }
std::optional<UnplacedReason> parseUnplacedReason(std::string_view text) { return valueOf(kUnplacedReasonNames, text); }

constexpr EnumName<PlacementReasonKind> kPlacementReasonKindNames[] = {
    {PlacementReasonKind::no_level_bandwidth, "no_level_bandwidth"},
    {PlacementReasonKind::no_arithmetic_peak, "no_arithmetic_peak"},
    {PlacementReasonKind::invalid_work, "invalid_work"},
    {PlacementReasonKind::no_work, "no_work"},
    {PlacementReasonKind::no_dram_bytes, "no_dram_bytes"},
    {PlacementReasonKind::no_local_bandwidth, "no_local_bandwidth"},
    {PlacementReasonKind::no_flops_under_local_roof, "no_flops_under_local_roof"},
    {PlacementReasonKind::kernel_time_invalid, "kernel_time_invalid"},
    {PlacementReasonKind::not_timed, "not_timed"},
    {PlacementReasonKind::fraction_is_bandwidth, "fraction_is_bandwidth"},
    {PlacementReasonKind::timed_on_other_device, "timed_on_other_device"},
    {PlacementReasonKind::local_memory_bound, "local_memory_bound"},
    {PlacementReasonKind::below_bound_margin, "below_bound_margin"},
};

std::string toString(PlacementReasonKind kind) { return nameOf(kPlacementReasonKindNames, kind); }
std::optional<PlacementReasonKind> parsePlacementReasonKind(std::string_view text) {
  return valueOf(kPlacementReasonKindNames, text);
}

constexpr EnumName<AboveRoofCauseKind> kAboveRoofCauseKindNames[] = {
    {AboveRoofCauseKind::timed_on_other_device, "timed_on_other_device"},
    {AboveRoofCauseKind::working_set_in_cache, "working_set_in_cache"},
    {AboveRoofCauseKind::counters_saw_less_dram, "counters_saw_less_dram"},
    {AboveRoofCauseKind::median_near_timer_resolution, "median_near_timer_resolution"},
};

std::string toString(AboveRoofCauseKind kind) { return nameOf(kAboveRoofCauseKindNames, kind); }
std::optional<AboveRoofCauseKind> parseAboveRoofCauseKind(std::string_view text) {
  return valueOf(kAboveRoofCauseKindNames, text);
}

constexpr EnumName<MemoryLevel> kMemoryLevelNames[] = {
    {MemoryLevel::dram, "dram"}, {MemoryLevel::global, "global"}, {MemoryLevel::l1, "l1"},
    {MemoryLevel::l2, "l2"},     {MemoryLevel::local, "local"},
};

std::string toString(MemoryLevel level) { return nameOf(kMemoryLevelNames, level); }

std::optional<MemoryLevel> parseMemoryLevel(std::string_view text) { return valueOf(kMemoryLevelNames, text); }

constexpr EnumName<Arithmetic> kArithmeticNames[] = {
    {Arithmetic::fp32, "fp32"},
    {Arithmetic::fp64, "fp64"},
    {Arithmetic::int32, "int32"},
};

std::string toString(Arithmetic arithmetic) { return nameOf(kArithmeticNames, arithmetic); }

std::optional<Arithmetic> parseArithmetic(std::string_view text) { return valueOf(kArithmeticNames, text); }

std::string levelPlacementKey(const std::string& model_key, MemoryLevel level) {
  return level == MemoryLevel::dram ? model_key : model_key + "_" + toString(level);
}

std::optional<RooflineBound> parseRooflineBound(std::string_view text) { return valueOf(kRooflineBoundNames, text); }

std::optional<IntensitySource> parseIntensitySource(std::string_view text) {
  return valueOf(kIntensitySourceNames, text);
}

}  // namespace rooflab
