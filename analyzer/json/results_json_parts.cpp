// The JSON edge of a batch on several devices and of a batch in parts (docs/results-schema.md,
// "Several devices" and "Parts of a batch"): "device_mode", "devices", "batch" and "merge".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const DeviceRun& run) {
  json j = {{"key", run.key}, {"device", toJson(run.info)}, {"models", toJson(run.models)}};
  if (run.ceilings_seconds) j["ceilings_seconds"] = finiteOrNull(run.ceilings_seconds);
  return j;
}

DeviceRun deviceRunFromJson(const json& j) {
  DeviceRun run;
  run.key = textOr(j, "key");
  run.info = deviceInfoFromJson(objectOrEmpty(j, "device"));
  run.models = resultsModelsFromJson(objectOrEmpty(j, "models"));
  run.ceilings_seconds = optionalNumber(j, "ceilings_seconds");
  return run;
}

template <class Int>
std::vector<Int> integerList(const json& object, std::string_view key) {
  std::vector<Int> out;
  if (const json* list = member(object, key); list != nullptr && list->is_array())
    for (const json& item : *list)
      if (item.is_number_unsigned()) out.push_back(item.get<Int>());
  return out;
}

json toJson(const BatchIdentity& batch) {
  json j = {{"id", batch.id}, {"points", batch.points}};
  if (!batch.components.empty()) j["components"] = batch.components;
  if (const auto& part = batch.part)
    j["part"] = {{"index", part->index},   {"count", part->count},
                 {"from", part->source},   {"part_points", part->part_points},
                 {"points", part->points}, {"plan_indices", part->plan_indices}};
  return j;
}

BatchIdentity batchIdentityFromJson(const json& j) {
  BatchIdentity batch;
  batch.id = textOr(j, "id");
  batch.points = integerOr<std::size_t>(j, "points", 0);
  if (const json* components = member(j, "components"); components != nullptr && components->is_object())
    for (const auto& [name, value] : components->items())
      if (value.is_string()) batch.components[name] = value.get<std::string>();
  if (const json* part = member(j, "part"); part != nullptr && part->is_object()) {
    BatchPart& read = batch.part.emplace();
    read.index = integerOr<std::size_t>(*part, "index", 1);
    read.count = integerOr<std::size_t>(*part, "count", 1);
    read.source = textOr(*part, "from");
    read.part_points = integerList<std::size_t>(*part, "part_points");
    read.points = textList(*part, "points");
    read.plan_indices = integerList<std::size_t>(*part, "plan_indices");
  }
  return batch;
}

json toJson(const MergeSummary& merge) {
  json merged = json::array();
  for (const MergedPart& part : merge.merged)
    merged.push_back({{"index", part.index}, {"path", part.path}, {"records", part.records}, {"device", part.device}});
  return {{"parts", merge.parts},
          {"merged", merged},
          {"missing_parts", merge.missing_parts},
          {"missing_points", merge.missing_points},
          {"duplicates", merge.duplicates}};
}

MergeSummary mergeSummaryFromJson(const json& j) {
  MergeSummary merge;
  merge.parts = integerOr<std::size_t>(j, "parts", 0);
  if (const json* merged = member(j, "merged"); merged != nullptr && merged->is_array())
    for (const json& part : *merged)
      if (part.is_object())
        merge.merged.push_back({integerOr<std::size_t>(part, "index", 1), textOr(part, "path"),
                                integerOr<std::size_t>(part, "records", 0), textOr(part, "device")});
  merge.missing_parts = integerList<std::size_t>(j, "missing_parts");
  merge.missing_points = textList(j, "missing_points");
  merge.duplicates = textList(j, "duplicates");
  return merge;
}

}  // namespace

void writeDevicesAndParts(const ResultsDocument& d, json& out) {
  if (d.device_mode) out["device_mode"] = toString(*d.device_mode);
  if (!d.device_runs.empty()) {
    json devices = json::array();
    for (const DeviceRun& run : d.device_runs) devices.push_back(toJson(run));
    out["devices"] = devices;
  }
  if (d.batch) out["batch"] = toJson(*d.batch);
  if (d.merge) out["merge"] = toJson(*d.merge);
}

void readDevicesAndParts(const json& in, ResultsDocument& d) {
  if (const auto mode = optionalText(in, "device_mode")) d.device_mode = parseDeviceMode(*mode);
  if (const json* devices = member(in, "devices"); devices != nullptr && devices->is_array())
    for (const json& run : *devices)
      if (run.is_object()) d.device_runs.push_back(deviceRunFromJson(run));
  if (const json* batch = member(in, "batch"); batch != nullptr && batch->is_object())
    d.batch = batchIdentityFromJson(*batch);
  if (const json* merge = member(in, "merge"); merge != nullptr && merge->is_object())
    d.merge = mergeSummaryFromJson(*merge);
}

}  // namespace rooflab
