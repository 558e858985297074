#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/config.hpp"
#include "analyzer/expression.hpp"
#include "analyzer/stats.hpp"

namespace rooflab {

// One repetition of a variant (all its launches), in device nanoseconds. queued/submit/start/end
// are offsets from the first timed repetition's queued time, so records stay readable.
struct RepetitionTiming {
  std::int64_t queued_ns = 0;
  std::int64_t submit_ns = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t kernel_ns = 0;           // sum of the launches' start-to-end
  std::int64_t span_ns = 0;             // first start to last end (equals kernel_ns for one launch)
  std::int64_t launch_overhead_ns = 0;  // first launch's queued-to-start
};

struct EventTimings {
  int warmup = 0;
  std::vector<RepetitionTiming> repetitions;
  SampleSummary kernel_ns;
  SampleSummary launch_overhead_ns;
  bool cut_short = false;  // the time limit or an interrupt stopped the repetitions early
};

struct LaunchGeometry {
  std::string kernel;
  std::vector<std::int64_t> global;
  std::vector<std::int64_t> local;  // empty: chosen by the runtime
};

struct WorkEstimate {
  double flops = 0;
  double bytes = 0;
  std::optional<double> global_accesses;
  std::optional<double> local_accesses;
  std::optional<double> cgma() const;  // flops / global_accesses, when both are known and accesses > 0
};

struct VerificationResult {
  std::string status = "not_checked";  // passed | failed | reference | not_checked | skipped
  std::string reference;
  std::optional<double> rel_l2_error;
  std::size_t wrong_elements = 0;
  std::size_t non_finite = 0;
  double tolerance = 0;
  std::string detail;
};

// Everything measured for one (family, variant, params, mode) point. Reporters read the JSON form.
struct RunRecord {
  std::string family;
  std::string variant;
  RunMode mode = RunMode::normal;
  ParamValues params;
  std::vector<std::string> param_order;
  std::string status = "ok";  // ok | error | skipped
  std::string error;
  std::string build_options;
  double build_seconds = 0;
  std::string build_log;
  std::vector<LaunchGeometry> geometry;
  WorkEstimate work;
  std::optional<EventTimings> timings;
  VerificationResult verification;
  nlohmann::json counters;  // filled by the counters module, or {available:false, reason}
  nlohmann::json roofline = nlohmann::json::object();
  nlohmann::json mutation;  // null until mutation analysis runs
  // Mutants only: the original's and the mutant's resources per launch, and any padding (runner.cpp).
  nlohmann::json occupancy_padding;
  // Wall-clock seconds of the run's phases: prepare (build, uploads, padding), run (warm-up and timed
  // repetitions), verify (read-back, reference, comparison), counters (bridge and CUPTI passes).
  std::map<std::string, double> phase_seconds;

  std::string label() const;  // "matmul/tiled16 N=512 (normal)"
  bool failed() const { return status == "error" || verification.status == "failed"; }
};

nlohmann::json toJson(const RunRecord& record);
// A JSON number, or null when the value is not finite (JSON has no NaN or Infinity).
nlohmann::json finiteOrNull(double value);
std::string paramsLabel(const ParamValues& params, const std::vector<std::string>& order);

}  // namespace rooflab
