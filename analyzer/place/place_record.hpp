#pragma once
// The place step: a record on every roofline model and memory level.
#include <map>
#include <string>

#include "analyzer/data/roofline.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// A record's placements, by key: one per model (analytic intensity at the compulsory DRAM
// bytes), one per model with the counters' intensity (key "<model>_counters") when counters measured
// FLOPs and DRAM bytes, and one per further memory level (levelPlacementKey): global (declared
// accesses), l1 and l2 (counters), local (counters' shared bytes, else the declared local accesses).
// Local-memory accesses are counted as 4-byte words.
std::map<std::string, RooflinePlacement> placeRecord(const RunRecord& record, const RooflineModels& models);

}  // namespace rooflab
