// The JSON edge of one record and its roofline placements (docs/results-schema.md, "records").
#include <cmath>

#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const SampleSummary& s) {
  return {{"median", finiteOrNull(s.median)}, {"min", finiteOrNull(s.min)}, {"max", finiteOrNull(s.max)},
          {"mean", finiteOrNull(s.mean)},     {"cv", finiteOrNull(s.cv)},   {"count", s.count}};
}

SampleSummary sampleSummaryFromJson(const json& j, std::size_t default_count) {
  SampleSummary s;
  s.median = numberOrNaN(j, "median");
  s.min = numberOrNaN(j, "min");
  s.max = numberOrNaN(j, "max");
  s.mean = numberOrNaN(j, "mean");
  s.cv = numberOrNaN(j, "cv");
  s.count = integerOr<std::size_t>(j, "count", default_count);
  return s;
}

// Whole parameter values are integers in the results (N=1024, not 1024.0).
json paramsJson(const ParamValues& params) {
  json out = json::object();
  for (const auto& [name, value] : params) {
    if (value == std::trunc(value) && std::fabs(value) < 9e15) out[name] = static_cast<std::int64_t>(value);
    else out[name] = value;
  }
  return out;
}

json timingsJson(const EventTimings& t, const WorkEstimate& work) {
  json repetitions = json::array();
  for (const auto& rep : t.repetitions)
    repetitions.push_back({{"queued_ns", rep.queued_ns},
                           {"submit_ns", rep.submit_ns},
                           {"start_ns", rep.start_ns},
                           {"end_ns", rep.end_ns},
                           {"kernel_ns", rep.kernel_ns},
                           {"span_ns", rep.span_ns},
                           {"launch_overhead_ns", rep.launch_overhead_ns}});
  json out = {{"warmup", t.warmup},
              {"repetitions", repetitions},
              {"kernel_ns", toJson(t.kernel_ns)},
              {"launch_overhead_ns", toJson(t.launch_overhead_ns)},
              {"cut_short", t.cut_short},
              {"gflops", finiteOrNull(achievedRate(work.flops, t))},
              {"gbps", finiteOrNull(achievedRate(work.bytes, t))}};
  if (const auto& interval = t.kernel_ns_interval)
    out["kernel_ns_interval"] = {{"lower", finiteOrNull(interval->lower_ns)},
                                 {"upper", finiteOrNull(interval->upper_ns)},
                                 {"confidence", interval->confidence},
                                 {"noise", finiteOrNull(interval->noise)},
                                 {"converged", interval->converged}};
  return out;
}

std::optional<KernelTimeInterval> kernelTimeIntervalFromJson(const json& timings) {
  const json* j = member(timings, "kernel_ns_interval");
  if (j == nullptr || !j->is_object()) return std::nullopt;
  KernelTimeInterval interval;
  interval.lower_ns = numberOrNaN(*j, "lower");
  interval.upper_ns = numberOrNaN(*j, "upper");
  interval.confidence = numberOr(*j, "confidence", interval.confidence);
  if (const double noise = numberOrNaN(*j, "noise"); std::isfinite(noise)) interval.noise = noise;
  interval.converged = boolOr(*j, "converged", false);
  return interval;
}

EventTimings timingsFromJson(const json& j) {
  EventTimings t;
  t.warmup = integerOr<int>(j, "warmup", 0);
  if (const json* reps = member(j, "repetitions"); reps != nullptr && reps->is_array())
    for (const json& r : *reps) {
      RepetitionTiming rep;
      rep.queued_ns = integerOr<std::int64_t>(r, "queued_ns", 0);
      rep.submit_ns = integerOr<std::int64_t>(r, "submit_ns", 0);
      rep.start_ns = integerOr<std::int64_t>(r, "start_ns", 0);
      rep.end_ns = integerOr<std::int64_t>(r, "end_ns", 0);
      rep.kernel_ns = integerOr<std::int64_t>(r, "kernel_ns", 0);
      rep.span_ns = integerOr<std::int64_t>(r, "span_ns", rep.kernel_ns);  // older files: one launch
      rep.launch_overhead_ns = integerOr<std::int64_t>(r, "launch_overhead_ns", 0);
      t.repetitions.push_back(rep);
    }
  // Older files have no count: each summary is over the repetitions.
  t.kernel_ns = sampleSummaryFromJson(objectOrEmpty(j, "kernel_ns"), t.repetitions.size());
  t.launch_overhead_ns = sampleSummaryFromJson(objectOrEmpty(j, "launch_overhead_ns"), t.repetitions.size());
  t.cut_short = boolOr(j, "cut_short", false);
  t.kernel_ns_interval = kernelTimeIntervalFromJson(j);
  return t;
}

}  // namespace

