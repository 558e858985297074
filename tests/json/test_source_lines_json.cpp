// The JSON edge of a record's source lines (analyzer/json/results_json_source_lines.cpp): the program's
// files, the warp samples per line, a mutant's changed lines and the diagnosis's hot line are written
// and read back whole; a record without them writes none of their keys.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"

using nlohmann::json;
using namespace rooflab;

namespace {

RunRecord originalWithSourceLines() {
  RunRecord r;
  r.family = "matmul";
  r.variant = "naive";
  r.source_files = {{"matmul.cl", {"__kernel void f(__global float* a) {", "  a[0] = 1.0f;", "}"}},
                    {"common.h", {"#define N 4"}}};
  LineSampling& s = r.line_sampling.emplace();
  s.available = true;
  s.sampling_period_log2 = 5;
  s.total_samples = 12000;
  s.dropped_samples = 12;
  s.unattributed_samples = 300;
  s.seconds = 0.25;
  s.lines = {{{"matmul.cl", 2}, 9000, {{"long_scoreboard", 7000}, {"selected", 2000}}, 4},
             {{"common.h", 1}, 2700, {{"wait", 2700}}, 1}};
  return r;
}

}  // namespace

TEST(SourceLinesJson, AnOriginalsFilesAndSamplesRoundTrip) {
  const RunRecord written = originalWithSourceLines();
  const json j = toJson(written);
  ASSERT_TRUE(j.contains("source_files"));
  EXPECT_EQ(j["source_files"][0]["path"], "matmul.cl");
  EXPECT_EQ(j["source_files"][0]["lines"][1], "  a[0] = 1.0f;");
  EXPECT_EQ(j["line_sampling"]["lines"][0]["stalls"][0]["reason"], "long_scoreboard");
  EXPECT_TRUE(j["line_sampling"]["total_samples"].is_number_integer());
  EXPECT_FALSE(j["line_sampling"].contains("reason"));
  EXPECT_FALSE(j.contains("mutant_line_changes"));

  const RunRecord read = runRecordFromJson(j);
  ASSERT_EQ(read.source_files.size(), 2u);
  EXPECT_EQ(read.source_files[1].path, "common.h");
  EXPECT_EQ(read.source_files[0].lines, written.source_files[0].lines);
  ASSERT_TRUE(read.line_sampling.has_value());
  const LineSampling& s = *read.line_sampling;
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.sampling_period_log2, 5);
  EXPECT_EQ(s.total_samples, 12000);
  EXPECT_EQ(s.dropped_samples, 12);
  EXPECT_EQ(s.unattributed_samples, 300);
  EXPECT_DOUBLE_EQ(s.seconds, 0.25);
  ASSERT_EQ(s.lines.size(), 2u);
  EXPECT_EQ(s.lines[0].where, (SourceLine{"matmul.cl", 2}));
  EXPECT_EQ(s.lines[0].samples, 9000);
  EXPECT_EQ(s.lines[0].sampled_instructions, 4);
  ASSERT_EQ(s.lines[0].stalls.size(), 2u);
  EXPECT_EQ(s.lines[0].stalls[1].reason, "selected");
  EXPECT_EQ(s.lines[0].stalls[1].samples, 2000);
  EXPECT_EQ(toJson(read), j);
}

TEST(SourceLinesJson, SamplingThatCouldNotRunKeepsOnlyItsReason) {
  RunRecord r;
  LineSampling& s = r.line_sampling.emplace();
  s.reason = "per-line sampling needs an NVIDIA GPU (CUPTI's PC sampling); this device is PoCL";
  const json j = toJson(r);
  EXPECT_EQ(j["line_sampling"], (json{{"available", false}, {"reason", s.reason}}));
  const RunRecord read = runRecordFromJson(j);
  ASSERT_TRUE(read.line_sampling.has_value());
  EXPECT_FALSE(read.line_sampling->available);
  EXPECT_EQ(read.line_sampling->reason, s.reason);
  EXPECT_TRUE(read.line_sampling->lines.empty());
}

