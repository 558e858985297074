// The JSON edge of what a run cost rooflab and of its drift control (docs/results-schema.md, "Cost"
// and "Drift control"; docs/cost.md).
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

std::vector<double> numberList(const json& object, std::string_view key) {
  std::vector<double> values;
  if (const json* list = member(object, key); list != nullptr && list->is_array())
    for (const json& value : *list)
      if (value.is_number()) values.push_back(value.get<double>());
  return values;
}

// A phase's counts under their own keys; the detail text only as an older file saved it.
json phaseCostJson(const PhaseCost& phase) {
  json p = {{"name", phase.name}, {"seconds", finiteOrNull(phase.seconds)}};
  if (phase.ceilings_measured) p["ceilings_measured"] = *phase.ceilings_measured;
  if (phase.worker_starts) p["worker_starts"] = *phase.worker_starts;
  if (phase.programs_built) p["programs_built"] = *phase.programs_built;
  if (phase.compiler_seconds) p["compiler_seconds"] = finiteOrNull(*phase.compiler_seconds);
  if (phase.build_threads) p["build_threads"] = *phase.build_threads;
  if (phase.records) p["records"] = *phase.records;
  if (phase.counters_mean_seconds) p["counters_mean_seconds"] = finiteOrNull(*phase.counters_mean_seconds);
  if (phase.counters_passes_per_record)
    p["counters_passes_per_record"] = finiteOrNull(*phase.counters_passes_per_record);
  if (phase.counters_reused) p["counters_reused"] = *phase.counters_reused;
  if (phase.detail_as_saved) p["detail"] = *phase.detail_as_saved;
  return p;
}

PhaseCost phaseCostFromJson(const json& p) {
  PhaseCost phase;
  phase.name = textOr(p, "name");
  phase.seconds = numberOr(p, "seconds", 0);
  if (const json* measured = member(p, "ceilings_measured"); measured != nullptr && measured->is_boolean())
    phase.ceilings_measured = measured->get<bool>();
  phase.worker_starts = optionalInteger<std::size_t>(p, "worker_starts");
  phase.programs_built = optionalInteger<std::size_t>(p, "programs_built");
  phase.compiler_seconds = optionalNumber(p, "compiler_seconds");
  phase.build_threads = optionalInteger<int>(p, "build_threads");
  phase.records = optionalInteger<std::size_t>(p, "records");
  phase.counters_mean_seconds = optionalNumber(p, "counters_mean_seconds");
  phase.counters_passes_per_record = optionalNumber(p, "counters_passes_per_record");
  phase.counters_reused = optionalInteger<std::size_t>(p, "counters_reused");
  // Written before the counts were saved: the text is all there is, said and written back as saved.
  phase.detail_as_saved = optionalText(p, "detail");
  return phase;
}

}  // namespace

json toJson(const BatchCost& cost) {
  json phases = json::array();
  for (const PhaseCost& phase : cost.phases) phases.push_back(phaseCostJson(phase));
  json j = {{"wall_seconds", finiteOrNull(cost.wall_seconds)}, {"phases", phases}};
  if (cost.estimate) {
    json updates = json::array();
    for (const EstimateUpdate& u : cost.estimate->updates)
      updates.push_back({{"points_done", u.points_done},
                         {"elapsed_seconds", finiteOrNull(u.elapsed_seconds)},
                         {"remaining_seconds", finiteOrNull(u.remaining_seconds)}});
    j["estimate"] = {{"initial_seconds", finiteOrNull(cost.estimate->initial_seconds)}, {"updates", updates}};
    if (cost.estimate->actual_seconds) j["estimate"]["actual_seconds"] = finiteOrNull(*cost.estimate->actual_seconds);
  }
  return j;
}

