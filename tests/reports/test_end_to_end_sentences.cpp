// The end-to-end sentences (reports/text/end_to_end_sentences.hpp): for each case of
// end_to_end_cases.hpp, the renderer says exactly what the analysis wrote before the reports said it;
// the data behind them round-trips through results.json; and a schema-1 file's sentences are kept as
// written and written back under their keys.
#include <gtest/gtest.h>

#include "analyzer/diagnose/end_to_end_analysis.hpp"
#include "analyzer/json/results_json.hpp"
#include "end_to_end_cases.hpp"
#include "reports/text/end_to_end_sentences.hpp"

using namespace rooflab;
using namespace rooflab::reports;
using nlohmann::json;

namespace {

// What a case's analysis said: each run's predicted_from and bound_text in turn, the verdict's
// bound_text and summary.
struct FormerSentences {
  std::vector<std::string> runs;
  std::string verdict_bound;
  std::string summary;
};

// As rooflab wrote them into results.json before its reports said them, for endToEndCases() in turn.
const FormerSentences kFormer[] = {
    {
        {
            "upload: copy 8.00 GB/s + 10.0 us a buffer x 2; launch: 7.0 us x 1; kernel: the kernel run's median 270.0 "
            "us; download: copy 10.00 GB/s + 10.0 us a buffer x 1",
            "link-bound at 7.67 GB/s host-to-device (71% of the time)",
            "",
            "",
            "upload: map - + 1.50 ms a buffer x 2; launch: 7.0 us x 1; kernel: the kernel run's median 270.0 us; "
            "download: map 12.50 GB/s + 3.0 us a buffer x 1; host copies: 384 MiB at 20.00 GB/s (memcpy)",
            "link-bound at 8.95 GB/s device-to-host (93% of the time)",
            "upload: copy-async 25.00 GB/s + 5.0 us a buffer x 2; launch: 2.0 us (back to back) x 1; kernel: the "
            "kernel run's median 270.0 us; download: copy-async 25.00 GB/s + 5.0 us a buffer x 1; 1 chunk through the "
            "pipeline on 1 queue",
            "link-bound at 24.40 GB/s host-to-device (66% of the time)",
            "upload: copy-async 25.00 GB/s + 5.0 us a buffer x 2; launch: 2.0 us (back to back) x 7; kernel: the "
            "kernel run's median 270.0 us; download: copy-async 25.00 GB/s + 5.0 us a buffer x 1; 7 chunks through the "
            "pipeline on 2 queues",
            "launch-bound (7 launches, 5.50 ms, 93% of the time)",
            "upload: copy-async 25.00 GB/s + 5.0 us a buffer x 2; launch: 2.0 us (back to back) x 4; kernel: the "
            "kernel run's median 270.0 us; download: copy-async 25.00 GB/s + 5.0 us a buffer x 1; 4 chunks through the "
            "pipeline on 2 queues",
            "kernel-bound (93% of the time)",
            "upload: alloc-host-ptr zero-copy, 2.0 us a buffer x 2; launch: 7.0 us x 1; kernel: the kernel run's "
            "median 270.0 us; download: alloc-host-ptr zero-copy, 2.0 us a buffer x 1; host copies: 768 MiB at 20.00 "
            "GB/s (memcpy)",
            "host-bound: 99% of the time is between commands (host copies, driver work)",
        },
        "launch-bound (7 launches, 5.50 ms, 93% of the time)",
        "overlap (7 chunks) 5.90 ms, 16.66x faster than copy (98.30 ms)",
    },
    {
        {
            "no prediction: the run measured no launch or link ceiling this strategy needs",
            "launch-bound (1 launch, 9.0 us, 76% of the time)",
        },
        "launch-bound (1 launch, 9.0 us, 76% of the time)",
        "use-host-ptr 11.8 us, the fastest",
    },
    {
        {
            "no prediction: the run measured no link ceilings ([run] ceilings = \"datasheet\")",
            "link-bound at 7.67 GB/s host-to-device (71% of the time)",
            "no prediction: the run measured no link ceilings ([run] ceilings = \"datasheet\")",
            "link-bound at 8.95 GB/s host-to-device (68% of the time)",
        },
        "link-bound at 8.95 GB/s host-to-device (68% of the time)",
        "map 88.30 ms, 1.11x faster than copy (98.30 ms)",
    },
    {
        {
            "",
            "",
        },
        "",
        "no end-to-end run was verified",
    },
    {
        {
            "no prediction: the kernel run has no median time",
            "",
        },
        "",
        "copy 0.0 us, the fastest",
    },
};

EndToEndAnalysis analysed(const rooflab::testing::EndToEndCase& c) {
  static const LinkCeilings link = rooflab::testing::endToEndLink();
  return analyseEndToEnd(c.record, rooflab::testing::endToEndCaseCeilings(c, link));
}

std::vector<std::string> runSentences(const EndToEndAnalysis& a) {
  std::vector<std::string> said;
  for (const EndToEndRunPrediction& judged : a.runs) {
    said.push_back(endToEndPredictedFromText(judged));
    said.push_back(endToEndBoundText(judged));
  }
  return said;
}

}  // namespace