json verificationJson(const VerificationResult& v) {
  return {{"status", toString(v.status)},
          {"reference", textOrNull(v.reference)},
          {"rel_l2_error", finiteOrNull(v.rel_l2_error)},
          {"wrong_elements", v.wrong_elements},
          {"non_finite", v.non_finite},
          {"tolerance", v.tolerance},
          {"detail", textOrNull(v.detail)}};
}

VerificationResult verificationFromJson(const json& j) {
  VerificationResult v;
  v.status = parseVerificationStatus(textOr(j, "status")).value_or(VerificationStatus::not_checked);
  v.reference = textOr(j, "reference");
  v.rel_l2_error = optionalNumber(j, "rel_l2_error");
  v.wrong_elements = integerOr<std::size_t>(j, "wrong_elements", 0);
  v.non_finite = integerOr<std::size_t>(j, "non_finite", 0);
  v.tolerance = numberOr(j, "tolerance", 0);
  v.detail = textOr(j, "detail");
  return v;
}

namespace {

std::vector<std::int64_t> integerList(const json& object, std::string_view key) {
  std::vector<std::int64_t> out;
  const json* value = member(object, key);
  if (value == nullptr || !value->is_array()) return out;
  for (const json& element : *value)
    if (element.is_number()) out.push_back(element.get<std::int64_t>());
  return out;
}

// A finding's figure or name, written only where the finding has one.
json toJson(const PlacementReason& r) {
  json j = {{"kind", toString(r.kind)}};
  if (r.model_key) j["model"] = *r.model_key;
  if (r.level) j["level"] = toString(*r.level);
  if (r.arithmetic) j["arithmetic"] = toString(*r.arithmetic);
  putNumber(j, "local_roof_gflops", r.local_roof_gflops);
  putNumber(j, "reached_fraction", r.reached_fraction);
  putNumber(j, "margin_fraction", r.margin_fraction);
  return j;
}

std::optional<PlacementReason> placementReasonFromJson(const json& j) {
  const auto kind = parsePlacementReasonKind(textOr(j, "kind"));
  if (!kind) return std::nullopt;
  PlacementReason r{*kind};
  r.model_key = optionalText(j, "model");
  if (const auto level = optionalText(j, "level")) r.level = parseMemoryLevel(*level);
  if (const auto arithmetic = optionalText(j, "arithmetic")) r.arithmetic = parseArithmetic(*arithmetic);
  r.local_roof_gflops = optionalNumber(j, "local_roof_gflops");
  r.reached_fraction = optionalNumber(j, "reached_fraction");
  r.margin_fraction = optionalNumber(j, "margin_fraction");
  return r;
}

json toJson(const AboveRoofCause& c) {
  json j = {{"kind", toString(c.kind)}};
  putNumber(j, "working_set_bytes", c.working_set_bytes);
  putNumber(j, "cache_bytes", c.cache_bytes);
  putNumber(j, "counter_dram_bytes", c.counter_dram_bytes);
  putNumber(j, "compulsory_bytes", c.compulsory_bytes);
  putNumber(j, "median_ns", c.median_ns);
  putNumber(j, "timer_resolution_ns", c.timer_resolution_ns);
  putNumber(j, "margin", c.margin);
  return j;
}

std::optional<AboveRoofCause> aboveRoofCauseFromJson(const json& j) {
  const auto kind = parseAboveRoofCauseKind(textOr(j, "kind"));
  if (!kind) return std::nullopt;
  AboveRoofCause c{*kind};
  c.working_set_bytes = optionalNumber(j, "working_set_bytes");
  c.cache_bytes = optionalNumber(j, "cache_bytes");
  c.counter_dram_bytes = optionalNumber(j, "counter_dram_bytes");
  c.compulsory_bytes = optionalNumber(j, "compulsory_bytes");
  c.median_ns = optionalNumber(j, "median_ns");
  c.timer_resolution_ns = optionalNumber(j, "timer_resolution_ns");
  c.margin = optionalNumber(j, "margin");
  return c;
}

// The reasons as data, or, for a placement read from a schema-1 file, its sentence under "reason"
// (null where it had none, as schema 1 wrote a placement without reasons).
void writeReasons(json& j, const RooflinePlacement& p) {
  if (p.reason_as_saved || p.reasons.empty()) {
    j["reason"] = textOrNull(p.reason_as_saved);
    return;
  }
  json reasons = json::array();
  for (const PlacementReason& reason : p.reasons) reasons.push_back(toJson(reason));
  j["reasons"] = reasons;
}

// Above its roof: the causes as data under "above_roof_causes" (empty: none rooflab can tell), or
// the sentence a schema-1 file saved under "above_roof".
void writeAboveRoof(json& j, const RooflinePlacement& p) {
  if (!p.above_roof) return;
  if (p.above_roof->text_as_saved) {
    j["above_roof"] = *p.above_roof->text_as_saved;
    return;
  }
  json causes = json::array();
  for (const AboveRoofCause& cause : p.above_roof->causes) causes.push_back(toJson(cause));
  j["above_roof_causes"] = causes;
}

void readFindings(const json& j, RooflinePlacement& p) {
  p.reason_as_saved = optionalText(j, "reason");
  if (const json* reasons = member(j, "reasons"); reasons != nullptr && reasons->is_array())
    for (const json& element : *reasons)
      if (const auto reason = placementReasonFromJson(element)) p.reasons.push_back(*reason);
  if (const auto saved = optionalText(j, "above_roof")) {
    p.above_roof = AboveRoof{p.fraction_of_roof.value_or(0), {}, saved};
  } else if (const json* causes = member(j, "above_roof_causes"); causes != nullptr && causes->is_array()) {
    p.above_roof = AboveRoof{p.fraction_of_roof.value_or(0), {}, std::nullopt};
    for (const json& element : *causes)
      if (const auto cause = aboveRoofCauseFromJson(element)) p.above_roof->causes.push_back(*cause);
  }
}

}  // namespace

