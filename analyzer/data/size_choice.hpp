#pragma once
// What a size rule (data/batch_config.hpp, SizeRuleSpec) chose on the device that ran, and why:
// printed when the run starts, kept in the results (docs/results-schema.md, "size_choices") and
// shown in the report. Types only; plan/size_rules.hpp chooses.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/batch_config.hpp"

namespace rooflab {

// The bound that decided the value: the smallest size that meets the waves and the kernel time,
// or a limit that held it lower.
enum class SizeLimit {
  waves,        // the work-groups for `waves` waves on every compute unit
  kernel_time,  // the estimated kernel time at the device's roofs
  cache,        // a memory-bound family's buffers past the device's global-memory cache
  smallest,     // the smallest size every variant accepts (both goals met below it) or the rule's min
  memory,       // the allocation limit or the share of global memory: the goals were not reached
  max,          // the rule's max: the goals were not reached
};
std::string toString(SizeLimit limit);  // "waves", "kernel_time", "cache", "smallest", "memory", "max"
std::optional<SizeLimit> parseSizeLimit(const std::string& text);

// Where a family is memory-bound at the roofs, its buffers take at least this many times the device's
// global-memory cache, so that the cache does not serve what DRAM should.
constexpr double kSizeRulePastCacheFactor = 4;

struct SizeChoice {
  std::string family;
  std::size_t study_index = 0;  // into the config's studies
  SizeRuleSpec rule;
  double value = 0;            // the size that fills the device
  std::vector<double> values;  // what the study runs: `value`, or the sweep up to it
  SizeLimit limited_by = SizeLimit::smallest;
  // The inputs of the decision, for the report.
  std::uint32_t compute_units = 0;
  double work_groups_needed = 0;             // waves x compute units
  std::optional<double> fewest_work_groups;  // the studied variant with the fewest, at `value`
  std::string fewest_variant;
  std::optional<double> estimated_kernel_us;  // [work] at the roofs; absent without roofs
  std::string roofs;                          // which roofs: "measured", "datasheet", or "" (none known)
  // The family's [work] flops or bytes is "unmeasured": no kernel time is estimated, the waves goal
  // decides alone.
  bool work_unmeasured = false;
  double buffer_bytes = 0;  // the largest point's buffers at `value`
  double largest_buffer_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, where the family is memory-bound at the roofs and its buffers were
  // sized past it; 0 where that goal did not apply (compute-bound, no roofs, cache size unknown).
  std::uint64_t cache_bytes = 0;
  // The choice as a file of an older rooflab wrote it (one sentence); the figures above are then what
  // it was written from.
  std::optional<std::string> why_as_saved;
};

// How the batch says a choice (reports::sizeChoiceText), from the command line as analyzer/ writes
// no sentence.
using SizeChoiceText = std::function<std::string(const SizeChoice&)>;

}  // namespace rooflab
