// The JSON edge of a whole results file: the document, the device, the config echo, the models and
// the ceilings report (docs/results-schema.md, top level).
#include <limits>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/input_errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/json_file_io.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

// Kept here rather than beside toString(StopDecision) in stopping_rule.hpp: the statistics files
// are shared, unchanged, with the branch diff-stats, and only this edge reads the decision's name.

// Rates in the benchmark's unit, keyed after it as the benchmark's own rates are.
json toJson(const CeilingSpread& spread, const char* unit_key) {
  const std::string unit = unit_key;
  return {{"min_" + unit, finiteOrNull(spread.min_rate)},
          {"median_" + unit, finiteOrNull(spread.median_rate)},
          {"max_" + unit, finiteOrNull(spread.max_rate)},
          {"median_interval_" + unit,
           json::array({finiteOrNull(spread.median_lower_rate), finiteOrNull(spread.median_upper_rate)})},
          {"confidence", finiteOrNull(spread.confidence)},
          {"noise", finiteOrNull(spread.noise)},
          {"stopped", toString(spread.stopped)},
          {"measured_seconds", finiteOrNull(spread.measured_seconds)}};
}

CeilingSpread ceilingSpreadFromJson(const json& j, const char* unit_key) {
  const std::string unit = unit_key;
  CeilingSpread spread;
  spread.min_rate = numberOrNaN(j, "min_" + unit);
  spread.median_rate = numberOrNaN(j, "median_" + unit);
  spread.max_rate = numberOrNaN(j, "max_" + unit);
  spread.median_lower_rate = spread.median_upper_rate = std::numeric_limits<double>::quiet_NaN();
  if (const json* interval = member(j, "median_interval_" + unit);
      interval != nullptr && interval->is_array() && interval->size() == 2) {
    if ((*interval)[0].is_number()) spread.median_lower_rate = (*interval)[0].get<double>();
    if ((*interval)[1].is_number()) spread.median_upper_rate = (*interval)[1].get<double>();
  }
  spread.confidence = numberOrNaN(j, "confidence");
  spread.noise = optionalNumber(j, "noise");
  spread.stopped = parseStopDecision(textOr(j, "stopped")).value_or(StopDecision::keep_going);
  spread.measured_seconds = numberOrNaN(j, "measured_seconds");
  return spread;
}

json toJson(const NoiseTarget& rule) {
  return {{"min_repetitions", rule.min_repetitions},      {"max_repetitions", rule.max_repetitions},
          {"max_noise", finiteOrNull(rule.max_noise)},    {"confidence", finiteOrNull(rule.confidence)},
          {"min_seconds", finiteOrNull(rule.min_time_s)}, {"max_seconds", finiteOrNull(rule.max_time_s)}};
}

NoiseTarget noiseTargetFromJson(const json& j) {
  NoiseTarget rule;
  rule.min_repetitions = integerOr<std::size_t>(j, "min_repetitions", rule.min_repetitions);
  rule.max_repetitions = integerOr<std::size_t>(j, "max_repetitions", rule.max_repetitions);
  rule.max_noise = numberOrNaN(j, "max_noise");
  rule.confidence = numberOrNaN(j, "confidence");
  rule.min_time_s = numberOrNaN(j, "min_seconds");
  rule.max_time_s = numberOrNaN(j, "max_seconds");
  return rule;
}

json toJson(const HostCondition& host) {
  json j = {{"cpu_governor", textOrNull(host.cpu_governor)},
            {"load_average_1min", finiteOrNull(host.load_average_1min)},
            {"core_count", host.core_count ? json(*host.core_count) : json(nullptr)}};
  if (host.gpu_sm_clock)
    j["gpu_sm_clock_mhz"] = {{"min", host.gpu_sm_clock->min_mhz},
                             {"max", host.gpu_sm_clock->max_mhz},
                             {"samples", host.gpu_sm_clock->count}};
  if (host.gpu_sm_clock_unavailable) j["gpu_sm_clock_unavailable"] = *host.gpu_sm_clock_unavailable;
  return j;
}

