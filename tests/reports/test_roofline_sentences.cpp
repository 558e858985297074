// A placement's reasons and above-roof causes: data in the analysis and results.json, the former
// sentences in reports.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"
#include "reports/text/roofline_sentences.hpp"

using namespace rooflab;
using rooflab::reports::aboveRoofText;
using rooflab::reports::placementReasonsText;

namespace {

PlacementReason reasonOf(PlacementReasonKind kind) { return PlacementReason{kind}; }

RooflinePlacement withReasons(std::vector<PlacementReason> reasons) {
  RooflinePlacement placement;
  placement.reasons = std::move(reasons);
  return placement;
}

AboveRoof cachedAndTimer() {
  AboveRoofCause cache{AboveRoofCauseKind::working_set_in_cache};
  cache.working_set_bytes = 512.0 * 1024;
  cache.cache_bytes = 32.0 * 1024 * 1024;
  AboveRoofCause timer{AboveRoofCauseKind::median_near_timer_resolution};
  timer.median_ns = 5000;
  timer.timer_resolution_ns = 1000;
  timer.margin = 20;
  return AboveRoof{1.691, {cache, timer}, std::nullopt};
}

}  // namespace

TEST(RooflineSentences, ReasonsReadAsTheAnalysisWroteThem) {
  PlacementReason local = reasonOf(PlacementReasonKind::no_local_bandwidth);
  local.model_key = "gtx670";
  PlacementReason latency = reasonOf(PlacementReasonKind::below_bound_margin);
  latency.reached_fraction = 0.1;
  latency.margin_fraction = 0.5;
  EXPECT_EQ(placementReasonsText(withReasons({local, reasonOf(PlacementReasonKind::not_timed)})),
            "local roof: model 'gtx670' has no local_gbps; not timed: no achieved rate");
  EXPECT_EQ(placementReasonsText(withReasons({latency})),
            "reaches 10.0% of the roof, under the 50.0% that marks a saturated resource: latency, too little "
            "parallelism or launch overhead");
  PlacementReason bound = reasonOf(PlacementReasonKind::local_memory_bound);
  bound.local_roof_gflops = 311.04;
  bound.reached_fraction = 0.9;
  EXPECT_EQ(placementReasonsText(withReasons({bound})),
            "local-memory bandwidth: the local roof (311.0 GFLOP/s) is below the DRAM roofline and the kernel reaches "
            "90.0% of it");
  PlacementReason level = reasonOf(PlacementReasonKind::no_level_bandwidth);
  level.model_key = "bare";
  level.level = MemoryLevel::l2;
  EXPECT_EQ(placementReasonsText(withReasons({level})), "model 'bare' has no l2 bandwidth: no roof at this level");
  PlacementReason other = reasonOf(PlacementReasonKind::timed_on_other_device);
  other.model_key = "gtx670";
  EXPECT_EQ(placementReasonsText(withReasons({other})),
            "timed on another device: bound is the roof that limits this work on 'gtx670', by intensity");
  EXPECT_FALSE(placementReasonsText(RooflinePlacement{}));
}

TEST(RooflineSentences, AboveRoofReadsAsTheAnalysisWroteIt) {
  EXPECT_EQ(aboveRoofText(cachedAndTimer()),
            "above its roof (169.1%): the working set (0.5 MiB) fits in the 32.0 MiB cache: repetitions read it from "
            "cache, not DRAM; the median time (5000.0 ns) is within 20.0x of the timer resolution (1000 ns)");
  AboveRoofCause counted{AboveRoofCauseKind::counters_saw_less_dram};
  counted.counter_dram_bytes = 16.0 * 1024 * 1024;
  counted.compulsory_bytes = 64.0 * 1024 * 1024;
  EXPECT_EQ(aboveRoofText(AboveRoof{1.2, {AboveRoofCause{AboveRoofCauseKind::timed_on_other_device}, counted}, {}}),
            "above its roof (120.0%): timed on another device than this model describes; the counters saw 16.0 MiB of "
            "DRAM traffic, below the 64.0 MiB compulsory: part of the data came from cache");
  EXPECT_EQ(aboveRoofText(AboveRoof{1.1, {}, std::nullopt}),
            "above its roof (110.0%): no cause rooflab can tell; the roof's figure itself is the suspect (a datasheet "
            "value, or a ceilings run that missed the peak)");
}

TEST(RooflineSentences, FindingsRoundTripThroughJson) {
  RooflinePlacement placement;
  placement.fraction_of_roof = 1.691;
  PlacementReason latency = reasonOf(PlacementReasonKind::below_bound_margin);
  latency.reached_fraction = 0.25;
  latency.margin_fraction = 0.5;
  placement.reasons = {latency, reasonOf(PlacementReasonKind::no_dram_bytes)};
  placement.above_roof = cachedAndTimer();
  const nlohmann::json j = toJson(placement);
  EXPECT_FALSE(j.contains("reason"));
  EXPECT_EQ(j["reasons"][0]["kind"], "below_bound_margin");
  EXPECT_EQ(j["above_roof_causes"][1]["timer_resolution_ns"], 1000.0);
  const RooflinePlacement back = rooflinePlacementFromJson(j);
  EXPECT_EQ(placementReasonsText(back), placementReasonsText(placement));
  ASSERT_TRUE(back.above_roof);
  EXPECT_EQ(aboveRoofText(*back.above_roof), aboveRoofText(*placement.above_roof));
  EXPECT_EQ(toJson(back), j);
}

TEST(RooflineSentences, SchemaOneSentencesAreKeptAndWrittenBack) {
  const nlohmann::json saved = {{"bound", "latency"},
                                {"fraction_of_roof", 1.5},
                                {"reason", "reaches 10.0% of the roof, as an older rooflab said it"},
                                {"above_roof", "above its roof (150.0%): as an older rooflab said it"}};
  const RooflinePlacement placement = rooflinePlacementFromJson(saved);
  EXPECT_EQ(placementReasonsText(placement), "reaches 10.0% of the roof, as an older rooflab said it");
  ASSERT_TRUE(placement.above_roof);
  EXPECT_EQ(aboveRoofText(*placement.above_roof), "above its roof (150.0%): as an older rooflab said it");
  const nlohmann::json written = toJson(placement);
  EXPECT_EQ(written["reason"], saved["reason"]);
  EXPECT_EQ(written["above_roof"], saved["above_roof"]);
  EXPECT_FALSE(written.contains("reasons") || written.contains("above_roof_causes"));
  // A schema-1 placement without reasons wrote "reason": null; it still does.
  EXPECT_TRUE(toJson(rooflinePlacementFromJson({{"reason", nullptr}}))["reason"].is_null());
}