BatchCost batchCostFromJson(const json& j) {
  BatchCost cost;
  cost.wall_seconds = numberOr(j, "wall_seconds", 0);
  if (const json* phases = member(j, "phases"); phases != nullptr && phases->is_array())
    for (const json& p : *phases)
      if (p.is_object()) cost.phases.push_back(phaseCostFromJson(p));
  if (const json* estimate = member(j, "estimate"); estimate != nullptr && estimate->is_object()) {
    BatchEstimateTrace& trace = cost.estimate.emplace();
    trace.initial_seconds = numberOr(*estimate, "initial_seconds", 0);
    trace.actual_seconds = optionalNumber(*estimate, "actual_seconds");
    if (const json* updates = member(*estimate, "updates"); updates != nullptr && updates->is_array())
      for (const json& u : *updates)
        if (u.is_object())
          trace.updates.push_back({integerOr<std::size_t>(u, "points_done", 0), numberOr(u, "elapsed_seconds", 0),
                                   numberOr(u, "remaining_seconds", 0)});
  }
  return cost;
}

json toJson(const DriftControlSpec& spec) {
  return {{"kernel", spec.kernel},
          {"global_size", spec.global_size},
          {"iterations", spec.iterations},
          {"repetitions", spec.repetitions}};
}

DriftControlSpec driftControlSpecFromJson(const json& j) {
  DriftControlSpec spec;
  spec.kernel = textOr(j, "kernel");
  spec.global_size = integerOr<std::int64_t>(j, "global_size", 0);
  spec.iterations = integerOr<int>(j, "iterations", 0);
  spec.repetitions = integerOr<int>(j, "repetitions", 0);
  return spec;
}

json toJson(const DriftControlSample& sample) {
  json repetitions = json::array();
  for (double ns : sample.repetitions_ns) repetitions.push_back(countOrReal(ns));
  return {{"median_ns", finiteOrNull(sample.median_ns)}, {"repetitions_ns", repetitions}};
}

DriftControlSample driftControlSampleFromJson(const json& j) {
  DriftControlSample sample;
  sample.median_ns = numberOr(j, "median_ns", 0);
  sample.repetitions_ns = numberList(j, "repetitions_ns");
  return sample;
}

json toJson(const AbRun& ab) {
  json j = {{"baseline", ab.baseline}, {"candidate", ab.candidate}};
  if (ab.candidate_config) j["candidate_config"] = toJson(*ab.candidate_config);
  return j;
}

AbRun abRunFromJson(const json& j) {
  AbRun ab{textOr(j, "baseline"), textOr(j, "candidate"), std::nullopt};
  if (const json* config = member(j, "candidate_config"); config != nullptr && config->is_object())
    ab.candidate_config = batchConfigFromJson(*config);
  return ab;
}

namespace counters {

json toJson(const CountersCost& cost) {
  json passes = json::array();
  for (double seconds : cost.pass_seconds) passes.push_back(finiteOrNull(seconds));
  return {{"total_seconds", finiteOrNull(cost.total_seconds)},
          {"module_seconds", finiteOrNull(cost.module_seconds)},
          {"jit_compiles", cost.jit_compiles},
          {"setup_seconds", finiteOrNull(cost.setup_seconds)},
          {"timing_seconds", finiteOrNull(cost.timing_seconds)},
          {"readback_seconds", finiteOrNull(cost.readback_seconds)},
          {"config_seconds", finiteOrNull(cost.config_seconds)},
          {"session_reused", cost.session_reused},
          {"pass_seconds", passes},
          {"decode_seconds", finiteOrNull(cost.decode_seconds)}};
}

CountersCost countersCostFromJson(const json& j) {
  CountersCost cost;
  cost.total_seconds = numberOr(j, "total_seconds", 0);
  cost.module_seconds = numberOr(j, "module_seconds", 0);
  cost.jit_compiles = integerOr<int>(j, "jit_compiles", 0);
  cost.setup_seconds = numberOr(j, "setup_seconds", 0);
  cost.timing_seconds = numberOr(j, "timing_seconds", 0);
  cost.readback_seconds = numberOr(j, "readback_seconds", 0);
  cost.config_seconds = numberOr(j, "config_seconds", 0);
  cost.session_reused = boolOr(j, "session_reused", false);
  cost.pass_seconds = numberList(j, "pass_seconds");
  cost.decode_seconds = numberOr(j, "decode_seconds", 0);
  return cost;
}

}  // namespace counters

}  // namespace rooflab