HostCondition hostConditionFromJson(const json& j) {
  HostCondition host;
  host.cpu_governor = optionalText(j, "cpu_governor");
  host.load_average_1min = optionalNumber(j, "load_average_1min");
  host.core_count = optionalInteger<unsigned>(j, "core_count");
  if (const json* clock = member(j, "gpu_sm_clock_mhz"); clock != nullptr && clock->is_object())
    host.gpu_sm_clock = GpuClockSamples{numberOrNaN(*clock, "min"), numberOrNaN(*clock, "max"),
                                        integerOr<std::size_t>(*clock, "samples", 0)};
  host.gpu_sm_clock_unavailable = optionalText(j, "gpu_sm_clock_unavailable");
  return host;
}

// A benchmark's launch and sizes, each count written only where it applies to the benchmark.
json toJson(const BenchmarkShape& shape) {
  json j = json::object();
  const auto put = [&j](const char* key, std::uint64_t value) {
    if (value > 0) j[key] = value;
  };
  put("global_items", shape.global_items);
  put("local_items", shape.local_items);
  if (!shape.element_type.empty()) j["element_type"] = shape.element_type;
  put("buffers", std::uint64_t(shape.buffers));
  put("buffer_bytes", shape.buffer_bytes);
  put("elements_per_item", shape.elements_per_item);
  if (shape.contiguous_chunks) j["contiguous_chunks"] = true;
  put("chains", std::uint64_t(shape.chains));
  put("iterations", shape.iterations);
  put("steps_per_iteration", std::uint64_t(shape.steps_per_iteration));
  put("tile_bytes", shape.tile_bytes);
  put("warp_items", shape.warp_items);
  put("cache_bytes", shape.cache_bytes);
  if (shape.cache_source != CacheSizeSource::none) j["cache_source"] = toString(shape.cache_source);
  put("device_cache_bytes", shape.device_cache_bytes);
  return j;
}

BenchmarkShape benchmarkShapeFromJson(const json& j) {
  BenchmarkShape shape;
  shape.global_items = integerOr<std::uint64_t>(j, "global_items", 0);
  shape.local_items = integerOr<std::uint64_t>(j, "local_items", 0);
  shape.element_type = textOr(j, "element_type");
  shape.buffers = integerOr<int>(j, "buffers", 0);
  shape.buffer_bytes = integerOr<std::uint64_t>(j, "buffer_bytes", 0);
  shape.elements_per_item = integerOr<std::uint64_t>(j, "elements_per_item", 0);
  shape.contiguous_chunks = boolOr(j, "contiguous_chunks", false);
  shape.chains = integerOr<int>(j, "chains", 0);
  shape.iterations = integerOr<std::uint64_t>(j, "iterations", 0);
  shape.steps_per_iteration = integerOr<int>(j, "steps_per_iteration", 0);
  shape.tile_bytes = integerOr<std::uint64_t>(j, "tile_bytes", 0);
  shape.warp_items = integerOr<std::uint32_t>(j, "warp_items", 0);
  shape.cache_bytes = integerOr<std::uint64_t>(j, "cache_bytes", 0);
  shape.cache_source = parseCacheSizeSource(textOr(j, "cache_source")).value_or(CacheSizeSource::none);
  shape.device_cache_bytes = integerOr<std::uint64_t>(j, "device_cache_bytes", 0);
  return shape;
}

CeilingBenchmark ceilingBenchmarkFromJson(const json& j) {
  CeilingBenchmark b;
  b.name = textOr(j, "name");
  // The unit is not written; the keys say it (toJson names them after it).
  const bool bandwidth = j.contains("gbps") || j.contains("bytes_per_run");
  // int32_mad's rate counts integer operations, under the same keys as the flops.
  b.unit = bandwidth ? "GB/s" : b.name == "int32_mad" ? "GOP/s" : b.name == "warp_issue" ? "warp GIPS" : "GFLOP/s";
  b.best_rate = optionalNumber(j, bandwidth ? "gbps" : "gflops");
  b.median_rate = optionalNumber(j, bandwidth ? "median_gbps" : "median_gflops");
  b.best_kernel_ns = integerOr<std::int64_t>(j, "best_kernel_ns", 0);
  b.repetitions = integerOr<int>(j, "repetitions", 0);
  b.work_per_run = numberOr(j, bandwidth ? "bytes_per_run" : "flops_per_run", 0);
  // An older file wrote the launch as a sentence; it is kept as written.
  if (const json* geometry = member(j, "geometry"); geometry != nullptr) {
    if (geometry->is_string()) b.geometry_as_saved = geometry->get<std::string>();
    if (geometry->is_object()) b.shape = benchmarkShapeFromJson(*geometry);
  }
  b.error = optionalText(j, "error");
  b.kernel = textOr(j, "kernel");
  b.vector_width = integerOr<int>(j, "vector_width", 0);
  if (const json* spread = member(j, "spread"); spread != nullptr && spread->is_object())
    b.spread = ceilingSpreadFromJson(*spread, bandwidth ? "gbps" : "gflops");
  return b;
}

