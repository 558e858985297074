// The diagnosis's hot line (analyzer/diagnose/hot_line.hpp): named when one line holds at least 40% of
// the samples at the program's lines and its most sampled stall waits on memory, a dependency or
// synchronisation; on hand-built records.
#include <gtest/gtest.h>

#include "analyzer/diagnose/diagnosis.hpp"
#include "analyzer/diagnose/hot_line.hpp"
#include "analyzer/data/analysis.hpp"

using namespace rooflab;

namespace {

LineSamples lineAt(int line, std::int64_t samples, std::vector<StallReasonSamples> stalls) {
  return {{"matmul.cl", line}, samples, std::move(stalls), 1};
}

AnalysedRecord hotLineOriginal(std::vector<LineSamples> lines) {
  AnalysedRecord r;
  r.status = RecordStatus::ok;
  r.timings.emplace().kernel_ns.median = 1e6;
  LineSampling& s = r.line_sampling.emplace();
  s.available = true;
  s.sampling_period_log2 = 5;
  for (const LineSamples& line : lines) s.total_samples += line.samples;
  s.total_samples += 500;  // the prelude's, unattributed
  s.unattributed_samples = 500;
  s.lines = std::move(lines);
  return r;
}

}  // namespace

TEST(HotLine, OneLineWithMostSamplesWaitingOnLoadsIsNamed) {
  const AnalysedRecord r = hotLineOriginal({lineAt(42, 610, {{"long_scoreboard", 450}, {"selected", 160}}),
                                            lineAt(40, 240, {{"mio_throttle", 240}}), lineAt(9, 150, {{"wait", 150}})});
  const Diagnosis d = diagnose(r);
  ASSERT_TRUE(d.hot_line.has_value());
  EXPECT_EQ(d.hot_line->where, (SourceLine{"matmul.cl", 42}));
  EXPECT_EQ(d.hot_line->samples, 610);
  EXPECT_EQ(d.hot_line->attributed_samples, 1000) << "the unattributed samples are not a line's";
  EXPECT_DOUBLE_EQ(d.hot_line->share_of_samples, 0.61);
  EXPECT_EQ(d.hot_line->stall_reason, "long_scoreboard");
  EXPECT_EQ(d.hot_line->stall_samples, 450);
  EXPECT_EQ(d.hot_line->cause, HotLineCause::memory);
}

TEST(HotLine, TheCauseFollowsTheLinesMostSampledStall) {
  const std::pair<const char*, HotLineCause> causes[] = {
      {"short_scoreboard", HotLineCause::dependency}, {"wait", HotLineCause::dependency},
      {"barrier", HotLineCause::synchronisation},     {"membar", HotLineCause::synchronisation},
      {"lg_throttle", HotLineCause::memory},          {"drain", HotLineCause::memory}};
  for (const auto& [reason, cause] : causes) {
    const auto hot = hotLineOf(
        *hotLineOriginal({lineAt(5, 800, {{"selected", 100}, {reason, 700}}), lineAt(6, 200, {{"selected", 200}})})
             .line_sampling);
    ASSERT_TRUE(hot.has_value()) << reason;
    EXPECT_EQ(hot->stall_reason, reason);
    EXPECT_EQ(hot->cause, cause) << reason;
  }
}

TEST(HotLine, NoneWhenTheSamplesAreSpreadOrTheLineComputesOrTooFewWereTaken) {
  // The hottest line holds 39%: the time is spread over several lines.
  EXPECT_FALSE(hotLineOf(
      *hotLineOriginal({lineAt(1, 390, {{"long_scoreboard", 390}}), lineAt(2, 310, {{"long_scoreboard", 310}}),
                        lineAt(3, 300, {{"long_scoreboard", 300}})})
           .line_sampling));
  // Exactly 40% is enough.
  EXPECT_TRUE(hotLineOf(
      *hotLineOriginal({lineAt(1, 400, {{"long_scoreboard", 400}}), lineAt(2, 300, {{"long_scoreboard", 300}}),
                        lineAt(3, 300, {{"long_scoreboard", 300}})})
           .line_sampling));
  // Most of the line's warps issue or wait for a math pipe: it is busy computing.
  for (const char* busy : {"selected", "math_pipe_throttle", "not_selected"})
    EXPECT_FALSE(hotLineOf(
        *hotLineOriginal({lineAt(1, 900, {{busy, 600}, {"long_scoreboard", 300}}), lineAt(2, 100, {{"wait", 100}})})
             .line_sampling))
        << busy;
  // 99 samples at the program's lines: below kHotLineMinSamples.
  EXPECT_FALSE(hotLineOf(*hotLineOriginal({lineAt(1, 99, {{"long_scoreboard", 99}})}).line_sampling));
  EXPECT_TRUE(hotLineOf(*hotLineOriginal({lineAt(1, 100, {{"long_scoreboard", 100}})}).line_sampling));
}

TEST(HotLine, NoneWithoutSamplingOrForAVariantThatFailedVerification) {
  AnalysedRecord unsampled = hotLineOriginal({lineAt(1, 900, {{"long_scoreboard", 900}})});
  unsampled.line_sampling = LineSampling{};
  unsampled.line_sampling->reason = "per-line sampling needs an NVIDIA GPU";
  EXPECT_FALSE(diagnose(unsampled).hot_line.has_value());
  unsampled.line_sampling.reset();
  EXPECT_FALSE(diagnose(unsampled).hot_line.has_value());

  AnalysedRecord wrong = hotLineOriginal({lineAt(1, 900, {{"long_scoreboard", 900}})});
  wrong.verification.status = VerificationStatus::failed;
  EXPECT_FALSE(diagnose(wrong).hot_line.has_value());
}
