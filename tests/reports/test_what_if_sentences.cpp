// A what-if's findings in words (reports/text/what_if_sentences.hpp): the sentences the analysis
// wrote before it kept them as data, their JSON, and a schema-1 file's sentences as saved.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"
#include "reports/text/what_if_sentences.hpp"
#include "reports/text/what_if_text.hpp"

using namespace rooflab;

namespace {

WhatIfRun bankConflictsRun(WhatIfComparison comparison, double value) {
  WhatIfRun run;
  run.name = "no-bank-conflicts";
  run.define = "RL_WHATIF_NO_BANK_CONFLICTS";
  run.expectation = WhatIfExpectation{"shared_bank_conflicts", comparison, value};
  run.realised_by = "tiled_padded";
  return run;
}

WhatIfOutcome checkResting(WhatIfCheckBasis basis, std::optional<std::string> reason = std::nullopt,
                           WhatIfRecordRole record = WhatIfRecordRole::what_if) {
  WhatIfOutcome w;
  w.check_basis = basis;
  w.check_record = record;
  w.check_reason = std::move(reason);
  return w;
}

WhatIfGainWithheld withheld(WhatIfRecordRole record, std::string variant, WhatIfGainBlock because,
                            RecordStatus status = RecordStatus::ok, std::optional<std::string> reason = std::nullopt) {
  return WhatIfGainWithheld{record, std::move(variant), because, status, std::move(reason), std::nullopt};
}

}  // namespace

TEST(WhatIfSentences, ExpectationsReadAsBefore) {
  EXPECT_EQ(reports::whatIfExpectationText({"shared_bank_conflicts", WhatIfComparison::to, 0}),
            "shared_bank_conflicts to 0");
  EXPECT_EQ(reports::whatIfExpectationText({"dram_bytes", WhatIfComparison::below, 1.5e6}), "dram_bytes below 1500000");
  EXPECT_EQ(reports::whatIfExpectationText({"shared_bank_conflicts", WhatIfComparison::ratio_below, 0.1}),
            "shared_bank_conflicts below 0.1 x the original's");
}

TEST(WhatIfSentences, CheckDetailReadsAsBefore) {
  const WhatIfRun run = bankConflictsRun(WhatIfComparison::to, 0);
  WhatIfOutcome compared = checkResting(WhatIfCheckBasis::counters_compared);
  compared.counter_original = 2.1e6;
  compared.counter_what_if = 30;
  EXPECT_EQ(reports::whatIfCheckDetailText(run, compared),
            "shared_bank_conflicts 2100000 (original) -> 30 (what-if); expected shared_bank_conflicts to 0");
  compared.counter_original.reset();
  compared.counter_what_if = 0.25;
  EXPECT_EQ(reports::whatIfCheckDetailText(bankConflictsRun(WhatIfComparison::below, 1), compared),
            "shared_bank_conflicts ? (original) -> 0.25 (what-if); expected shared_bank_conflicts below 1");
  EXPECT_EQ(reports::whatIfCheckDetailText(run, checkResting(WhatIfCheckBasis::no_expectation)),
            "the manifest states no expected counter change");
  EXPECT_EQ(reports::whatIfCheckDetailText(
                run, checkResting(WhatIfCheckBasis::what_if_did_not_run, "transpose/tiled N=1024 (what-if) crashed")),
            "the what-if did not run: transpose/tiled N=1024 (what-if) crashed");
  EXPECT_EQ(reports::whatIfCheckDetailText(run, checkResting(WhatIfCheckBasis::original_missing)),
            "the original (normal mode) did not run at these parameters");
  EXPECT_EQ(reports::whatIfCheckDetailText(
                run, checkResting(WhatIfCheckBasis::no_counters, "counters are off", WhatIfRecordRole::original)),
            "no counters on the original: counters are off");
  EXPECT_EQ(reports::whatIfCheckDetailText(run, checkResting(WhatIfCheckBasis::counter_missing, "no such metric")),
            "no shared_bank_conflicts on the what-if: no such metric");
  EXPECT_EQ(reports::whatIfCheckDetailText(run, checkResting(WhatIfCheckBasis::counter_missing)),
            "no shared_bank_conflicts on the what-if");
  EXPECT_EQ(reports::whatIfCheckDetailText(run, checkResting(WhatIfCheckBasis::original_counter_zero)),
            "shared_bank_conflicts is 0 on the original: no ratio to compare");
  WhatIfOutcome not_checked = checkResting(WhatIfCheckBasis::no_counters, "counters unavailable: not an NVIDIA device");
  EXPECT_EQ(reports::whatIfCheckText(run, not_checked),
            "expectation not checked: no counters on the what-if: counters unavailable: not an NVIDIA device");
}