json toJson(const AboveRoof& above) {
  if (above.text_as_saved) return *above.text_as_saved;
  json causes = json::array();
  for (const AboveRoofCause& cause : above.causes) causes.push_back(toJson(cause));
  return {{"fraction_of_roof", above.fraction_of_roof}, {"causes", causes}};
}

std::optional<AboveRoof> aboveRoofFromJson(const json& j) {
  if (j.is_string()) return AboveRoof{0, {}, j.get<std::string>()};
  if (!j.is_object()) return std::nullopt;
  AboveRoof above{optionalNumber(j, "fraction_of_roof").value_or(0), {}, std::nullopt};
  if (const json* causes = member(j, "causes"); causes != nullptr && causes->is_array())
    for (const json& element : *causes)
      if (const auto cause = aboveRoofCauseFromJson(element)) above.causes.push_back(*cause);
  return above;
}

json toJson(const RooflinePlacement& p) {
  json j;
  j["intensity"] = finiteOrNull(p.intensity);
  j["intensity_source"] = toString(p.intensity_source);
  j["achieved_gflops"] = finiteOrNull(p.achieved_gflops);
  j["attainable_gflops"] = finiteOrNull(p.attainable_gflops);
  j["fraction_of_roof"] = finiteOrNull(p.fraction_of_roof);
  j["ridge_intensity"] = finiteOrNull(p.ridge_intensity);
  j["bound"] = toString(p.bound);
  j["time_at_roof_ns"] = p.time_at_roof_ns ? json(*p.time_at_roof_ns) : json(nullptr);
  j["local_roof_gflops"] = finiteOrNull(p.local_roof_gflops);
  writeReasons(j, p);
  if (p.level != MemoryLevel::dram) j["level"] = toString(p.level);
  writeAboveRoof(j, p);
  if (p.arithmetic) j["arithmetic"] = toString(*p.arithmetic);
  if (p.unplaced) j["unplaced"] = toString(*p.unplaced);
  return j;
}

RooflinePlacement rooflinePlacementFromJson(const json& j) {
  RooflinePlacement p;
  p.intensity = optionalNumber(j, "intensity");
  p.intensity_source = parseIntensitySource(textOr(j, "intensity_source")).value_or(IntensitySource::analytic);
  p.achieved_gflops = optionalNumber(j, "achieved_gflops");
  p.attainable_gflops = optionalNumber(j, "attainable_gflops");
  p.fraction_of_roof = optionalNumber(j, "fraction_of_roof");
  p.ridge_intensity = numberOrNaN(j, "ridge_intensity");
  p.bound = parseRooflineBound(textOr(j, "bound")).value_or(RooflineBound::unknown);
  p.time_at_roof_ns = optionalInteger<std::int64_t>(j, "time_at_roof_ns");
  p.local_roof_gflops = optionalNumber(j, "local_roof_gflops");
  p.level = parseMemoryLevel(textOr(j, "level")).value_or(MemoryLevel::dram);
  readFindings(j, p);
  if (const auto arithmetic = optionalText(j, "arithmetic")) p.arithmetic = parseArithmetic(*arithmetic);
  if (const auto unplaced = optionalText(j, "unplaced")) p.unplaced = parseUnplacedReason(*unplaced);
  return p;
}

