#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/record_text.hpp"

// Read access to a results document (docs/results-schema.md) for the reporters. Every accessor
// tolerates missing keys, nulls and wrong types, because reporters also render interrupted runs and
// files written by older versions: a value that is not there is std::nullopt or an empty string.
namespace rooflab::reports {

using nlohmann::json;

inline constexpr int kSupportedResultsSchema = 1;

// Throws std::invalid_argument unless `results` is a schema-1 results document with a records array.
void requireSupportedResults(const json& results);

// The member's value, or nullptr when `object` is not an object, lacks `key` or holds null there.
const json* memberOrNull(const json& object, std::string_view key);
std::optional<double> numberAt(const json& object, std::string_view key);
std::string textAt(const json& object, std::string_view key, std::string_view fallback = "");

// One parameter value as text: integers exactly, floats round-trip, strings as they are.
std::string paramValueText(const json& value);
// "N=1024, TS=16" (separator ", ") or "N=1024;TS=16" (CSV). Names follow the record's
// "param_order" (the manifest's order) where it has one, then the rest alphabetically.
std::string recordParamsText(const json& record, std::string_view separator = ", ");

const json& recordsOf(const json& results);  // the records array (an empty array when absent)
// Families in the order their first record appears (the batch's order, not alphabetical).
std::vector<std::string> familiesInRunOrder(const json& results);
std::vector<const json*> recordsOfFamily(const json& results, std::string_view family);

// A roofline model: an object with numeric peak_gflops and dram_gbps. results.models also holds
// entries that are not (the "ceilings" benchmark report).
bool isRooflineModel(const json& model);
// Keys of the roofline models in results.models: the reference model (config.run.reference_model,
// else "gtx670") first, then "device", then the others, so every report lists them in one order.
std::vector<std::string> modelKeysInOrder(const json& results);
// Keys of the placements in record.roofline across all records: each model key followed by its
// "<key>_counters" twin (intensity from measured FLOPs and DRAM bytes) where records have one.
std::vector<std::string> placementKeysInOrder(const json& results);
std::string referenceModelKey(const json& results);
// A model's display name without its trailing "(...)": "GeForce GTX 670", "NVIDIA H100 80GB HBM3".
// A placement key "<model>_counters" names its model's name with " (counters)".
std::string modelShortName(const json& results, const std::string& model_key);
// The model's "role" as the analyzer wrote it (reference | measured | datasheet), or "".
std::string modelRole(const json& results, const std::string& model_key);

std::optional<double> medianKernelNs(const json& record);
std::optional<double> achievedGflops(const json& record);
std::optional<double> achievedGbps(const json& record);
// The record's roofline placement on a model, or nullptr.
const json* placementOn(const json& record, const std::string& model_key);
// "passed (rel. err 1.7e-07)", "FAILED (rel. err 0.41, 49152 wrong)", "reference", "not checked".
std::string verificationText(const json& record);
bool isNormalMode(const json& record);
bool isOk(const json& record);

}  // namespace rooflab::reports
