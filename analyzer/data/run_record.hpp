#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/counter_set.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/data/roofline.hpp"
#include "analyzer/data/run_cost.hpp"
#include "analyzer/stats/stats.hpp"
#include "analyzer/data/mutation_verdict.hpp"
#include "analyzer/data/occupancy_match.hpp"
#include "analyzer/data/verification_result.hpp"
#include "analyzer/data/what_if.hpp"
#include "analyzer/data/end_to_end.hpp"
#include "analyzer/data/source_lines.hpp"

namespace rooflab {

// Whether a point ran. A variant that ran but computed wrong results is `ok` with a failed
// verification: it is measured and flagged, not dropped.
enum class RecordStatus {
  ok,
  error,      // building, launching or reading back failed
  skipped,    // not run, for a reason that is no fault (a mutant of an unannotated kernel)
  crashed,    // the worker process running it died (a signal, an abort) or its OpenCL context broke
  timed_out,  // no result within [run] variant_time_limit_s: the worker running it was killed
};
std::string toString(RecordStatus status);  // "ok" | "error" | "skipped" | "crashed" | "timed_out"
// Whether the point failed to give a result through a fault (error, crashed, timed_out).
inline bool isFault(RecordStatus status) {
  return status == RecordStatus::error || status == RecordStatus::crashed || status == RecordStatus::timed_out;
}
std::optional<RecordStatus> parseRecordStatus(std::string_view text);

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

// How well a record's median kernel time is known, and whether its repetitions met the run's noise
// target (RunSettings::max_noise): the median's distribution-free confidence interval (stats.hpp).
struct KernelTimeInterval {
  double lower_ns = 0;
  double upper_ns = 0;
  double confidence = 0.95;     // requested; the interval reaches it from 6 repetitions on
  std::optional<double> noise;  // (upper - lower) / (2 median); absent with too few repetitions
  bool converged = false;       // noise <= max_noise before the time budget ran out
};

struct EventTimings {
  int warmup = 0;
  std::vector<RepetitionTiming> repetitions;
  SampleSummary kernel_ns;
  SampleSummary launch_overhead_ns;
  bool cut_short = false;  // the time limit or an interrupt stopped the repetitions early
  // Absent in results written before the noise target (they re-render unchanged).
  std::optional<KernelTimeInterval> kernel_ns_interval;
};

// Work per median second, in billions: GFLOP/s of flops, GB/s of bytes. Rates are not stored but
// follow from the analytic work and the median time, so the results file and every report agree.
// nullopt when the median is not positive or the rate is not finite.
std::optional<double> achievedRate(double work, const EventTimings& timings);

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
  // Bytes of one counted access: the family's first buffer's element size (float 4, float4 16), the
  // unit its manifest counts global_accesses in. Absent in results written before it existed.
  std::optional<double> access_element_bytes;
  // The type the work computes in, which picks its compute roof (docs/manifest.md, [work] type).
  Arithmetic arithmetic = Arithmetic::fp32;
  // Declared "unmeasured" in the manifest (a captured application): the value above stands in as 0
  // (global_accesses absent) and means nothing; placements that need it are not made.
  bool flops_unmeasured = false;
  bool bytes_unmeasured = false;
  bool global_accesses_unmeasured = false;
  // As a record keeps it: a value declared unmeasured is NaN, the unknown that results files write
  // as null (and read back as NaN), so that no rate is made of it.
  WorkEstimate recorded() const;
  std::optional<double> cgma() const;  // flops / global_accesses, when both are known and accesses > 0
  // global_accesses x access_element_bytes: the traffic the code asks of global memory.
  std::optional<double> globalBytes() const;
};

// Everything measured for one (family, variant, params, mode) point, as the worker returned it: no
// step after the run changes it, and nothing in it is derived. What rooflab concludes from it is the
// analysis step's (AnalysedRecord, data/analysis.hpp). JSON only at the edges
// (analyzer/json/results_json.hpp): when a results file is written or read.
struct RunRecord {
  std::string family;
  std::string variant;
  RunMode mode = RunMode::normal;
  ParamValues params;
  std::vector<std::string> param_order;
  RecordStatus status = RecordStatus::ok;
  std::string status_reason;  // why it errored or was skipped, with context (call, variant, device)
  std::string build_options;
  double build_seconds = 0;
  std::string build_log;
  std::vector<LaunchGeometry> geometry;
  WorkEstimate work;
  std::optional<EventTimings> timings;
  VerificationResult verification;
  counters::CounterSet counters = counters::CounterSet::notAttempted("not measured");
  std::optional<OccupancyMatch> occupancy_padding;       // mutants only
  std::optional<MutantOrigin> mutant_origin;             // mutants only: annotated or automatic
  std::optional<MutantSourceCheck> mutant_source_check;  // automatic mutants only
  std::optional<WhatIfRun> what_if;                      // what-if records only: the mutation it ran
  // Wall-clock seconds of the run's phases: build (waiting for the program's build, the padded
  // mutant's rebuild included), prepare (inputs, uploads, occupancy padding), run (warm-up and timed
  // repetitions), drift_control, verify (read-back, reference, comparison), counters (bridge and
  // CUPTI passes).
  std::map<std::string, double> phase_seconds;
  // The run's control kernel, timed right after this record's repetitions (docs/cost.md, "Drift").
  std::optional<DriftControlSample> drift_control;
  std::optional<AbSide> ab_side;  // records of an A/B run only
  // A batch on several devices: the key of the device that ran it (ResultsDocument::device_runs).
  std::optional<std::string> device;
  // Normal records of a study that asks for end-to-end runs ([[study]] end_to_end): each strategy's
  // run from host arrays to host arrays.
  std::optional<EndToEndResult> end_to_end;
  // Originals (normal mode) only: the program's files as the user wrote them, for the source view.
  std::vector<SourceFileText> source_files;
  // Originals only: warp samples per source line over the bridged launches (NVIDIA), or why none.
  std::optional<LineSampling> line_sampling;
  // Mutants only: the lines of the original the mutant changed, and how (empty: none known).
  std::vector<MutantLineChange> mutant_line_changes;

  std::string label() const;  // "matmul/tiled16 N=512 (normal)", "... (what-if no-bank-conflicts)"
  // nullopt when the record has no timings or the value is not finite.
  std::optional<double> medianKernelNs() const;
  std::optional<double> achievedGflops() const;
  std::optional<double> achievedGbps() const;
  bool failed() const {
    return isFault(status) || verification.status == VerificationStatus::failed || (end_to_end && end_to_end->failed());
  }
};

std::string paramsLabel(const ParamValues& params, const std::vector<std::string>& order);

}  // namespace rooflab