TEST(SourceLinesJson, AMutantsChangedLinesRoundTripAndUnknownKindsAreSkipped) {
  RunRecord r;
  r.mode = RunMode::compute_only;
  r.mutant_line_changes = {{{"matmul.cl", 2}, {MutantLineChangeKind::kept, MutantLineChangeKind::made_up}},
                           {{"matmul.cl", 7}, {MutantLineChangeKind::guarded}}};
  const json j = toJson(r);
  EXPECT_EQ(j["mutant_line_changes"][0], (json{{"file", "matmul.cl"}, {"line", 2}, {"kinds", {"kept", "made-up"}}}));
  const RunRecord read = runRecordFromJson(j);
  ASSERT_EQ(read.mutant_line_changes.size(), 2u);
  EXPECT_EQ(read.mutant_line_changes[0].kinds, r.mutant_line_changes[0].kinds);
  EXPECT_EQ(read.mutant_line_changes[1].where, (SourceLine{"matmul.cl", 7}));
  EXPECT_EQ(toJson(read), j);

  json newer = j;
  newer["mutant_line_changes"][1]["kinds"] = {"guarded", "vectorised"};
  const RunRecord from_newer = runRecordFromJson(newer);
  EXPECT_EQ(from_newer.mutant_line_changes[1].kinds, std::vector<MutantLineChangeKind>{MutantLineChangeKind::guarded});
}

TEST(SourceLinesJson, ARecordWithoutThemWritesNoneOfTheirKeys) {
  RunRecord r;
  r.family = "vecadd";
  const json j = toJson(r);
  for (const char* key : {"source_files", "line_sampling", "mutant_line_changes"}) EXPECT_FALSE(j.contains(key)) << key;
  const RunRecord read = runRecordFromJson(j);
  EXPECT_TRUE(read.source_files.empty());
  EXPECT_FALSE(read.line_sampling.has_value());
  EXPECT_TRUE(read.mutant_line_changes.empty());
}

TEST(SourceLinesJson, TheDiagnosissHotLineRoundTripsAndIsAbsentWithoutOne) {
  Diagnosis d;
  d.bound = DiagnosedBound::memory;
  HotLine& hot = d.hot_line.emplace();
  hot.where = {"matmul.cl", 42};
  hot.samples = 6100;
  hot.attributed_samples = 10000;
  hot.share_of_samples = 0.61;
  hot.stall_reason = "long_scoreboard";
  hot.stall_samples = 5000;
  hot.cause = HotLineCause::memory;
  const json j = toJson(d);
  EXPECT_EQ(j["hot_line"]["cause"], "memory");
  EXPECT_EQ(j["hot_line"]["line"], 42);
  const Diagnosis read = diagnosisFromJson(j);
  ASSERT_TRUE(read.hot_line.has_value());
  EXPECT_EQ(read.hot_line->where, hot.where);
  EXPECT_EQ(read.hot_line->samples, 6100);
  EXPECT_EQ(read.hot_line->attributed_samples, 10000);
  EXPECT_DOUBLE_EQ(read.hot_line->share_of_samples, 0.61);
  EXPECT_EQ(read.hot_line->stall_reason, "long_scoreboard");
  EXPECT_EQ(read.hot_line->stall_samples, 5000);
  EXPECT_EQ(toJson(read), j);

  d.hot_line.reset();
  EXPECT_FALSE(toJson(d).contains("hot_line"));
  EXPECT_FALSE(diagnosisFromJson(toJson(d)).hot_line.has_value());
}

TEST(SourceLinesJson, NegativeSampleCountsAreProblemsOfTheFile) {
  ResultsDocument document;
  document.records.push_back(originalWithSourceLines());
  json j = toJson(document);
  EXPECT_TRUE(resultsProblems(j, resultsDocumentFromJson(j)).empty());
  j["records"][0]["line_sampling"]["lines"][0]["stalls"][1]["samples"] = -5;
  j["records"][0]["line_sampling"]["dropped_samples"] = -1;
  const std::vector<std::string> problems = resultsProblems(j, resultsDocumentFromJson(j));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("line_sampling.dropped_samples: -1 is negative"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("line_sampling.lines[0].stalls[1].samples: -5 is negative"), std::string::npos)
      << problems[1];
}
