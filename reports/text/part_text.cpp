#include "reports/text/part_text.hpp"

#include <vector>

namespace rooflab::reports {
namespace {

// "1", "1 and 3", "1, 3 and 4"
std::string listed(const std::vector<std::size_t>& indices) {
  std::string text;
  for (std::size_t i = 0; i < indices.size(); ++i)
    text += (i == 0 ? "" : i + 1 == indices.size() ? " and " : ", ") + std::to_string(indices[i]);
  return text;
}

std::string mergedText(const MergeSummary& merge, const std::string& batch) {
  std::vector<std::size_t> given;
  for (const MergedPart& part : merge.merged) given.push_back(part.index);
  const std::string count = std::to_string(merge.parts);
  std::string text =
      "merged from part" + std::string(given.size() == 1 ? " " : "s ") + listed(given) + " of " + count + batch;
  for (std::size_t index : merge.missing_parts)
    text += "; part " + std::to_string(index) + " of " + count + " is missing (`rooflab run --shard " +
            std::to_string(index) + "/" + count + "`, then merge again)";
  if (!merge.missing_points.empty())
    text += "; " + std::to_string(merge.missing_points.size()) +
            (merge.missing_points.size() == 1 ? " point" : " points") + " of the parts given " +
            (merge.missing_points.size() == 1 ? "has" : "have") + " no record";
  return text;
}

}  // namespace

std::string batchPartText(const AnalysedResults& results) {
  const std::string batch = results.batch ? " of batch " + results.batch->id : "";
  if (results.merge) return mergedText(*results.merge, batch);
  if (!results.batch || !results.batch->part) return "";
  const BatchPart& part = *results.batch->part;
  return "part " + std::to_string(part.index) + " of " + std::to_string(part.count) + batch + " (" + part.source +
         "): " + std::to_string(part.points.size()) + " of its " + std::to_string(results.batch->points) +
         " points; `rooflab merge` joins the parts";
}

}  // namespace rooflab::reports
