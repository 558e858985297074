// What a results file must hold before `rooflab report` or `rooflab diff` believes it
// (docs/results-schema.md, "Reading a results file"). The readers of results_json_*.cpp take a
// default for what is missing or null, so that older and hand-made files render; a value that is
// there but cannot be a measurement (a string where a time goes, a negative time, infinity) or a
// record written twice is refused here, naming the record and the field.
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

enum class Range { any, non_negative, fraction };

// The problems of one record, each "<field>: <why>"; `path` is the field's path from the record.
class RecordCheck {
 public:
  explicit RecordCheck(std::vector<std::string>& problems) : problems_(problems) {}

  // A number field: absent or null is fine (unknown, as the writer says it); anything else must be
  // a finite number in range.
  void number(const json& object, std::string_view key, const std::string& path, Range range) {
    const json* value = member(object, key);
    if (value == nullptr) return;
    if (!value->is_number()) {
      problems_.push_back(path + ": " + shown(*value) + " is not a number");
      return;
    }
    const double x = value->get<double>();
    if (!std::isfinite(x)) problems_.push_back(path + ": " + formatNumber(x) + " is not finite");
    else if (range != Range::any && x < 0) problems_.push_back(path + ": " + formatNumber(x) + " is negative");
    else if (range == Range::fraction && x > 1) problems_.push_back(path + ": " + formatNumber(x) + " is above 1");
  }

  // Every named field of `object` (when it is an object), under `path`.
  void numbers(const json& object, std::initializer_list<std::string_view> keys, const std::string& path, Range range) {
    for (std::string_view key : keys) number(object, key, join(path, key), range);
  }

  // Every member of an object of numbers (params, phase_seconds).
  void numberMembers(const json& object, std::string_view key, Range range) {
    const json* members = member(object, key);
    if (members == nullptr || !members->is_object()) return;
    for (const auto& [name, value] : members->items()) number(*members, name, join(std::string(key), name), range);
  }

 private:
  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  // A value as the file has it, cut short: "\"NaN\"", "true", "[...]".
  static std::string shown(const json& value) {
    if (value.is_array()) return "an array";
    if (value.is_object()) return "an object";
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
  }
  std::vector<std::string>& problems_;
};

void checkTimings(RecordCheck& check, const json& timings) {
  check.number(timings, "warmup", "timings.warmup", Range::non_negative);
  if (const json* repetitions = member(timings, "repetitions"); repetitions != nullptr && repetitions->is_array())
    for (std::size_t i = 0; i < repetitions->size(); ++i) {
      const std::string at = "timings.repetitions[" + std::to_string(i) + "]";
      check.numbers((*repetitions)[i], {"kernel_ns", "span_ns"}, at, Range::non_negative);
      // Launch overhead and the event stamps are differences of two clocks' readings: any sign.
      check.numbers((*repetitions)[i], {"queued_ns", "submit_ns", "start_ns", "end_ns", "launch_overhead_ns"}, at,
                    Range::any);
    }
  const json& kernel = objectOrEmpty(timings, "kernel_ns");
  check.numbers(kernel, {"median", "min", "max", "mean", "cv", "count"}, "timings.kernel_ns", Range::non_negative);
  const json& overhead = objectOrEmpty(timings, "launch_overhead_ns");
  check.numbers(overhead, {"median", "min", "max", "mean"}, "timings.launch_overhead_ns", Range::any);
  check.numbers(overhead, {"cv", "count"}, "timings.launch_overhead_ns", Range::non_negative);
  check.numbers(timings, {"gflops", "gbps"}, "timings", Range::non_negative);
  const json& interval = objectOrEmpty(timings, "kernel_ns_interval");
  check.numbers(interval, {"lower", "upper", "noise"}, "timings.kernel_ns_interval", Range::non_negative);
  check.number(interval, "confidence", "timings.kernel_ns_interval.confidence", Range::fraction);
}

