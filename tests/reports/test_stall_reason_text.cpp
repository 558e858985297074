// Stall reasons in words (reports/text/stall_reason_text.hpp) and a line's place in them
// (reports/text/source_lines_text.hpp): every reason CUPTI's PC sampling names has the CUDA profiler's
// name and a sentence; an unknown one is shown as given.
#include <gtest/gtest.h>

#include <sstream>

#include "analyzer/data/diagnosis.hpp"
#include "reports/text/source_lines_text.hpp"
#include "reports/text/stall_reason_text.hpp"
#include "reports/text/terminal_report.hpp"

using namespace rooflab;
using namespace rooflab::reports;

TEST(StallReasonText, EveryReasonCuptiNamesHasItsProfilerNameAndASentence) {
  const std::pair<const char*, const char*> names[] = {{"long_scoreboard", "long scoreboard"},
                                                       {"short_scoreboard", "short scoreboard"},
                                                       {"barrier", "barrier"},
                                                       {"membar", "membar"},
                                                       {"mio_throttle", "MIO throttle"},
                                                       {"lg_throttle", "LG throttle"},
                                                       {"tex_throttle", "TEX throttle"},
                                                       {"math_pipe_throttle", "math pipe throttle"},
                                                       {"wait", "wait"},
                                                       {"not_selected", "not selected"},
                                                       {"selected", "selected"},
                                                       {"no_instructions", "no instructions"},
                                                       {"branch_resolving", "branch resolving"},
                                                       {"dispatch_stall", "dispatch stall"},
                                                       {"drain", "drain"},
                                                       {"imc_miss", "IMC miss"},
                                                       {"misc", "misc"},
                                                       {"sleeping", "sleeping"},
                                                       {"gmma", "GMMA"}};
  for (const auto& [reason, name] : names) {
    SCOPED_TRACE(reason);
    const StallReasonWords words = stallReasonWords(reason);
    EXPECT_EQ(words.name, name);
    EXPECT_FALSE(words.waiting_on.empty());
    ASSERT_FALSE(words.meaning.empty());
    EXPECT_EQ(words.meaning.back(), '.');
    EXPECT_EQ(words.meaning.find(". "), std::string::npos) << "one sentence: " << words.meaning;
  }
  EXPECT_EQ(stallReasonWords("long_scoreboard").waiting_on, "waiting on global loads");
}

TEST(StallReasonText, CuptisPrefixAndNotIssuedVariantsAreReadAndUnknownNamesShownAsGiven) {
  EXPECT_EQ(stallReasonWords("smsp__pcsamp_warps_issue_stalled_mio_throttle").name, "MIO throttle");
  const StallReasonWords not_issued = stallReasonWords("long_scoreboard_not_issued");
  EXPECT_EQ(not_issued.name, "long scoreboard (not issued)");
  EXPECT_EQ(not_issued.waiting_on, "waiting on global loads");
  const StallReasonWords unknown = stallReasonWords("tmem_wait");
  EXPECT_EQ(unknown.name, "tmem_wait");
  EXPECT_TRUE(unknown.waiting_on.empty());
  EXPECT_TRUE(unknown.meaning.empty());
  EXPECT_EQ(stallReasonGroup("tmem_wait"), "other");
}

TEST(StallReasonText, ColourGroupsFollowTheCausesAHotLineNames) {
  for (const char* reason : {"long_scoreboard", "lg_throttle", "tex_throttle", "mio_throttle", "drain"})
    EXPECT_EQ(stallReasonGroup(reason), "memory") << reason;
  for (const char* reason : {"short_scoreboard", "wait"}) EXPECT_EQ(stallReasonGroup(reason), "dependency") << reason;
  for (const char* reason : {"barrier", "membar"}) EXPECT_EQ(stallReasonGroup(reason), "synchronisation") << reason;
  for (const char* reason : {"selected", "not_selected", "math_pipe_throttle", "dispatch_stall"})
    EXPECT_EQ(stallReasonGroup(reason), "issue") << reason;
  EXPECT_EQ(stallReasonGroup("branch_resolving"), "fetch");
}

TEST(StallReasonText, AHotLineIsSaidWithItsShareAndWhatItWaitsOn) {
  HotLine hot;
  hot.where = {"matmul.cl", 42};
  hot.share_of_samples = 0.612;
  hot.stall_reason = "long_scoreboard";
  EXPECT_EQ(hotLineText(hot), "matmul.cl:42, 61% of samples, long scoreboard: waiting on global loads");
  hot.stall_reason = "some_new_reason";
  EXPECT_EQ(hotLineText(hot), "matmul.cl:42, 61% of samples, some_new_reason");
}

TEST(StallReasonText, TheTerminalSummarisesEachSampledOriginalsHottestLines) {
  AnalysedResults results;
  AnalysedRecord& r = results.records.emplace_back();
  r.family = "matmul";
  r.variant = "naive";
  LineSampling& s = r.line_sampling.emplace();
  s.available = true;
  s.total_samples = 1000;
  s.lines = {{{"matmul.cl", 9}, 100, {{"selected", 100}}, 1},
             {{"matmul.cl", 42}, 600, {{"long_scoreboard", 500}, {"selected", 100}}, 3},
             {{"matmul.cl", 40}, 200, {{"mio_throttle", 200}}, 2},
             {{"matmul.cl", 3}, 100, {{"barrier", 100}}, 1}};
  HotLine& hot = r.diagnosis.emplace().hot_line.emplace();
  hot.where = {"matmul.cl", 42};
  hot.share_of_samples = 0.6;
  hot.stall_reason = "long_scoreboard";
  std::ostringstream out;
  printHottestLines(results, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("hottest lines of matmul/naive"), std::string::npos) << text;
  EXPECT_NE(text.find("matmul.cl:42  60%  long scoreboard: waiting on global loads"), std::string::npos) << text;
  EXPECT_NE(text.find("matmul.cl:40  20%  MIO throttle"), std::string::npos) << text;
  EXPECT_NE(text.find("matmul.cl:9   10%  selected"), std::string::npos) << text;
  EXPECT_EQ(text.find("matmul.cl:3 "), std::string::npos) << "three lines only: " << text;
  EXPECT_NE(text.find("diagnosis, hot line: matmul.cl:42, 60% of samples"), std::string::npos) << text;

  r.line_sampling = LineSampling{};
  r.line_sampling->reason = "per-line sampling needs an NVIDIA GPU";
  std::ostringstream unsampled;
  printHottestLines(results, unsampled);
  EXPECT_EQ(unsampled.str(), "");
}
