// The JSON edge of a record's source lines (docs/results-schema.md, "Source lines"): the program's
// files, the warp samples per line and a mutant's changed lines. Each is written only when the record
// holds it, so that results written before them re-write byte for byte.
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json sourceFilesJson(const std::vector<SourceFileText>& files) {
  json out = json::array();
  for (const SourceFileText& file : files) out.push_back({{"path", file.path}, {"lines", file.lines}});
  return out;
}

std::vector<SourceFileText> sourceFilesFromJson(const json& files) {
  std::vector<SourceFileText> out;
  for (const json& file : files)
    if (file.is_object()) out.push_back({textOr(file, "path"), textList(file, "lines")});
  return out;
}

json lineSamplesJson(const LineSamples& line) {
  json stalls = json::array();
  for (const StallReasonSamples& stall : line.stalls)
    stalls.push_back({{"reason", stall.reason}, {"samples", stall.samples}});
  return {{"file", line.where.file},
          {"line", line.where.line},
          {"samples", line.samples},
          {"sampled_instructions", line.sampled_instructions},
          {"stalls", stalls}};
}

LineSamples lineSamplesFromJson(const json& j) {
  LineSamples line;
  line.where = {textOr(j, "file"), integerOr<int>(j, "line", 0)};
  line.samples = integerOr<std::int64_t>(j, "samples", 0);
  line.sampled_instructions = integerOr<int>(j, "sampled_instructions", 0);
  if (const json* stalls = member(j, "stalls"); stalls != nullptr && stalls->is_array())
    for (const json& stall : *stalls)
      if (stall.is_object())
        line.stalls.push_back({textOr(stall, "reason"), integerOr<std::int64_t>(stall, "samples", 0)});
  return line;
}

json mutantLineChangesJson(const std::vector<MutantLineChange>& changes) {
  json out = json::array();
  for (const MutantLineChange& change : changes) {
    json kinds = json::array();
    for (MutantLineChangeKind kind : change.kinds) kinds.push_back(toString(kind));
    out.push_back({{"file", change.where.file}, {"line", change.where.line}, {"kinds", kinds}});
  }
  return out;
}

// A kind this rooflab does not know (a newer file's) is skipped: the line keeps the kinds it knows.
std::vector<MutantLineChange> mutantLineChangesFromJson(const json& changes) {
  std::vector<MutantLineChange> out;
  for (const json& change : changes) {
    if (!change.is_object()) continue;
    MutantLineChange read;
    read.where = {textOr(change, "file"), integerOr<int>(change, "line", 0)};
    for (const std::string& name : textList(change, "kinds"))
      if (const auto kind = parseMutantLineChangeKind(name)) read.kinds.push_back(*kind);
    out.push_back(std::move(read));
  }
  return out;
}

}  // namespace

json toJson(const LineSampling& sampling) {
  if (!sampling.available) return {{"available", false}, {"reason", sampling.reason}};
  json lines = json::array();
  for (const LineSamples& line : sampling.lines) lines.push_back(lineSamplesJson(line));
  return {{"available", true},
          {"sampling_period_log2", sampling.sampling_period_log2},
          {"total_samples", sampling.total_samples},
          {"dropped_samples", sampling.dropped_samples},
          {"unattributed_samples", sampling.unattributed_samples},
          {"seconds", finiteOrNull(sampling.seconds)},
          {"lines", lines}};
}

LineSampling lineSamplingFromJson(const json& j) {
  LineSampling sampling;
  sampling.available = boolOr(j, "available", false);
  sampling.reason = textOr(j, "reason");
  sampling.sampling_period_log2 = integerOr<int>(j, "sampling_period_log2", 0);
  sampling.total_samples = integerOr<std::int64_t>(j, "total_samples", 0);
  sampling.dropped_samples = integerOr<std::int64_t>(j, "dropped_samples", 0);
  sampling.unattributed_samples = integerOr<std::int64_t>(j, "unattributed_samples", 0);
  sampling.seconds = numberOr(j, "seconds", 0);
  if (const json* lines = member(j, "lines"); lines != nullptr && lines->is_array())
    for (const json& line : *lines)
      if (line.is_object()) sampling.lines.push_back(lineSamplesFromJson(line));
  return sampling;
}

void writeSourceLines(const RunRecord& record, json& out) {
  if (!record.source_files.empty()) out["source_files"] = sourceFilesJson(record.source_files);
  if (record.line_sampling) out["line_sampling"] = toJson(*record.line_sampling);
  if (!record.mutant_line_changes.empty())
    out["mutant_line_changes"] = mutantLineChangesJson(record.mutant_line_changes);
}

void readSourceLines(const json& in, RunRecord& record) {
  if (const json* files = member(in, "source_files"); files != nullptr && files->is_array())
    record.source_files = sourceFilesFromJson(*files);
  if (const json* sampling = member(in, "line_sampling"); sampling != nullptr && sampling->is_object())
    record.line_sampling = lineSamplingFromJson(*sampling);
  if (const json* changes = member(in, "mutant_line_changes"); changes != nullptr && changes->is_array())
    record.mutant_line_changes = mutantLineChangesFromJson(*changes);
}

}  // namespace rooflab
