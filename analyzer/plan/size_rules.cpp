// A size rule's value on a device: the smallest round size that every studied variant accepts and
// that meets the rule's goals (waves, kernel time) within the device's memory.
#include "analyzer/plan/size_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

constexpr double kLargestCandidate = 9007199254740992.0;  // 2^53: every size above is not exact in a double
// A memory-bound family's buffers together are at least this many times the device's global-memory
// cache: streamed through a cache of a quarter of their size, at most a quarter of them can still be
// there when a repetition comes back to them (less with the cache's other tenants), so the run
// measures DRAM, not the cache, while the size stays within a few times the cache.

// What the studied variants make of one size.
struct SizeEvaluation {
  bool accepted = true;     // every variant at every point resolves
  std::string refusal;      // the first variant's reason when not
  double buffer_bytes = 0;  // the largest point's buffers
  double largest_buffer_bytes = 0;
  double fewest_work_groups = std::numeric_limits<double>::infinity();
  std::string fewest_variant;
  std::vector<double> work_groups;  // per variant: the fewest over the points
};

// Work-groups of the launch that has the most: what occupies the device.
double workGroups(const ResolvedPoint& point, std::size_t max_work_group_size) {
  double most = 0;
  for (const ResolvedLaunch& launch : point.launches) {
    double groups = 1;
    const LaunchGeometry& g = launch.geometry;
    if (g.local.size() == g.global.size()) {
      for (std::size_t i = 0; i < g.global.size(); ++i)
        groups *=
            std::ceil(static_cast<double>(g.global[i]) / static_cast<double>(std::max<std::int64_t>(g.local[i], 1)));
    } else {
      // The runtime chooses the local size: at most the device's largest work-group.
      double items = 1;
      for (std::int64_t global : g.global) items *= static_cast<double>(global);
      groups = std::ceil(items / static_cast<double>(std::max<std::size_t>(max_work_group_size, 1)));
    }
    most = std::max(most, groups);
  }
  return most;
}

ParamValues withSize(ParamValues params, const std::string& name, double value) {
  params[name] = value;
  return params;
}

SizeEvaluation evaluateSize(const SizeRuleStudy& study, double value, std::size_t max_work_group_size) {
  SizeEvaluation e;
  e.work_groups.assign(study.variants.size(), std::numeric_limits<double>::infinity());
  for (const ParamValues& base : study.points)
    for (std::size_t v = 0; v < study.variants.size(); ++v) {
      const RunPoint point{study.family, study.variants[v], withSize(base, study.rule->param, value), RunMode::normal};
      try {
        const ResolvedPoint r = resolvePoint(point);
        double total = 0;
        for (const ResolvedBuffer& b : r.buffers) {
          total += static_cast<double>(b.bytes);
          e.largest_buffer_bytes = std::max(e.largest_buffer_bytes, static_cast<double>(b.bytes));
        }
        e.buffer_bytes = std::max(e.buffer_bytes, total);
        const double groups = workGroups(r, max_work_group_size);
        e.work_groups[v] = std::min(e.work_groups[v], groups);
        if (groups < e.fewest_work_groups) {
          e.fewest_work_groups = groups;
          e.fewest_variant = study.variants[v]->name;
        }
      } catch (const std::exception& error) {
        if (e.accepted) e.refusal = "variant '" + study.variants[v]->name + "': " + error.what();
        e.accepted = false;
      }
    }
  return e;
}

// The buffers of every variant at every point: their bytes alone, so that a size whose geometry a
// variant refuses still has a size in memory.
double bufferBytesAt(const SizeRuleStudy& study, double value, double& largest) {
  double most = 0;
  for (const ParamValues& base : study.points) {
    const ParamValues params = withSize(base, study.rule->param, value);
    for (const VariantSpec* variant : study.variants) {
      double total = 0;
      auto add = [&](const BufferSpec& b, const ParamValues& values) {
        double bytes = std::numeric_limits<double>::infinity();
        try {
          bytes = static_cast<double>(b.count.count(values, true)) * static_cast<double>(b.type.bytes());
        } catch (const std::exception&) {
          // An expression that does not evaluate here: the size is refused for its geometry anyway.
          bytes = 0;
        }
        total += bytes;
        largest = std::max(largest, bytes);
      };
      for (const BufferSpec& b : study.family->buffers) add(b, params);
      ParamValues values;
      try {
        values = variantValues(*variant, params);
      } catch (const std::exception&) {
        values = params;
      }
      for (const BufferSpec& b : variant->scratch) add(b, values);
      most = std::max(most, total);
    }
  }
  return most;
}

