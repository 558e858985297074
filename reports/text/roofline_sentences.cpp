#include "reports/text/roofline_sentences.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string percent(double fraction) { return formatFixed(fraction * 100.0, 1) + "%"; }

std::string mebibytes(double bytes) { return formatFixed(bytes / (1024.0 * 1024.0), 1) + " MiB"; }

std::string modelName(const PlacementReason& reason) { return "'" + reason.model_key.value_or("") + "'"; }

std::string joined(const std::string& joined_so_far, const std::string& next) {
  return joined_so_far + (joined_so_far.empty() ? "" : "; ") + next;
}

std::string aboveRoofCauseText(const AboveRoofCause& cause) {
  switch (cause.kind) {
    case AboveRoofCauseKind::timed_on_other_device: return "timed on another device than this model describes";
    case AboveRoofCauseKind::working_set_in_cache:
      return "the working set (" + mebibytes(cause.working_set_bytes.value_or(0)) + ") fits in the " +
             mebibytes(cause.cache_bytes.value_or(0)) + " cache: repetitions read it from cache, not DRAM";
    case AboveRoofCauseKind::counters_saw_less_dram:
      return "the counters saw " + mebibytes(cause.counter_dram_bytes.value_or(0)) + " of DRAM traffic, below the " +
             mebibytes(cause.compulsory_bytes.value_or(0)) + " compulsory: part of the data came from cache";
    case AboveRoofCauseKind::median_near_timer_resolution:
      return "the median time (" + formatFixed(cause.median_ns.value_or(0), 1) + " ns) is within " +
             formatFixed(cause.margin.value_or(0), 1) + "x of the timer resolution (" +
             formatFixed(cause.timer_resolution_ns.value_or(0), 0) + " ns)";
  }
  return toString(cause.kind);
}

}  // namespace

std::string placementReasonText(const PlacementReason& reason) {
  switch (reason.kind) {
    case PlacementReasonKind::no_level_bandwidth:
      return "model " + modelName(reason) + " has no " + (reason.level ? toString(*reason.level) : "") +
             " bandwidth: no roof at this level";
    case PlacementReasonKind::no_arithmetic_peak:
      return "model " + modelName(reason) + " has no " + (reason.arithmetic ? toString(*reason.arithmetic) : "") +
             " peak: no roof for this work";
    case PlacementReasonKind::invalid_work: return "flops or bytes are negative or not finite";
    case PlacementReasonKind::no_work: return "no work declared: flops and bytes are both 0";
    case PlacementReasonKind::no_dram_bytes:
      return "no DRAM bytes: intensity is undefined, the work sits on the compute roof";
    case PlacementReasonKind::no_local_bandwidth:
      return "local roof: model " + modelName(reason) + " has no local_gbps";
    case PlacementReasonKind::no_flops_under_local_roof: return "local roof: no flops to place under it";
    case PlacementReasonKind::kernel_time_invalid: return "kernel time is 0 or invalid: no achieved rate";
    case PlacementReasonKind::not_timed: return "not timed: no achieved rate";
    case PlacementReasonKind::fraction_is_bandwidth:
      return "no flops: fraction_of_roof is achieved DRAM bandwidth over the model's";
    case PlacementReasonKind::timed_on_other_device:
      return "timed on another device: bound is the roof that limits this work on " + modelName(reason) +
             ", by intensity";
    case PlacementReasonKind::local_memory_bound:
      return "local-memory bandwidth: the local roof (" + formatFixed(reason.local_roof_gflops.value_or(0), 1) +
             " GFLOP/s) is below the DRAM roofline and the kernel reaches " +
             percent(reason.reached_fraction.value_or(0)) + " of it";
    case PlacementReasonKind::below_bound_margin:
      return "reaches " + percent(reason.reached_fraction.value_or(0)) + " of the roof, under the " +
             percent(reason.margin_fraction.value_or(0)) +
             " that marks a saturated resource: latency, too little parallelism or launch overhead";
  }
  return toString(reason.kind);
}

std::optional<std::string> placementReasonsText(const RooflinePlacement& placement) {
  if (placement.reason_as_saved) return placement.reason_as_saved;
  if (placement.reasons.empty()) return std::nullopt;
  std::string text;
  for (const PlacementReason& reason : placement.reasons) text = joined(text, placementReasonText(reason));
  return text;
}

std::string aboveRoofText(const AboveRoof& above) {
  if (above.text_as_saved) return *above.text_as_saved;
  const std::string opening = "above its roof (" + percent(above.fraction_of_roof) + "): ";
  if (above.causes.empty())
    return opening + "no cause rooflab can tell; the roof's figure itself is the suspect (a datasheet value, or a "
                     "ceilings run that missed the peak)";
  std::string causes;
  for (const AboveRoofCause& cause : above.causes) causes = joined(causes, aboveRoofCauseText(cause));
  return opening + causes;
}

}  // namespace rooflab::reports