TEST(WhatIfSentences, WithheldGainsReadAsBefore) {
  using Role = WhatIfRecordRole;
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::original, "tiled", WhatIfGainBlock::not_run)),
            "the original (tiled) did not run at these parameters (study it in normal mode)");
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::original, "tiled", WhatIfGainBlock::run_ended,
                                                     RecordStatus::crashed, "killed by signal 11")),
            "the original (tiled) crashed: killed by signal 11");
  EXPECT_EQ(reports::whatIfGainWithheldText(
                withheld(Role::realisation, "tiled_padded", WhatIfGainBlock::run_ended, RecordStatus::error)),
            "tiled_padded failed with an error");
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::what_if, "", WhatIfGainBlock::run_ended)),
            "the what-if ran");
  EXPECT_EQ(reports::whatIfGainWithheldText(
                withheld(Role::what_if, "", WhatIfGainBlock::run_ended, RecordStatus::timed_out, "")),
            "the what-if timed out: ");
  EXPECT_EQ(reports::whatIfGainWithheldText(
                withheld(Role::what_if, "", WhatIfGainBlock::run_ended, RecordStatus::skipped, "not annotated")),
            "the what-if was skipped: not annotated");
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::realisation, "tiled_padded", WhatIfGainBlock::no_median)),
            "tiled_padded has no median time");
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::realisation, "fast", WhatIfGainBlock::verification_failed,
                                                     RecordStatus::ok, "rel. L2 error 0.5")),
            "fast failed verification (rel. L2 error 0.5)");
  EXPECT_EQ(reports::whatIfGainWithheldText(withheld(Role::original, "tiled", WhatIfGainBlock::not_verified)),
            "the original (tiled) was not verified");
  WhatIfOutcome w;
  w.predicted_gain_unavailable = withheld(Role::original, "slow", WhatIfGainBlock::run_ended, RecordStatus::crashed);
  EXPECT_EQ(reports::whatIfPredictedText(w), "predicted gain: none shown: the original (slow) crashed");
}

TEST(WhatIfSentences, DataRoundTripsThroughJson) {
  const WhatIfRun run = bankConflictsRun(WhatIfComparison::to, 0);
  WhatIfOutcome w = checkResting(WhatIfCheckBasis::counter_missing, "no such metric", WhatIfRecordRole::original);
  w.counter_what_if = 30;
  w.predicted_gain_unavailable =
      withheld(WhatIfRecordRole::original, "tiled", WhatIfGainBlock::run_ended, RecordStatus::crashed, "signal 11");
  w.realised_gain_unavailable = withheld(WhatIfRecordRole::realisation, "tiled_padded", WhatIfGainBlock::not_verified);
  const nlohmann::json j = toJson(run, w);
  EXPECT_FALSE(j.contains("check_detail"));
  EXPECT_FALSE(j.contains("predicted_gain_unavailable"));
  EXPECT_EQ(j["check_basis"], "counter_missing");
  EXPECT_EQ(j["check_record"], "original");
  EXPECT_EQ(j["check_reason"], "no such metric");
  EXPECT_EQ(j["predicted_gain_withheld"], nlohmann::json({{"record", "original"},
                                                          {"variant", "tiled"},
                                                          {"because", "run_ended"},
                                                          {"status", "crashed"},
                                                          {"reason", "signal 11"}}));
  const WhatIfOutcome back = whatIfOutcomeFromJson(j);
  EXPECT_EQ(back.check_basis, WhatIfCheckBasis::counter_missing);
  EXPECT_EQ(back.check_record, WhatIfRecordRole::original);
  EXPECT_EQ(reports::whatIfCheckDetailText(run, back), "no shared_bank_conflicts on the original: no such metric");
  ASSERT_TRUE(back.predicted_gain_unavailable && back.realised_gain_unavailable);
  EXPECT_EQ(reports::whatIfGainWithheldText(*back.predicted_gain_unavailable),
            "the original (tiled) crashed: signal 11");
  EXPECT_EQ(reports::whatIfGainWithheldText(*back.realised_gain_unavailable), "tiled_padded was not verified");
  EXPECT_EQ(toJson(whatIfRunFromJson(j), back), j);
}

TEST(WhatIfSentences, SchemaOneSentencesAreSaidAndWrittenAsSaved) {
  const nlohmann::json saved = {
      {"name", "no-bank-conflicts"},
      {"define", "RL_WHATIF_NO_BANK_CONFLICTS"},
      {"expect", {{"counter", "shared_bank_conflicts"}, {"comparison", "to"}, {"value", 0.0}}},
      {"realised_by", "tiled_padded"},
      {"check", "not_checked"},
      {"check_detail", "no counters on the what-if: counters unavailable: not an NVIDIA device"},
      {"counter_original", nullptr},
      {"counter_what_if", nullptr},
      {"t_ns", nullptr},
      {"t_what_if_ns", 1000.0},
      {"predicted_gain", nullptr},
      {"t_realised_ns", nullptr},
      {"realised_gain", nullptr},
      {"predicted_gain_unavailable", "the original (tiled) crashed: killed by signal 11"},
      {"realised_gain_unavailable", "the original (tiled) crashed: killed by signal 11"}};
  const WhatIfRun run = whatIfRunFromJson(saved);
  const WhatIfOutcome w = whatIfOutcomeFromJson(saved);
  EXPECT_EQ(reports::whatIfCheckText(run, w),
            "expectation not checked: no counters on the what-if: counters unavailable: not an NVIDIA device");
  EXPECT_EQ(reports::whatIfPredictedText(w),
            "predicted gain: none shown: the original (tiled) crashed: killed by signal 11");
  EXPECT_EQ(reports::whatIfRealisedText(run, w),
            "tiled_padded (the real optimisation): no gain shown: the original (tiled) crashed: killed by signal 11");
  EXPECT_EQ(toJson(run, w), saved);
}