bool fitsMemory(const SizeRuleStudy& study, double value, const SizeDevice& device) {
  double largest = 0;
  const double total = bufferBytesAt(study, value, largest);
  const bool alloc_ok = device.info.max_alloc_bytes == 0 || largest <= static_cast<double>(device.info.max_alloc_bytes);
  const bool total_ok = device.info.global_mem_bytes == 0 ||
                        total <= study.rule->memory_fraction * static_cast<double>(device.info.global_mem_bytes);
  return alloc_ok && total_ok;
}

// The device's roofs for the family's work: its compute peak (the [work] type's) and DRAM.
struct WorkRoofs {
  double peak_gflops = 0;
  double dram_gbps = 0;
};

std::optional<WorkRoofs> workRoofs(const SizeRuleStudy& study, const SizeDevice& device) {
  if (device.roofs == nullptr || device.roofs->dram_gbps <= 0) return std::nullopt;
  if (study.family->flops_unmeasured || study.family->bytes_unmeasured) return std::nullopt;  // nothing to estimate
  Arithmetic arithmetic = Arithmetic::fp32;
  try {
    arithmetic = resolvePoint(RunPoint{study.family, study.variants.front(), study.points.front(), RunMode::normal})
                     .work.arithmetic;
  } catch (const std::exception&) {
    // The defaults resolve for every variant (the manifest was checked with them); FP32 otherwise.
  }
  return WorkRoofs{device.roofs->computePeak(arithmetic).value_or(device.roofs->peak_gflops), device.roofs->dram_gbps};
}

// The kernel time the family's [work] takes at `value` at the roofs, the least over the points
// (every point must run well above a launch's latency).
double estimatedKernelSeconds(const SizeRuleStudy& study, double value, const WorkRoofs& roofs) {
  std::optional<double> least;
  for (const ParamValues& base : study.points) {
    const ParamValues params = withSize(base, study.rule->param, value);
    double seconds = 0;
    try {
      seconds = study.family->bytes.evaluate(params) / (roofs.dram_gbps * 1e9);
      if (roofs.peak_gflops > 0)
        seconds = std::max(seconds, study.family->flops.evaluate(params) / (roofs.peak_gflops * 1e9));
    } catch (const std::exception&) {
      seconds = 0;
    }
    least = least ? std::min(*least, seconds) : seconds;
  }
  return least.value_or(0);
}

