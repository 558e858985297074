// The words of what a batch cost (reports/text/progress_text.hpp, cost_text.hpp): the estimate the
// batch prints, and the phase table's details, written from the counts the batch keeps; a detail a
// results file saved as text before the counts were kept is said and written back as saved.
#include <gtest/gtest.h>

#include "analyzer/batch/batch_cost.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/cost_text.hpp"
#include "reports/text/progress_text.hpp"

using namespace rooflab;

TEST(ProgressText, SaysTheEstimateInSecondsMinutesOrHours) {
  EXPECT_EQ(reports::estimateText(42), "about 42 s");
  EXPECT_EQ(reports::estimateText(0.2), "about 1 s");
  EXPECT_EQ(reports::estimateText(210), "about 3.5 min");
  EXPECT_EQ(reports::estimateText(7560), "about 2.1 h");
}

TEST(CostText, WritesEachPhasesDetailFromItsCounts) {
  BatchTimes times;
  times.ceilings_measured = true;
  times.worker_starts = 3;
  std::vector<RunRecord> records(2);
  records[0].build_seconds = 3.4;
  records[0].phase_seconds = {{"counters", 0.5}};
  records[0].counters.cost.emplace().pass_seconds = {0.1, 0.2};
  records[0].counters.cost->session_reused = true;
  BatchCost cost = batchCost(times, records, 8);
  closeBatchCost(cost, 1, 10);
  std::map<std::string, std::string> details;
  for (const PhaseCost& phase : cost.phases) details[phase.name] = reports::phaseDetailText(phase);
  EXPECT_EQ(details["start-up"], "config, plan, device, output folder");
  EXPECT_EQ(details["ceilings"], "measured at the start");
  EXPECT_EQ(details["worker start"], "3 worker processes");
  EXPECT_EQ(details["records: build (waiting)"],
            "1 programs, 3.4 s of compiler time on 8 background threads while earlier records ran");
  EXPECT_EQ(details["records: counters"],
            "1 records, 0.500 s and 2.0 profiling passes a record; metric set configuration reused by 1");
  EXPECT_EQ(details["records: timed runs"], "");
  EXPECT_EQ(details["records: bookkeeping"], "2 records: worker messages, placement, journal, checkpoints");
  EXPECT_EQ(details["finish"], "analysis, results file");
  EXPECT_EQ(details["reports"], "every format asked for");
  EXPECT_EQ(details["other"], "process start and exit, terminal summary");

  // The counts survive a write and a read, and no text is written beside them.
  const nlohmann::json written = toJson(cost);
  for (const nlohmann::json& phase : written["phases"]) EXPECT_FALSE(phase.contains("detail")) << phase.dump();
  const BatchCost read = batchCostFromJson(written);
  ASSERT_EQ(read.phases.size(), cost.phases.size());
  for (std::size_t i = 0; i < read.phases.size(); ++i)
    EXPECT_EQ(reports::phaseDetailText(read.phases[i]), reports::phaseDetailText(cost.phases[i])) << i;
  EXPECT_EQ(toJson(read), written);
}

TEST(CostText, APhaseSavedAsTextIsSaidAndWrittenBackAsSaved) {
  const nlohmann::json saved = nlohmann::json::parse(R"json({"wall_seconds": 2.0, "phases": [
      {"name": "worker start", "seconds": 0.5, "detail": "1 worker process"},
      {"name": "records: build (waiting)", "seconds": 1.0, "detail": "4 programs, 2.0 s of compiler time"},
      {"name": "records: prepare", "seconds": 0.5}]
})json");
  const BatchCost read = batchCostFromJson(saved);
  ASSERT_EQ(read.phases.size(), 3u);
  EXPECT_EQ(reports::phaseDetailText(read.phases[0]), "1 worker process");
  EXPECT_EQ(reports::phaseDetailText(read.phases[1]), "4 programs, 2.0 s of compiler time");
  EXPECT_EQ(reports::phaseDetailText(read.phases[2]), "");
  EXPECT_EQ(toJson(read), saved);
}