TEST(EndToEndSentences, SayWhatTheAnalysisWroteBefore) {
  const std::vector<rooflab::testing::EndToEndCase> cases = rooflab::testing::endToEndCases();
  ASSERT_EQ(cases.size(), std::size(kFormer));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const EndToEndAnalysis a = analysed(cases[i]);
    EXPECT_EQ(runSentences(a), kFormer[i].runs) << "case " << i;
    ASSERT_TRUE(a.verdict);
    EXPECT_EQ(endToEndBoundText(*a.verdict), kFormer[i].verdict_bound) << "case " << i;
    EXPECT_EQ(endToEndSummaryText(*a.verdict), kFormer[i].summary) << "case " << i;
  }
}

TEST(EndToEndSentences, TheAnalysisIsDataThatRoundTrips) {
  for (const rooflab::testing::EndToEndCase& c : rooflab::testing::endToEndCases()) {
    const EndToEndAnalysis a = analysed(c);
    const json written = toJson(*c.record.end_to_end, a);
    const EndToEndAnalysis back = endToEndAnalysisFromJson(written);
    EXPECT_EQ(toJson(*c.record.end_to_end, back), written);
    EXPECT_EQ(runSentences(back), runSentences(a));
    EXPECT_EQ(endToEndSummaryText(*back.verdict), endToEndSummaryText(*a.verdict));
    EXPECT_EQ(endToEndBoundText(*back.verdict), endToEndBoundText(*a.verdict));
    for (const json& run : written["runs"]) {
      EXPECT_FALSE(run.contains("predicted_from") || run.contains("bound_text")) << run.dump(2);
      EXPECT_TRUE(run.contains("prediction_basis") && run.contains("bound_figures")) << run.dump(2);
    }
    EXPECT_FALSE(written["verdict"].contains("summary") || written["verdict"].contains("bound_text"));
  }
  const EndToEndAnalysis first = analysed(rooflab::testing::endToEndCases()[0]);
  const json run = toJson(*rooflab::testing::endToEndCases()[0].record.end_to_end, first)["runs"][0];
  EXPECT_EQ(run["prediction_basis"], "ceilings");
  EXPECT_EQ(run["prediction_inputs"]["upload"]["strategy"], "copy");
  EXPECT_EQ(run["prediction_inputs"]["upload"]["gbps"], 8.0);
  EXPECT_EQ(run["prediction_inputs"]["upload"]["buffers"], 2);
  EXPECT_EQ(run["bound"], "link-up");
  EXPECT_NEAR(run["bound_figures"]["link_gbps"].get<double>(), double(2ull << 28) / 70e6, 1e-12);
}

TEST(EndToEndSentences, ASchema1FileKeepsItsSentences) {
  const json runs = json::parse(R"([
    { "strategy": "copy", "predicted": null, "predicted_from": "no prediction: as an older rooflab said it",
      "bound": "link-up", "bound_text": "link-bound at 7.5 GB/s host-to-device" },
    { "strategy": "map", "predicted": null, "predicted_from": null, "bound": "undetermined", "bound_text": null } ])");
  const json verdict = json::parse(R"({ "bound": "link-up", "bound_text": "link-bound, as saved",
    "best": "copy", "best_chunks": 1, "best_ns": 1000.0, "worst": null, "worst_ns": null,
    "summary": "copy 1.0 us, as saved" })");
  const json file = {{"runs", runs}, {"overlap", json::array()}, {"verdict", verdict}};
  const EndToEndResult result = endToEndResultFromJson(file);
  const EndToEndAnalysis a = endToEndAnalysisFromJson(file);
  EXPECT_EQ(runSentences(a), (std::vector<std::string>{"no prediction: as an older rooflab said it",
                                                       "link-bound at 7.5 GB/s host-to-device", "", ""}));
  EXPECT_EQ(endToEndBoundText(*a.verdict), "link-bound, as saved");
  EXPECT_EQ(endToEndSummaryText(*a.verdict), "copy 1.0 us, as saved");
  const json written = toJson(result, a);
  for (std::size_t i = 0; i < 2; ++i)
    for (const char* key : {"predicted", "predicted_from", "bound", "bound_text"})
      EXPECT_EQ(written["runs"][i][key], runs[i][key]) << key;
  EXPECT_FALSE(written["runs"][0].contains("prediction_basis") || written["runs"][0].contains("bound_figures"));
  EXPECT_EQ(written["verdict"], verdict);
}
