#include "reports/text/results_order.hpp"

#include <algorithm>

namespace rooflab::reports {
namespace {

constexpr std::string_view kCountersSuffix = "_counters";

const RooflineModelEntry* modelAt(const AnalysedResults& results, const std::string& key) {
  const auto found = results.models.roofline_models.find(key);
  return found != results.models.roofline_models.end() ? &found->second : nullptr;
}

}  // namespace

std::vector<std::string> familiesInRunOrder(const AnalysedResults& results) {
  std::vector<std::string> families;
  for (const AnalysedRecord& record : results.records) {
    if (std::find(families.begin(), families.end(), record.family) == families.end()) families.push_back(record.family);
  }
  return families;
}

std::vector<const AnalysedRecord*> recordsOfFamily(const AnalysedResults& results, std::string_view family) {
  std::vector<const AnalysedRecord*> records;
  for (const AnalysedRecord& record : results.records) {
    if (record.family == family) records.push_back(&record);
  }
  return records;
}

std::string referenceModelKey(const AnalysedResults& results) {
  if (results.config && !results.config->run.reference_model.empty()) return results.config->run.reference_model;
  return "gtx670";
}

std::vector<std::string> modelKeysInOrder(const AnalysedResults& results) {
  std::vector<std::string> keys;
  auto addIfModel = [&](const std::string& key) {
    if (modelAt(results, key) != nullptr && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  addIfModel(referenceModelKey(results));
  addIfModel("device");
  for (const auto& [key, model] : results.models.roofline_models) addIfModel(key);
  return keys;
}

std::vector<std::string> placementKeysInOrder(const AnalysedResults& results) {
  std::vector<std::string> seen;
  for (const AnalysedRecord& record : results.records) {
    for (const auto& [key, placement] : record.roofline) {
      if (std::find(seen.begin(), seen.end(), key) == seen.end()) seen.push_back(key);
    }
  }
  std::vector<std::string> keys;
  auto take = [&](const std::string& key) {
    const auto found = std::find(seen.begin(), seen.end(), key);
    if (found != seen.end()) {
      keys.push_back(key);
      seen.erase(found);
    }
  };
  for (const std::string& model_key : modelKeysInOrder(results)) {
    keys.push_back(model_key);
    seen.erase(std::remove(seen.begin(), seen.end(), model_key), seen.end());
    take(levelPlacementKey(model_key, MemoryLevel::global));
    take(model_key + std::string(kCountersSuffix));
    // The counters' levels, from the core outwards, beside their model's other placements.
    for (MemoryLevel level : {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::local})
      take(levelPlacementKey(model_key, level));
  }
  std::sort(seen.begin(), seen.end());
  keys.insert(keys.end(), seen.begin(), seen.end());
  return keys;
}

std::string modelShortName(const AnalysedResults& results, const std::string& key) {
  const RooflineModelEntry* model = modelAt(results, key);
  if (model == nullptr && key.size() > kCountersSuffix.size() &&
      key.compare(key.size() - kCountersSuffix.size(), kCountersSuffix.size(), kCountersSuffix) == 0) {
    return modelShortName(results, key.substr(0, key.size() - kCountersSuffix.size())) + " (counters)";
  }
  std::string name = model != nullptr ? model->model.display_name : key;
  if (!name.empty() && name.back() == ')') {
    const auto open = name.rfind(" (");
    if (open != std::string::npos && open > 0) name.erase(open);
  }
  return name;
}

std::string modelRoleText(const AnalysedResults& results, const std::string& key) {
  const RooflineModelEntry* model = modelAt(results, key);
  return model != nullptr && model->role ? toString(*model->role) : "";
}

const RooflinePlacement* placementOn(const AnalysedRecord& record, const std::string& key) {
  const auto found = record.roofline.find(key);
  return found != record.roofline.end() ? &found->second : nullptr;
}

}  // namespace rooflab::reports