json toJson(const RunRecord& r, const RecordConclusions& c) {
  json geometry = json::array();
  for (const auto& g : r.geometry) geometry.push_back({{"kernel", g.kernel}, {"global", g.global}, {"local", g.local}});
  json roofline = json::object();
  for (const auto& [key, placement] : c.roofline) roofline[key] = toJson(placement);
  json work = {{"flops", finiteOrNull(r.work.flops)},
               {"bytes", finiteOrNull(r.work.bytes)},
               {"global_accesses", finiteOrNull(r.work.global_accesses)},
               {"local_accesses", finiteOrNull(r.work.local_accesses)},
               {"cgma", finiteOrNull(r.work.cgma())}};
  if (r.work.access_element_bytes) work["access_element_bytes"] = finiteOrNull(r.work.access_element_bytes);
  // Written only for work not in FP32, so that older results re-write unchanged.
  if (r.work.arithmetic != Arithmetic::fp32) work["arithmetic"] = toString(r.work.arithmetic);
  // Written only where the manifest declared work "unmeasured" (its value is then null).
  json unmeasured = json::array();
  if (r.work.flops_unmeasured) unmeasured.push_back("flops");
  if (r.work.bytes_unmeasured) unmeasured.push_back("bytes");
  if (r.work.global_accesses_unmeasured) unmeasured.push_back("global_accesses");
  if (!unmeasured.empty()) work["unmeasured"] = unmeasured;
  json phase_seconds = json::object();
  for (const auto& [phase, seconds] : r.phase_seconds) phase_seconds[phase] = seconds;
  json j = {
      {"family", r.family},
      {"variant", r.variant},
      {"mode", modeName(r.mode)},
      {"params", paramsJson(r.params)},
      {"param_order", r.param_order},
      {"status", toString(r.status)},
      {"error", textOrNull(r.status_reason)},
      {"build", {{"options", r.build_options}, {"seconds", r.build_seconds}, {"log", r.build_log}}},
      {"geometry", {{"launches", geometry}}},
      {"work", work},
      {"timings", r.timings ? timingsJson(*r.timings, r.work) : json(nullptr)},
      {"verification", verificationJson(r.verification)},
      {"counters", counters::toJson(r.counters)},
      {"roofline", roofline},
      {"mutation", c.mutation ? toJson(*c.mutation) : json(nullptr)},
      {"occupancy_padding", r.occupancy_padding ? toJson(*r.occupancy_padding) : json(nullptr)},
      {"phase_seconds", phase_seconds},
  };
  // Only when diagnosed, and never one `rooflab report` derived: older results re-render byte for byte.
  if (c.diagnosis && !c.diagnosis->derived_when_read) j["diagnosis"] = toJson(*c.diagnosis);
  // Mutants only, so that older results re-render byte for byte.
  if (r.mutant_origin) j["mutant_origin"] = toString(*r.mutant_origin);
  if (const auto& check = r.mutant_source_check) j["mutant_source_check"] = toJson(*check);
  if (r.what_if)
    j["what_if"] = toJson(*r.what_if, c.what_if_outcome.value_or(WhatIfOutcome{}));  // what-if records only
  // Only when measured, so that older results re-render byte for byte.
  if (r.drift_control) j["drift_control"] = toJson(*r.drift_control);
  if (r.ab_side) j["ab_side"] = toString(*r.ab_side);
  if (r.end_to_end)
    j["end_to_end"] = toJson(*r.end_to_end, c.end_to_end_analysis);  // studies that ask for end-to-end runs
  if (r.device) j["device"] = *r.device;                             // batches on several devices only
  writeSourceLines(r, j);
  return j;
}