// Counts of warp samples, lines and the pass's seconds: a negative one would draw a negative bar.
void checkLineSampling(RecordCheck& check, const json& sampling) {
  check.numbers(sampling,
                {"sampling_period_log2", "total_samples", "dropped_samples", "unattributed_samples", "seconds"},
                "line_sampling", Range::non_negative);
  const json* lines = member(sampling, "lines");
  if (lines == nullptr || !lines->is_array()) return;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const std::string at = "line_sampling.lines[" + std::to_string(i) + "]";
    check.numbers((*lines)[i], {"line", "samples", "sampled_instructions"}, at, Range::non_negative);
    if (const json* stalls = member((*lines)[i], "stalls"); stalls != nullptr && stalls->is_array())
      for (std::size_t j = 0; j < stalls->size(); ++j)
        check.number((*stalls)[j], "samples", at + ".stalls[" + std::to_string(j) + "].samples", Range::non_negative);
  }
}

// "<field>: <why>" for each value of the record that cannot be a measurement.
std::vector<std::string> recordProblems(const json& record) {
  std::vector<std::string> problems;
  RecordCheck check(problems);
  check.numberMembers(record, "params", Range::any);
  check.numberMembers(record, "phase_seconds", Range::non_negative);
  check.number(objectOrEmpty(record, "build"), "seconds", "build.seconds", Range::non_negative);
  check.numbers(objectOrEmpty(record, "work"), {"flops", "bytes", "global_accesses", "local_accesses", "cgma"}, "work",
                Range::non_negative);
  if (const json* timings = member(record, "timings"); timings != nullptr) {
    if (timings->is_object()) checkTimings(check, *timings);
    else problems.push_back("timings: not an object");
  }
  check.numbers(objectOrEmpty(record, "verification"), {"rel_l2_error", "tolerance", "wrong_elements", "non_finite"},
                "verification", Range::non_negative);
  if (const json* roofline = member(record, "roofline"); roofline != nullptr && roofline->is_object())
    for (const auto& [key, placement] : roofline->items())
      check.numbers(placement,
                    {"intensity", "achieved_gflops", "attainable_gflops", "fraction_of_roof", "ridge_intensity",
                     "time_at_roof_ns", "local_roof_gflops"},
                    "roofline." + key, Range::non_negative);
  check.numbers(objectOrEmpty(record, "what_if"),
                {"t_ns", "t_what_if_ns", "t_realised_ns", "predicted_gain", "realised_gain"}, "what_if",
                Range::non_negative);
  if (const json* sampling = member(record, "line_sampling"); sampling != nullptr && sampling->is_object())
    checkLineSampling(check, *sampling);
  return problems;
}

// A record is one (family, variant, params, mode) and, for a what-if, one what-if of them, on one
// device: the identity `rooflab diff` matches on.
std::string identity(const RunRecord& record) {
  std::string key = record.family + '\n' + record.variant + '\n' + modeName(record.mode) + '\n';
  for (const auto& [name, value] : record.params) key += name + '=' + formatRoundTrip(value) + '\n';
  if (record.what_if) key += "what-if=" + record.what_if->name;
  if (record.ab_side) key += "\nside=" + toString(*record.ab_side);  // an A/B run holds each point once a side
  if (record.device) key += "\ndevice=" + *record.device;  // a batch on several devices runs each point on each
  return key;
}

}  // namespace

std::vector<std::string> resultsProblems(const json& document, const ResultsDocument& read) {
  std::vector<std::string> problems;
  const json* records = member(document, "records");
  if (records == nullptr || !records->is_array() || records->size() != read.records.size()) return problems;
  std::unordered_map<std::string, std::size_t> first_index;
  first_index.reserve(read.records.size());
  for (std::size_t i = 0; i < read.records.size(); ++i) {
    const std::string name = "records[" + std::to_string(i) + "] (" + read.records[i].label() + ")";
    for (const std::string& problem : recordProblems((*records)[i])) problems.push_back(name + ": " + problem);
    const auto [earlier, inserted] = first_index.emplace(identity(read.records[i]), i);
    if (!inserted)
      problems.push_back(name + ": the same record (family, variant, params, mode) as records[" +
                         std::to_string(earlier->second) + "]");
  }
  return problems;
}

}  // namespace rooflab
