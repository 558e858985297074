#pragma once
// A batch on several devices, and a batch run in parts and merged: what a results document says about
// them (docs/results-schema.md, "Several devices" and "Parts of a batch"). Types and names only.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

// Which part of a batch a run is (`rooflab run --shard I/N`): the plan's groups dealt out in turn.
struct BatchPart {
  std::size_t index = 1;  // 1-based
  std::size_t count = 1;
  std::string source;  // where I/N came from: "--shard 2/3", "SLURM_ARRAY_TASK_ID=1 ..."
  // Points of every part, part 1 first: what `rooflab merge` says a missing part held.
  std::vector<std::size_t> part_points;
  // This part's points (RunRecord::label), in plan order, with their index in the whole plan: what a
  // merge finds missing, and the order it puts records in.
  std::vector<std::string> points;
  std::vector<std::size_t> plan_indices;
};

// What makes two runs parts of the same batch: hashes of the plan (every point as resolved: sizes,
// geometry, options), of the kernels' sources and the manifests as they were read, and of the settings
// that shape a measurement.
struct BatchIdentity {
  std::string id;          // 16 hexadecimal digits: the hash of `components`
  std::size_t points = 0;  // planned points of the whole batch
  std::optional<BatchPart> part;
  // Hashes of what the batch is made of, by name: "plan", "sources" (every planned variant's program
  // with the headers it includes), "manifests", "settings"; empty in files written before them.
  std::map<std::string, std::string> components;
};

// One part a merged document was joined from.
struct MergedPart {
  std::size_t index = 1;
  std::string path;
  std::size_t records = 0;
  std::string device;  // the device that ran it, by name
};

// A document made by `rooflab merge`: its parts and what they lacked.
struct MergeSummary {
  std::size_t parts = 0;  // N of every part's I/N
  std::vector<MergedPart> merged;
  std::vector<std::size_t> missing_parts;
  std::vector<std::string> missing_points;  // labels of planned points no part has a record of
  std::vector<std::string> duplicates;      // records two parts hold: the first one's is kept
};

}  // namespace rooflab