RunRecord runRecordFromJson(const json& j) {
  RunRecord r;
  r.family = textOr(j, "family");
  r.variant = textOr(j, "variant");
  r.mode = parseMode(textOr(j, "mode", "normal")).value_or(RunMode::normal);
  for (const auto& [name, value] : objectOrEmpty(j, "params").items())
    if (value.is_number()) r.params[name] = value.get<double>();
  r.param_order = textList(j, "param_order");
  r.status_reason = textOr(j, "error");
  if (const auto status = parseRecordStatus(textOr(j, "status"))) {
    r.status = *status;
  } else {
    // Every rooflab wrote a status; a record without one cannot be taken to have run.
    r.status = RecordStatus::error;
    if (r.status_reason.empty()) r.status_reason = "the results file gives this record no status";
  }
  const json& build = objectOrEmpty(j, "build");
  r.build_options = textOr(build, "options");
  r.build_seconds = numberOr(build, "seconds", 0);
  r.build_log = textOr(build, "log");
  if (const json* launches = member(objectOrEmpty(j, "geometry"), "launches");
      launches != nullptr && launches->is_array())
    for (const json& launch : *launches)
      r.geometry.push_back({textOr(launch, "kernel"), integerList(launch, "global"), integerList(launch, "local")});
  const json& work = objectOrEmpty(j, "work");
  r.work.flops = numberOrNaN(work, "flops");
  r.work.bytes = numberOrNaN(work, "bytes");
  r.work.global_accesses = optionalNumber(work, "global_accesses");
  r.work.local_accesses = optionalNumber(work, "local_accesses");
  r.work.access_element_bytes = optionalNumber(work, "access_element_bytes");
  if (const auto arithmetic = optionalText(work, "arithmetic"))
    r.work.arithmetic = parseArithmetic(*arithmetic).value_or(Arithmetic::fp32);
  if (const json* unmeasured = member(work, "unmeasured"); unmeasured != nullptr && unmeasured->is_array())
    for (const json& name : *unmeasured) {
      r.work.flops_unmeasured = r.work.flops_unmeasured || name == "flops";
      r.work.bytes_unmeasured = r.work.bytes_unmeasured || name == "bytes";
      r.work.global_accesses_unmeasured = r.work.global_accesses_unmeasured || name == "global_accesses";
    }
  if (const json* timings = member(j, "timings"); timings != nullptr && timings->is_object())
    r.timings = timingsFromJson(*timings);
  r.verification = verificationFromJson(objectOrEmpty(j, "verification"));
  if (const json* counters = member(j, "counters"); counters != nullptr && counters->is_object())
    r.counters = counters::counterSetFromJson(*counters);
  if (const json* padding = member(j, "occupancy_padding"); padding != nullptr && padding->is_object())
    r.occupancy_padding = occupancyMatchFromJson(*padding);
  for (const auto& [phase, seconds] : objectOrEmpty(j, "phase_seconds").items())
    if (seconds.is_number()) r.phase_seconds[phase] = seconds.get<double>();
  r.mutant_origin = parseMutantOrigin(textOr(j, "mutant_origin"));
  if (const json* check = member(j, "mutant_source_check"); check != nullptr && check->is_object())
    r.mutant_source_check = mutantSourceCheckFromJson(*check);
  if (const json* what_if = member(j, "what_if"); what_if != nullptr && what_if->is_object())
    r.what_if = whatIfRunFromJson(*what_if);
  if (const json* drift = member(j, "drift_control"); drift != nullptr && drift->is_object())
    r.drift_control = driftControlSampleFromJson(*drift);
  r.ab_side = parseAbSide(textOr(j, "ab_side"));
  if (const json* end_to_end = member(j, "end_to_end"); end_to_end != nullptr && end_to_end->is_object())
    r.end_to_end = endToEndResultFromJson(*end_to_end);
  r.device = optionalText(j, "device");
  readSourceLines(j, r);
  return r;
}

AnalysedRecord analysedRecordFromJson(const json& j) {
  RecordConclusions c;
  for (const auto& [key, placement] : objectOrEmpty(j, "roofline").items())
    if (placement.is_object()) c.roofline[key] = rooflinePlacementFromJson(placement);
  if (const json* mutation = member(j, "mutation"); mutation != nullptr && mutation->is_object())
    c.mutation = mutationVerdictFromJson(*mutation);
  if (const json* diagnosis = member(j, "diagnosis"); diagnosis != nullptr && diagnosis->is_object())
    c.diagnosis = diagnosisFromJson(*diagnosis);
  if (const json* what_if = member(j, "what_if"); what_if != nullptr && what_if->is_object())
    c.what_if_outcome = whatIfOutcomeFromJson(*what_if);
  if (const json* end_to_end = member(j, "end_to_end"); end_to_end != nullptr && end_to_end->is_object())
    c.end_to_end_analysis = endToEndAnalysisFromJson(*end_to_end);
  return AnalysedRecord(runRecordFromJson(j), std::move(c));
}

}  // namespace rooflab
