#pragma once
// The course's "code mutilation" reading of one variant: from the times of the whole kernel (t), its
// memory-only mutant (t_mem) and its compute-only mutant (t_comp), what bounds it and what an
// optimisation could still win. Works on results records (JSON), so reports can recompute it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace rooflab {

// Margins of the verdict, as fractions of t. Named so the report can state them.
struct VerdictMargins {
  double near = 0.80;            // a mutant "takes about as long as the whole" when t_x >= near x t
  double sum_tolerance = 0.20;   // latency-bound: |t - (t_mem + t_comp)| <= sum_tolerance x t
  double min_kernel_ns_per_resolution = 20;  // under this many timer ticks, overhead dominates
  double min_kernel_ns = 10000;  // or under 10 us: launch ramp-up and tail dominate the kernel time
  double counter_tolerance = 0.05;  // a mutant's FLOPs / memory sectors within 5% of the original's
};

// `normal`, `memory_only` and `compute_only` are results records of one (family, variant, params).
// Either mutant may be null (not run or not annotated). Returns the "mutation" object of the
// normal record: verdict, times, impact estimates, validation of each mutant, margins, notes.
nlohmann::json analyseMutation(const nlohmann::json& normal, const nlohmann::json* memory_only,
                               const nlohmann::json* compute_only, double timer_resolution_ns,
                               const VerdictMargins& margins = {});

}  // namespace rooflab
