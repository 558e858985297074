#include "analyzer/place/roof_excess.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rooflab {

std::optional<AboveRoof> explainAboveRoof(const RunRecord& record, const RooflinePlacement& placement,
                                          const RoofExcessContext& context) {
  if (!placement.fraction_of_roof || !(*placement.fraction_of_roof > 1.0)) return std::nullopt;
  AboveRoof above{*placement.fraction_of_roof, {}, std::nullopt};
  std::vector<AboveRoofCause>& causes = above.causes;
  if (!context.timed_on_model_device) causes.push_back(AboveRoofCause{AboveRoofCauseKind::timed_on_other_device});
  // Cache effects only lift points placed by DRAM-side bytes.
  const bool dram_side = placement.level == MemoryLevel::dram || placement.level == MemoryLevel::global;
  const double cache_bytes =
      static_cast<double>(std::max<std::uint64_t>(context.device_cache_bytes, context.model_cache_bytes.value_or(0)));
  if (dram_side && cache_bytes > 0 && record.work.bytes > 0 && record.work.bytes <= cache_bytes) {
    AboveRoofCause cause{AboveRoofCauseKind::working_set_in_cache};
    cause.working_set_bytes = record.work.bytes;
    cause.cache_bytes = cache_bytes;
    causes.push_back(cause);
  }
  if (dram_side && record.counters.available) {
    const auto dram = record.counters.derived.find("dram_bytes");
    if (dram != record.counters.derived.end() && dram->second && *dram->second < 0.95 * record.work.bytes) {
      AboveRoofCause cause{AboveRoofCauseKind::counters_saw_less_dram};
      cause.counter_dram_bytes = *dram->second;
      cause.compulsory_bytes = record.work.bytes;
      causes.push_back(cause);
    }
  }
  const std::optional<double> median_ns = record.medianKernelNs();
  if (median_ns && context.timer_resolution_ns > 0 &&
      *median_ns < kTimerResolutionMargin * static_cast<double>(context.timer_resolution_ns)) {
    AboveRoofCause cause{AboveRoofCauseKind::median_near_timer_resolution};
    cause.median_ns = *median_ns;
    cause.timer_resolution_ns = static_cast<double>(context.timer_resolution_ns);
    cause.margin = kTimerResolutionMargin;
    causes.push_back(cause);
  }
  return above;
}

}  // namespace rooflab