// Whether the family's [work] at `value` is under the ridge of the roofs (memory-bound), at every point.
bool memoryBoundAt(const SizeRuleStudy& study, double value, const WorkRoofs& roofs) {
  if (roofs.peak_gflops <= 0) return true;
  for (const ParamValues& base : study.points) {
    const ParamValues params = withSize(base, study.rule->param, value);
    try {
      if (study.family->flops.evaluate(params) / roofs.peak_gflops >=
          study.family->bytes.evaluate(params) / roofs.dram_gbps)
        return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

// Whether `value` takes a memory-bound family past the device's cache (or the family is compute-bound
// there, where the cache does not decide its place).
bool pastCache(const SizeRuleStudy& study, double value, const WorkRoofs& roofs, std::uint64_t cache_bytes) {
  if (!memoryBoundAt(study, value, roofs)) return true;
  double largest = 0;
  return bufferBytesAt(study, value, largest) >= kSizeRulePastCacheFactor * static_cast<double>(cache_bytes);
}

// The first of candidates[0, past) that meets a goal met by every larger one; `past` when none does.
template <typename Goal>
std::size_t firstMeeting(std::size_t past, const Goal& met) {
  std::size_t first = 0;
  while (first < past) {
    const std::size_t middle = first + (past - first) / 2;
    if (met(middle)) past = middle;
    else first = middle + 1;
  }
  return first;
}

// The first accepted size at or after candidates[from], up to `last`; npos when none.
std::size_t firstAccepted(const SizeRuleStudy& study, const std::vector<double>& candidates, std::size_t from,
                          std::size_t last, std::size_t max_work_group_size) {
  for (std::size_t i = from; i <= last && i < candidates.size(); ++i)
    if (evaluateSize(study, candidates[i], max_work_group_size).accepted) return i;
  return std::string::npos;
}

// The sizes a rule's sweep runs: from sweep_from by sweep_factor, each rounded up to an accepted
// size, up to and with the chosen one.
std::vector<double> sweepValues(const SizeRuleStudy& study, const std::vector<double>& candidates, double chosen,
                                std::size_t max_work_group_size) {
  std::vector<double> values;
  const SizeRuleSpec& rule = *study.rule;
  // The config refuses a factor that needs more steps than this (config.cpp, kMostSweepSteps); a
  // results file read back is not checked again, so the loop keeps its own bound.
  constexpr int kMostSteps = 256;
  int steps = 0;
  if (rule.sweep_from && rule.sweep_factor > 1)
    for (double x = *rule.sweep_from; x < chosen && steps < kMostSteps; x *= rule.sweep_factor, ++steps) {
      const auto from = std::lower_bound(candidates.begin(), candidates.end(), x) - candidates.begin();
      const auto last = std::lower_bound(candidates.begin(), candidates.end(), chosen) - candidates.begin();
      const std::size_t at = firstAccepted(study, candidates, static_cast<std::size_t>(from),
                                           static_cast<std::size_t>(last), max_work_group_size);
      if (at != std::string::npos && candidates[at] < chosen &&
          std::find(values.begin(), values.end(), candidates[at]) == values.end())
        values.push_back(candidates[at]);
    }
  values.push_back(chosen);
  return values;
}

// The first candidate (up to top + 1: none) where the kernel time, and a memory-bound family's
// buffers, reach their goals; cache_decides when the buffers' goal is the later one.
struct GoalsMet {
  std::size_t from = 0;
  bool cache_decides = false;
};

GoalsMet firstMeetingGoals(const SizeRuleStudy& study, const SizeDevice& device, const std::vector<double>& candidates,
                           std::size_t top, const WorkRoofs& roofs) {
  const SizeRuleSpec& rule = *study.rule;
  GoalsMet goals;
  goals.from = firstMeeting(top + 1, [&](std::size_t i) {
    return estimatedKernelSeconds(study, candidates[i], roofs) * 1e6 >= rule.min_kernel_us;
  });
  const std::uint64_t cache = device.info.global_mem_cache_bytes;
  const std::size_t cache_from =
      cache == 0 ? 0
                 : firstMeeting(top + 1, [&](std::size_t i) { return pastCache(study, candidates[i], roofs, cache); });
  goals.cache_decides = cache_from > goals.from;
  goals.from = std::max(goals.from, cache_from);
  return goals;
}

// The first accepted candidate in [from, top] where every variant has the work-groups it needs, or
// as many as it has at top; top when none has.
std::size_t firstWithWaves(const SizeRuleStudy& study, const std::vector<double>& candidates, std::size_t from,
                           std::size_t top, std::size_t max_wg, double work_groups_needed,
                           const SizeEvaluation& at_top) {
  for (std::size_t i = from; i <= top; ++i) {
    const SizeEvaluation e = evaluateSize(study, candidates[i], max_wg);
    bool waves = e.accepted;
    for (std::size_t v = 0; waves && v < study.variants.size(); ++v)
      waves = e.work_groups[v] >= std::min(work_groups_needed, at_top.work_groups[v]);
    if (waves) return i;
  }
  return top;
}

}  // namespace

std::vector<double> sizeCandidates(double low, double high) {
  std::vector<double> sizes;
  auto add = [&](double value) {
    if (value >= low && value <= high) sizes.push_back(value);
  };
  add(1), add(2), add(3);
  for (double power = 1; power * 4 <= std::min(high, kLargestCandidate); power *= 2)
    for (double multiple : {4.0, 5.0, 6.0, 7.0}) add(multiple * power);
  return sizes;
}

std::string sizeRuleProblem(const SizeRuleStudy& study) {
  const SizeRuleSpec& rule = *study.rule;
  std::vector<double> candidates = sizeCandidates(rule.min.value_or(1), rule.max.value_or(kLargestCandidate));
  if (candidates.empty())
    return "no round size lies within min = " + formatNumber(rule.min.value_or(1)) +
           " and max = " + formatNumber(rule.max.value_or(kLargestCandidate));
  // Nearest to the family's default first: it resolves for every variant, so a size near it is
  // likely to.
  const double fallback = study.family->params.count(rule.param) ? study.family->params.at(rule.param) : 1024;
  const double anchor = std::log(std::max(fallback, 1.0));
  std::stable_sort(candidates.begin(), candidates.end(), [&](double a, double b) {
    return std::fabs(std::log(a) - anchor) < std::fabs(std::log(b) - anchor);
  });
  std::string first_refusal;
  for (double value : candidates) {
    const SizeEvaluation e = evaluateSize(study, value, 0);
    if (e.accepted) return "";
    if (first_refusal.empty()) first_refusal = e.refusal;
  }
  return "no size within the rule's bounds suits every studied variant (at " + formatNumber(candidates.front()) + ": " +
         first_refusal + ")";
}

SizeChoice chooseRuleSize(const SizeRuleStudy& study, const SizeDevice& device) {
  const SizeRuleSpec& rule = *study.rule;
  const std::size_t max_wg = device.info.max_work_group_size;
  const std::vector<double> candidates = sizeCandidates(rule.min.value_or(1), rule.max.value_or(kLargestCandidate));
  const std::string at = rule.where.str() + ": study '" + study.family->name + "': " + rule.param + " = \"fill\"";
  // The largest size whose buffers fit (memory grows with the size): a binary search.
  std::size_t fitting = 0;
  for (std::size_t step = std::size_t{1} << 12; step > 0; step /= 2)
    if (fitting + step < candidates.size() && fitsMemory(study, candidates[fitting + step], device)) fitting += step;
  if (candidates.empty() || !fitsMemory(study, candidates[fitting], device))
    throw InputError(at + ": no size within the rule's bounds fits the memory of " + device.info.name);
  const bool held_by_max = fitting + 1 == candidates.size() && rule.max.has_value();
  // The largest accepted size that fits: what each variant's work-groups can grow to.
  std::size_t top = fitting;
  while (top != std::string::npos && !evaluateSize(study, candidates[top], max_wg).accepted)
    top = top == 0 ? std::string::npos : top - 1;
  if (top == std::string::npos)
    throw InputError(at + ": no size up to " + formatNumber(candidates[fitting]) +
                     ", the most that fits the memory of " + device.info.name + ", suits every studied variant");
  const SizeEvaluation at_top = evaluateSize(study, candidates[top], max_wg);

  SizeChoice c;
  c.family = study.family->name;
  c.study_index = study.study_index;
  c.rule = rule;
  c.compute_units = device.info.compute_units;
  c.work_groups_needed = std::ceil(rule.waves * std::max<std::uint32_t>(device.info.compute_units, 1));
  c.roofs = device.roofs ? device.roofs_name : "";
  c.work_unmeasured = study.family->flops_unmeasured || study.family->bytes_unmeasured;
  c.max_alloc_bytes = device.info.max_alloc_bytes;

  // The kernel time and a memory-bound family's buffers grow with the size: the first candidate
  // where each reaches its goal.
  const std::optional<WorkRoofs> roofs = workRoofs(study, device);
  const GoalsMet goals = roofs ? firstMeetingGoals(study, device, candidates, top, *roofs) : GoalsMet{};
  const std::size_t time_from = goals.from;
  const bool cache_decides = goals.cache_decides;
  const bool time_reached = time_from <= top;
  const std::size_t first = firstAccepted(study, candidates, 0, top, max_wg);
  std::size_t chosen = top;
  if (time_reached) {
    const std::size_t from = std::max(time_from, first);
    chosen = firstWithWaves(study, candidates, from, top, max_wg, c.work_groups_needed, at_top);
    const std::size_t first_from = firstAccepted(study, candidates, from, top, max_wg);
    c.limited_by = chosen != first_from ? SizeLimit::waves
                   : time_from > first  ? (cache_decides ? SizeLimit::cache : SizeLimit::kernel_time)
                                        : SizeLimit::smallest;
  } else {
    c.limited_by = held_by_max ? SizeLimit::max : SizeLimit::memory;
  }
  c.value = candidates[chosen];
  const SizeEvaluation e = evaluateSize(study, c.value, max_wg);
  if (std::isfinite(e.fewest_work_groups)) {
    c.fewest_work_groups = e.fewest_work_groups;
    c.fewest_variant = e.fewest_variant;
  }
  c.buffer_bytes = e.buffer_bytes;
  c.largest_buffer_bytes = e.largest_buffer_bytes;
  if (roofs) c.estimated_kernel_us = estimatedKernelSeconds(study, c.value, *roofs) * 1e6;
  if (roofs && device.info.global_mem_cache_bytes > 0 && memoryBoundAt(study, c.value, *roofs))
    c.cache_bytes = device.info.global_mem_cache_bytes;
  c.values = sweepValues(study, candidates, c.value, max_wg);
  return c;
}

}  // namespace rooflab
