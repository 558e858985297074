#include "analyzer/diagnose/hot_line.hpp"

namespace rooflab {

std::optional<HotLine> hotLineOf(const LineSampling& sampling) {
  if (!sampling.available) return std::nullopt;
  std::int64_t attributed = 0;
  const LineSamples* hottest = nullptr;
  for (const LineSamples& line : sampling.lines) {
    if (line.samples <= 0) continue;
    attributed += line.samples;
    if (hottest == nullptr || line.samples > hottest->samples) hottest = &line;
  }
  if (hottest == nullptr || attributed < kHotLineMinSamples) return std::nullopt;
  const double share = static_cast<double>(hottest->samples) / static_cast<double>(attributed);
  if (share < kHotLineMinShare) return std::nullopt;
  const StallReasonSamples* dominant = nullptr;
  for (const StallReasonSamples& stall : hottest->stalls)
    if (dominant == nullptr || stall.samples > dominant->samples) dominant = &stall;
  if (dominant == nullptr || dominant->samples <= 0) return std::nullopt;
  const std::optional<HotLineCause> cause = causeOfStall(dominant->reason);
  if (!cause) return std::nullopt;
  HotLine hot;
  hot.where = hottest->where;
  hot.samples = hottest->samples;
  hot.attributed_samples = attributed;
  hot.share_of_samples = share;
  hot.stall_reason = dominant->reason;
  hot.stall_samples = dominant->samples;
  hot.cause = *cause;
  return hot;
}

}  // namespace rooflab
