#include "analyzer/place/roof_excess.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace rooflab {
namespace {

// One decimal, independent of the C++ locale (the text ends up in JSON and reports).
std::string oneDecimal(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
  return std::string(buffer, result.ptr);
}

std::string mebibytes(double bytes) { return oneDecimal(bytes / (1024.0 * 1024.0)) + " MiB"; }

}  // namespace

std::optional<std::string> explainAboveRoof(const RunRecord& record, const RooflinePlacement& placement,
                                            const RoofExcessContext& context) {
  if (!placement.fraction_of_roof || !(*placement.fraction_of_roof > 1.0)) return std::nullopt;
  std::vector<std::string> causes;
  if (!context.timed_on_model_device) causes.push_back("timed on another device than this model describes");
  // Cache effects only lift points placed by DRAM-side bytes.
  const bool dram_side = placement.level == MemoryLevel::dram || placement.level == MemoryLevel::global;
  const double cache_bytes =
      static_cast<double>(std::max<std::uint64_t>(context.device_cache_bytes, context.model_cache_bytes.value_or(0)));
  if (dram_side && cache_bytes > 0 && record.work.bytes > 0 && record.work.bytes <= cache_bytes)
    causes.push_back("the working set (" + mebibytes(record.work.bytes) + ") fits in the " + mebibytes(cache_bytes) +
                     " cache: repetitions read it from cache, not DRAM");
  if (dram_side && record.counters.available) {
    const auto dram = record.counters.derived.find("dram_bytes");
    if (dram != record.counters.derived.end() && dram->second && *dram->second < 0.95 * record.work.bytes)
      causes.push_back("the counters saw " + mebibytes(*dram->second) + " of DRAM traffic, below the " +
                       mebibytes(record.work.bytes) + " compulsory: part of the data came from cache");
  }
  const std::optional<double> median_ns = record.medianKernelNs();
  if (median_ns && context.timer_resolution_ns > 0 &&
      *median_ns < kTimerResolutionMargin * static_cast<double>(context.timer_resolution_ns))
    causes.push_back("the median time (" + oneDecimal(*median_ns) + " ns) is within " +
                     oneDecimal(kTimerResolutionMargin) + "x of the timer resolution (" +
                     std::to_string(context.timer_resolution_ns) + " ns)");
  std::string text = "above its roof (" + oneDecimal(*placement.fraction_of_roof * 100.0) + "%): ";
  if (causes.empty())
    return text + "no cause rooflab can tell; the roof's figure itself is the suspect (a datasheet value, or a "
                  "ceilings run that missed the peak)";
  for (std::size_t i = 0; i < causes.size(); ++i) text += (i ? "; " : "") + causes[i];
  return text;
}

}  // namespace rooflab
