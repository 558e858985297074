#include "reports/results_view.hpp"

#include <algorithm>
#include <stdexcept>

#include "reports/number_format.hpp"

namespace rooflab::reports {

void requireSupportedResults(const json& results) {
  if (!results.is_object()) throw std::invalid_argument("results: the document is not a JSON object");
  const auto schema = numberAt(results, "schema");
  if (!schema) throw std::invalid_argument("results: no \"schema\" number; not a rooflab results file");
  if (*schema != kSupportedResultsSchema) {
    throw std::invalid_argument("results: schema " + formatRoundTrip(*schema) + " is not supported (this rooflab reads " +
                                std::to_string(kSupportedResultsSchema) + ")");
  }
  const json* records = memberOrNull(results, "records");
  if (records == nullptr || !records->is_array()) {
    throw std::invalid_argument("results: \"records\" is missing or not an array");
  }
  for (std::size_t index = 0; index < records->size(); ++index) {
    if (!(*records)[index].is_object()) {
      throw std::invalid_argument("results: records[" + std::to_string(index) + "] is not an object");
    }
  }
}

const json* memberOrNull(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  return &*found;
}

std::optional<double> numberAt(const json& object, std::string_view key) {
  const json* value = memberOrNull(object, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::string textAt(const json& object, std::string_view key, std::string_view fallback) {
  const json* value = memberOrNull(object, key);
  if (value == nullptr) return std::string(fallback);
  if (value->is_string()) return value->get<std::string>();
  if (value->is_number()) return paramValueText(*value);
  return value->dump();
}

std::string paramValueText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number_float()) return formatRoundTrip(value.get<double>());
  return value.dump();
}

std::string recordParamsText(const json& record, std::string_view separator) {
  const json* params = memberOrNull(record, "params");
  if (params == nullptr || !params->is_object()) return "";
  std::vector<std::string> names;
  if (const json* order = memberOrNull(record, "param_order"); order != nullptr && order->is_array()) {
    for (const json& name : *order) {
      if (name.is_string() && params->contains(name.get<std::string>())) names.push_back(name.get<std::string>());
    }
  }
  for (const auto& [name, value] : params->items()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += separator;
    text += name + "=" + paramValueText((*params)[name]);
  }
  return text;
}

const json& recordsOf(const json& results) {
  static const json no_records = json::array();
  const json* records = memberOrNull(results, "records");
  return records != nullptr && records->is_array() ? *records : no_records;
}

std::vector<std::string> familiesInRunOrder(const json& results) {
  std::vector<std::string> families;
  for (const json& record : recordsOf(results)) {
    const std::string family = textAt(record, "family", "(no family)");
    if (std::find(families.begin(), families.end(), family) == families.end()) families.push_back(family);
  }
  return families;
}

std::vector<const json*> recordsOfFamily(const json& results, std::string_view family) {
  std::vector<const json*> records;
  for (const json& record : recordsOf(results)) {
    if (textAt(record, "family", "(no family)") == family) records.push_back(&record);
  }
  return records;
}

std::string referenceModelKey(const json& results) {
  if (const json* config = memberOrNull(results, "config")) {
    if (const json* run = memberOrNull(*config, "run")) {
      const std::string key = textAt(*run, "reference_model");
      if (!key.empty()) return key;
    }
  }
  return "gtx670";
}

bool isRooflineModel(const json& model) {
  return numberAt(model, "peak_gflops").has_value() && numberAt(model, "dram_gbps").has_value();
}

std::vector<std::string> modelKeysInOrder(const json& results) {
  std::vector<std::string> keys;
  const json* models = memberOrNull(results, "models");
  if (models == nullptr || !models->is_object()) return keys;
  auto addIfModel = [&](const std::string& key) {
    const json* model = memberOrNull(*models, key);
    if (model != nullptr && isRooflineModel(*model) && std::find(keys.begin(), keys.end(), key) == keys.end()) {
      keys.push_back(key);
    }
  };
  addIfModel(referenceModelKey(results));
  addIfModel("device");
  for (const auto& [key, model] : models->items()) addIfModel(key);
  return keys;
}

std::vector<std::string> placementKeysInOrder(const json& results) {
  std::vector<std::string> seen;
  for (const json& record : recordsOf(results)) {
    const json* roofline = memberOrNull(record, "roofline");
    if (roofline == nullptr || !roofline->is_object()) continue;
    for (const auto& [key, placement] : roofline->items()) {
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
    // Every model gets its columns even when no record could be placed on it.
    keys.push_back(model_key);
    seen.erase(std::remove(seen.begin(), seen.end(), model_key), seen.end());
    take(model_key + "_counters");
  }
  std::sort(seen.begin(), seen.end());
  keys.insert(keys.end(), seen.begin(), seen.end());
  return keys;
}

namespace {
constexpr std::string_view kCountersSuffix = "_counters";

const json* modelAt(const json& results, const std::string& model_key) {
  const json* models = memberOrNull(results, "models");
  return models != nullptr ? memberOrNull(*models, model_key) : nullptr;
}
}  // namespace

std::string modelShortName(const json& results, const std::string& model_key) {
  const json* model = modelAt(results, model_key);
  if (model == nullptr && model_key.size() > kCountersSuffix.size() &&
      model_key.compare(model_key.size() - kCountersSuffix.size(), kCountersSuffix.size(), kCountersSuffix) == 0) {
    return modelShortName(results, model_key.substr(0, model_key.size() - kCountersSuffix.size())) + " (counters)";
  }
  std::string name = model != nullptr ? textAt(*model, "display_name", model_key) : model_key;
  if (!name.empty() && name.back() == ')') {
    const auto open = name.rfind(" (");
    if (open != std::string::npos && open > 0) name.erase(open);
  }
  return name;
}

std::string modelRole(const json& results, const std::string& model_key) {
  const json* model = modelAt(results, model_key);
  return model != nullptr ? textAt(*model, "role") : "";
}

std::optional<double> medianKernelNs(const json& record) {
  const json* timings = memberOrNull(record, "timings");
  if (timings == nullptr) return std::nullopt;
  const json* kernel = memberOrNull(*timings, "kernel_ns");
  return kernel != nullptr ? numberAt(*kernel, "median") : std::nullopt;
}

std::optional<double> achievedGflops(const json& record) {
  const json* timings = memberOrNull(record, "timings");
  return timings != nullptr ? numberAt(*timings, "gflops") : std::nullopt;
}

std::optional<double> achievedGbps(const json& record) {
  const json* timings = memberOrNull(record, "timings");
  return timings != nullptr ? numberAt(*timings, "gbps") : std::nullopt;
}

const json* placementOn(const json& record, const std::string& model_key) {
  const json* roofline = memberOrNull(record, "roofline");
  return roofline != nullptr ? memberOrNull(*roofline, model_key) : nullptr;
}

std::string verificationText(const json& record) {
  const json* verification = memberOrNull(record, "verification");
  if (verification == nullptr) return "not checked";
  const std::string status = textAt(*verification, "status", "not_checked");
  const auto error = numberAt(*verification, "rel_l2_error");
  const std::string error_text = error ? "rel. err " + formatSignificant(*error, 2) : "";
  if (status == "passed") return error ? "passed (" + error_text + ")" : "passed";
  if (status == "failed") {
    std::string text = "FAILED";
    std::string detail = error_text;
    if (const auto wrong = numberAt(*verification, "wrong_elements")) {
      detail += (detail.empty() ? "" : ", ") + formatFixed(*wrong, 0) + " wrong";
    }
    return detail.empty() ? text : text + " (" + detail + ")";
  }
  if (status == "not_checked") return "not checked";
  return status;  // reference | skipped | anything newer
}

bool isNormalMode(const json& record) { return textAt(record, "mode", "normal") == "normal"; }

bool isOk(const json& record) { return textAt(record, "status") == "ok"; }

}  // namespace rooflab::reports
