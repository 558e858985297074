#include "reports/text/size_choice_text.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

// Three significant digits, as printf's %.3g wrote them when the plan wrote this sentence.
std::string choiceBytesText(double bytes) {
  if (bytes >= 1e9) return formatGeneral(bytes / 1e9, 3) + " GB";
  if (bytes >= 1e6) return formatGeneral(bytes / 1e6, 3) + " MB";
  return formatGeneral(bytes / 1e3, 3) + " kB";
}

std::string choiceMicrosecondsText(double us) {
  if (us >= 1000) return formatGeneral(us / 1000, 3) + " ms";
  return formatGeneral(us, 3) + " µs";
}

}  // namespace

std::string sizeChoiceText(const SizeChoice& c) {
  if (c.why_as_saved) return *c.why_as_saved;
  std::string text = c.rule.param + " = " + formatNumber(c.value) + " (size rule \"fill\"): ";
  text += "waves: " + formatNumber(c.rule.waves) + " x " + std::to_string(c.compute_units) +
          " compute units = " + formatNumber(c.work_groups_needed) + " work-groups";
  if (c.fewest_work_groups)
    text += " (" + c.fewest_variant + " has the fewest: " + formatNumber(*c.fewest_work_groups) + ")";
  text += "; kernel time: ";
  text += c.estimated_kernel_us ? choiceMicrosecondsText(*c.estimated_kernel_us) + " at the " + c.roofs +
                                      " roofs (at least " + choiceMicrosecondsText(c.rule.min_kernel_us) + ")"
          : c.work_unmeasured ? "not estimated (the family's work is not measured: the waves goal alone)"
                              : "not estimated (no roofs known for this device)";
  text += "; buffers " + choiceBytesText(c.buffer_bytes) + ", the largest " + choiceBytesText(c.largest_buffer_bytes) +
          " (max allocation " + choiceBytesText(static_cast<double>(c.max_alloc_bytes)) + ")";
  if (c.cache_bytes > 0)
    text += "; past the cache: memory-bound at the roofs, so the buffers take at least " +
            formatNumber(kSizeRulePastCacheFactor) + " x the device's " +
            choiceBytesText(static_cast<double>(c.cache_bytes)) + " global-memory cache";
  switch (c.limited_by) {
    case SizeLimit::waves: text += "; decided by the waves"; break;
    case SizeLimit::kernel_time: text += "; decided by the kernel time"; break;
    case SizeLimit::cache: text += "; decided by the cache"; break;
    case SizeLimit::smallest: text += "; both met at the smallest size every variant accepts"; break;
    case SizeLimit::memory: text += "; held lower by the device's memory: the goals are not met"; break;
    case SizeLimit::max: text += "; held at the rule's max: the goals are not met"; break;
  }
  if (c.values.size() > 1) {
    text += "; swept over";
    for (double v : c.values) text += " " + formatNumber(v);
  }
  return text;
}

}  // namespace rooflab::reports
