#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/results_document.hpp"

// The families, roofline models and placements of a run: which there are, in the one order every
// report lists them, and the names they go by.
namespace rooflab::reports {

// Families in the order their first record appears (the batch's order, not alphabetical).
std::vector<std::string> familiesInRunOrder(const AnalysedResults& results);
std::vector<const AnalysedRecord*> recordsOfFamily(const AnalysedResults& results, std::string_view family);
// The pointers point into `results`: a temporary one (a document read as its analysed records) would
// leave them dangling.
std::vector<const AnalysedRecord*> recordsOfFamily(AnalysedResults&& results, std::string_view family) = delete;

// config.run.reference_model, else "gtx670".
std::string referenceModelKey(const AnalysedResults& results);
// The roofline models: the reference model first, then "device", then the others.
std::vector<std::string> modelKeysInOrder(const AnalysedResults& results);
// Keys of the placements in record.roofline across all records: each model key (even where no record
// could be placed on it) followed, where records have them, by its level placements in the order
// "<key>_global" (CGMA), "<key>_counters" (measured FLOPs and DRAM bytes), "<key>_l1", "<key>_l2",
// "<key>_local"; then any other key alphabetically.
std::vector<std::string> placementKeysInOrder(const AnalysedResults& results);
// A model's display name without its trailing "(...)": "GeForce GTX 670", "NVIDIA H100 80GB HBM3".
// A placement key "<model>_counters" names its model's name with " (counters)".
std::string modelShortName(const AnalysedResults& results, const std::string& key);
// "reference", "measured" or "datasheet" as the analyzer recorded it, or "".
std::string modelRoleText(const AnalysedResults& results, const std::string& key);

// The record's placement on a model, or nullptr.
const RooflinePlacement* placementOn(const AnalysedRecord& record, const std::string& key);

}  // namespace rooflab::reports