// A roofline model entry: an object with a key and numeric roofs. Anything else under "models"
// (a future report, a broken entry) is not a model, and reports never placed records on it.
std::optional<DeviceModel> deviceModelOrNothing(const json& j) {
  if (!j.is_object() || !optionalNumber(j, "peak_gflops") || !optionalNumber(j, "dram_gbps") || !optionalText(j, "key"))
    return std::nullopt;
  try {
    return deviceModelFromJson(j);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

json toJson(const DeviceInfo& d) {
  json j = {{"platform", d.platform},
            {"platform_index", d.platform_index},
            {"device_index", d.device_index},
            {"name", d.name},
            {"vendor", d.vendor},
            {"type", d.type},
            {"opencl_version", d.opencl_version},
            {"driver_version", d.driver_version},
            {"compute_units", d.compute_units},
            {"clock_mhz", d.clock_mhz},
            {"global_mem_bytes", d.global_mem_bytes},
            {"local_mem_bytes", d.local_mem_bytes},
            {"max_alloc_bytes", d.max_alloc_bytes},
            {"max_work_group_size", d.max_work_group_size},
            {"max_work_item_sizes", d.max_work_item_sizes},
            {"timer_resolution_ns", d.timer_resolution_ns}};
  if (d.global_mem_cache_bytes > 0) j["global_mem_cache_bytes"] = d.global_mem_cache_bytes;
  return j;
}

DeviceInfo deviceInfoFromJson(const json& j) {
  DeviceInfo d;
  d.platform_index = integerOr<int>(j, "platform_index", 0);
  d.device_index = integerOr<int>(j, "device_index", 0);
  d.platform = textOr(j, "platform");
  d.name = textOr(j, "name");
  d.vendor = textOr(j, "vendor");
  d.type = textOr(j, "type");
  d.opencl_version = textOr(j, "opencl_version");
  d.driver_version = textOr(j, "driver_version");
  d.compute_units = integerOr<std::uint32_t>(j, "compute_units", 0);
  d.clock_mhz = integerOr<std::uint32_t>(j, "clock_mhz", 0);
  d.global_mem_bytes = integerOr<std::uint64_t>(j, "global_mem_bytes", 0);
  d.local_mem_bytes = integerOr<std::uint64_t>(j, "local_mem_bytes", 0);
  d.max_alloc_bytes = integerOr<std::uint64_t>(j, "max_alloc_bytes", 0);
  d.max_work_group_size = integerOr<std::size_t>(j, "max_work_group_size", 0);
  if (const json* sizes = member(j, "max_work_item_sizes"); sizes != nullptr && sizes->is_array())
    for (const json& size : *sizes)
      if (size.is_number()) d.max_work_item_sizes.push_back(size.get<std::size_t>());
  d.timer_resolution_ns = integerOr<std::uint64_t>(j, "timer_resolution_ns", 0);
  d.global_mem_cache_bytes = integerOr<std::uint64_t>(j, "global_mem_cache_bytes", 0);
  return d;
}

json toJson(const CeilingBenchmark& benchmark) {
  const bool bandwidth = benchmark.unit == "GB/s";
  json j = {{"name", benchmark.name},
            {bandwidth ? "gbps" : "gflops", finiteOrNull(benchmark.best_rate)},
            {bandwidth ? "median_gbps" : "median_gflops", finiteOrNull(benchmark.median_rate)},
            {"best_kernel_ns", benchmark.best_kernel_ns},
            {"repetitions", benchmark.repetitions},
            {bandwidth ? "bytes_per_run" : "flops_per_run", benchmark.work_per_run},
            {"geometry", benchmark.geometry_as_saved ? json(*benchmark.geometry_as_saved) : toJson(benchmark.shape)},
            {"error", textOrNull(benchmark.error)}};
  // The ceilings-spread fields, written only when measured, so that older files re-write unchanged.
  if (!benchmark.kernel.empty()) j["kernel"] = benchmark.kernel;
  if (benchmark.vector_width > 0) j["vector_width"] = benchmark.vector_width;
  if (benchmark.spread) j["spread"] = toJson(*benchmark.spread, bandwidth ? "gbps" : "gflops");
  return j;
}

json toJson(const CeilingsReport& report) {
  json benchmarks = json::array();
  for (const CeilingBenchmark* benchmark : report.benchmarks()) benchmarks.push_back(toJson(*benchmark));
  // Only what names the device: the whole DeviceInfo is the document's "device".
  json j = {{"device",
             {{"name", report.device.name},
              {"platform", report.device.platform},
              {"type", report.device.type},
              {"driver_version", report.device.driver_version}}},
            {"measured_at", report.measured_at},
            {"benchmarks", benchmarks},
            {"model", report.model ? toJson(*report.model) : json(nullptr)}};
  // The DRAM-write, candidates and host fields, written only when measured, so that older files
  // re-write unchanged.
  if (report.dram_write) j["dram_write"] = toJson(*report.dram_write);
  if (!report.candidates.empty()) {
    json candidates = json::array();
    for (const CeilingBenchmark& candidate : report.candidates) candidates.push_back(toJson(candidate));
    j["candidates"] = candidates;
  }
  if (report.host) j["host"] = toJson(*report.host);
  // Beside the host it was judged from: "noisy_host": null there says the host looked quiet.
  writeHostNoise(j, report.host, report.noisy_host);
  if (report.repetition_rule) j["repetition_rule"] = toJson(*report.repetition_rule);
  // The L2 and typed-peak fields, likewise only when measured (or, for the L2, when it says why not).
  if (report.l2_read) j["l2_read"] = toJson(*report.l2_read);
  if (report.l2_not_measured) j["l2_not_measured"] = *report.l2_not_measured;
  if (report.fp64_fma) j["fp64_fma"] = toJson(*report.fp64_fma);
  if (report.int32_mad) j["int32_mad"] = toJson(*report.int32_mad);
  if (report.link) j["link"] = toJson(*report.link);
  if (report.launch) j["launch"] = toJson(*report.launch);
  if (report.warp_issue) j["warp_issue"] = toJson(*report.warp_issue);
  return j;
}

CeilingsReport ceilingsReportFromJson(const json& j) {
  CeilingsReport report;
  report.device = deviceInfoFromJson(objectOrEmpty(j, "device"));
  report.measured_at = textOr(j, "measured_at");
  if (const json* benchmarks = member(j, "benchmarks"); benchmarks != nullptr && benchmarks->is_array())
    for (const json& b : *benchmarks) {
      const std::pair<const char*, CeilingBenchmark*> slots[] = {{"dram_copy", &report.dram_copy},
                                                                 {"dram_read", &report.dram_read},
                                                                 {"fp32_fma", &report.fp32_fma},
                                                                 {"local_read", &report.local_read}};
      const CeilingBenchmark benchmark = ceilingBenchmarkFromJson(b);
      for (const auto& [name, slot] : slots)
        if (benchmark.name == name) *slot = benchmark;
    }
  if (const json* model = member(j, "model")) report.model = deviceModelOrNothing(*model);
  if (const json* write = member(j, "dram_write"); write != nullptr && write->is_object())
    report.dram_write = ceilingBenchmarkFromJson(*write);
  if (const json* candidates = member(j, "candidates"); candidates != nullptr && candidates->is_array())
    for (const json& candidate : *candidates)
      if (candidate.is_object()) report.candidates.push_back(ceilingBenchmarkFromJson(candidate));
  if (const json* host = member(j, "host"); host != nullptr && host->is_object())
    report.host = hostConditionFromJson(*host);
  report.noisy_host = hostNoiseFromJson(j);
  if (const json* rule = member(j, "repetition_rule"); rule != nullptr && rule->is_object())
    report.repetition_rule = noiseTargetFromJson(*rule);
  for (auto [key, slot] : {std::pair{"l2_read", &report.l2_read}, std::pair{"fp64_fma", &report.fp64_fma},
                           std::pair{"int32_mad", &report.int32_mad}, std::pair{"warp_issue", &report.warp_issue}})
    if (const json* benchmark = member(j, key); benchmark != nullptr && benchmark->is_object())
      *slot = ceilingBenchmarkFromJson(*benchmark);
  report.l2_not_measured = optionalText(j, "l2_not_measured");
  if (const json* link = member(j, "link"); link != nullptr && link->is_object())
    report.link = linkCeilingsFromJson(*link);
  if (const json* launch = member(j, "launch"); launch != nullptr && launch->is_object())
    report.launch = launchCeilingsFromJson(*launch);
  return report;
}

json toJson(const ResultsModels& models) {
  json out = json::object();
  for (const auto& [key, entry] : models.roofline_models) {
    out[key] = toJson(entry.model);
    if (entry.role) out[key]["role"] = toString(*entry.role);
  }
  if (models.ceilings) out["ceilings"] = toJson(*models.ceilings);
  return out;
}

ResultsModels resultsModelsFromJson(const json& j) {
  ResultsModels models;
  if (!j.is_object()) return models;
  for (const auto& [key, value] : j.items()) {
    if (key == "ceilings") {
      if (value.is_object()) models.ceilings = ceilingsReportFromJson(value);
    } else if (auto model = deviceModelOrNothing(value)) {
      models.roofline_models[key] = {std::move(*model), parseRooflineModelRole(textOr(value, "role"))};
    }
  }
  return models;
}

json toJson(const BatchSummary& s) {
  json j = {{"points", s.points},
            {"ok", s.ok},
            {"failed", s.failed},
            {"verification_failed", s.verification_failed},
            {"skipped", s.skipped}};
  if (s.not_run) j["not_run"] = *s.not_run;
  return j;
}

BatchSummary batchSummaryFromJson(const json& j) {
  BatchSummary s;
  s.points = integerOr<std::size_t>(j, "points", 0);
  s.ok = integerOr<std::size_t>(j, "ok", 0);
  s.failed = integerOr<std::size_t>(j, "failed", 0);
  s.verification_failed = integerOr<std::size_t>(j, "verification_failed", 0);
  s.skipped = integerOr<std::size_t>(j, "skipped", 0);
  s.not_run = optionalInteger<std::size_t>(j, "not_run");
  return s;
}

json toJson(const ResultsDocument& d) {
  json records = json::array();
  for (std::size_t i = 0; i < d.records.size(); ++i)
    records.push_back(toJson(d.records[i], conclusionsOf(d.analysis, i)));
  json j = {{"schema", d.schema},
            {"tool", {{"name", d.tool.name}, {"version", d.tool.version}}},
            {"status", toString(d.status)},
            {"started_at", d.started_at},
            {"finished_at", textOrNull(d.finished_at)},
            {"models", toJson(d.models)},
            {"input_errors", d.input_errors},
            {"records", records}};
  if (d.config) j["config"] = toJson(*d.config);
  if (d.device) j["device"] = toJson(*d.device);
  if (d.summary) j["summary"] = toJson(*d.summary);
  if (d.ceilings_seconds) j["ceilings_seconds"] = *d.ceilings_seconds;
  if (d.build_threads) j["build_threads"] = *d.build_threads;
  if (d.host) j["host"] = toJson(*d.host);
  writeHostNoise(j, d.host, d.noisy_host);
  if (d.cost) j["cost"] = toJson(*d.cost);
  if (d.drift_control) j["drift_control"] = toJson(*d.drift_control);
  if (d.ab) j["ab"] = toJson(*d.ab);
  if (!d.size_choices.empty()) {
    j["size_choices"] = json::array();
    for (const SizeChoice& choice : d.size_choices) j["size_choices"].push_back(toJson(choice));
  }
  if (d.launch_floor_ns) j["launch_floor_ns"] = finiteOrNull(*d.launch_floor_ns);
  if (!d.tuning.empty()) {
    j["tuning"] = json::array();
    for (const TuningResult& result : d.tuning) j["tuning"].push_back(toJson(result));
  }
  if (d.capture_timeline) j["capture_timeline"] = toJson(*d.capture_timeline);
  writeDevicesAndParts(d, j);
  return j;
}

ResultsDocument resultsDocumentFromJson(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("results: the document is not a JSON object");
  const auto schema = optionalNumber(j, "schema");
  if (!schema) throw std::invalid_argument("results: no \"schema\" number; not a rooflab results file");
  if (*schema < kOldestResultsSchema || *schema > kResultsSchema || *schema != std::floor(*schema))
    throw std::invalid_argument("results: schema " + formatNumber(*schema) + " is not supported (this rooflab reads " +
                                std::to_string(kOldestResultsSchema) + " to " + std::to_string(kResultsSchema) + ")");
  const json* records = member(j, "records");
  if (records == nullptr || !records->is_array())
    throw std::invalid_argument("results: \"records\" is missing or not an array");

  ResultsDocument d;
  const json& tool = objectOrEmpty(j, "tool");
  d.tool.name = textOr(tool, "name", d.tool.name);
  d.tool.version = textOr(tool, "version");
  // Reports have always read a document without a status as a finished one.
  d.status = member(j, "status") == nullptr ? BatchStatus::complete
                                            : parseBatchStatus(textOr(j, "status")).value_or(BatchStatus::running);
  d.started_at = textOr(j, "started_at");
  d.finished_at = optionalText(j, "finished_at");
  if (const json* config = member(j, "config"); config != nullptr && config->is_object())
    d.config = batchConfigFromJson(*config);
  if (const json* device = member(j, "device"); device != nullptr && device->is_object())
    d.device = deviceInfoFromJson(*device);
  d.models = resultsModelsFromJson(objectOrEmpty(j, "models"));
  d.input_errors = textList(j, "input_errors");
  for (std::size_t index = 0; index < records->size(); ++index) {
    const json& record = (*records)[index];
    if (!record.is_object())
      throw std::invalid_argument("results: records[" + std::to_string(index) + "] is not an object");
    AnalysedRecord read = analysedRecordFromJson(record);
    d.analysis.records.push_back(std::move(static_cast<RecordConclusions&>(read)));
    d.records.push_back(std::move(static_cast<RunRecord&>(read)));
  }
  if (const json* summary = member(j, "summary"); summary != nullptr && summary->is_object())
    d.summary = batchSummaryFromJson(*summary);
  d.ceilings_seconds = optionalNumber(j, "ceilings_seconds");
  d.build_threads = optionalInteger<int>(j, "build_threads");
  if (const json* host = member(j, "host"); host != nullptr && host->is_object()) d.host = hostConditionFromJson(*host);
  d.noisy_host = hostNoiseFromJson(j);
  if (const json* cost = member(j, "cost"); cost != nullptr && cost->is_object()) d.cost = batchCostFromJson(*cost);
  if (const json* drift = member(j, "drift_control"); drift != nullptr && drift->is_object())
    d.drift_control = driftControlSpecFromJson(*drift);
  if (const json* ab = member(j, "ab"); ab != nullptr && ab->is_object()) d.ab = abRunFromJson(*ab);
  if (const json* choices = member(j, "size_choices"); choices != nullptr && choices->is_array())
    for (const json& choice : *choices)
      if (choice.is_object()) d.size_choices.push_back(sizeChoiceFromJson(choice));
  d.launch_floor_ns = optionalNumber(j, "launch_floor_ns");
  if (const json* tuning = member(j, "tuning"); tuning != nullptr && tuning->is_array())
    for (const json& result : *tuning)
      if (result.is_object()) d.tuning.push_back(tuningResultFromJson(result));
  if (const json* timeline = member(j, "capture_timeline"); timeline != nullptr && timeline->is_object())
    d.capture_timeline = captureTimelineFromJson(*timeline);
  readDevicesAndParts(j, d);
  return d;
}

ResultsDocument readResultsFile(const std::filesystem::path& path) {
  const json document = readJsonFile(path);
  ResultsDocument read;
  try {
    read = resultsDocumentFromJson(document);
  } catch (const std::invalid_argument& e) {
    throw InputError(path.string() + ": " + e.what());
  }
  // A file of a thousand bad records says the first few, and how many more.
  constexpr std::size_t kShown = 20;
  const std::vector<std::string> problems = resultsProblems(document, read);
  if (problems.empty()) return read;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < problems.size() && i < kShown; ++i) lines.push_back(path.string() + ": " + problems[i]);
  if (problems.size() > kShown)
    lines.push_back(path.string() + ": ... and " + std::to_string(problems.size() - kShown) + " more problems");
  lines.push_back(path.string() + ": not read: a results file must hold finite numbers in range, each record once");
  throw InputErrors(std::move(lines));
}

}  // namespace rooflab
