// Profiling timestamps a driver leaves at 0 (analyzer/support/event_times.hpp).
#include <gtest/gtest.h>

#include "analyzer/support/event_times.hpp"

using namespace rooflab;

namespace {

EventTimes times(std::int64_t queued, std::int64_t submit, std::int64_t start, std::int64_t end) {
  EventTimes t;
  t.queued_ns = queued;
  t.submit_ns = submit;
  t.start_ns = start;
  t.end_ns = end;
  return t;
}

}  // namespace

TEST(EventTimes, ReportedStagesAreKept) {
  const EventTimes t = filledIn(times(100, 110, 130, 200));
  EXPECT_TRUE(t.reported);
  EXPECT_EQ(t.queued_ns, 100);
  EXPECT_EQ(t.submit_ns, 110);
  EXPECT_EQ(t.start_ns, 130);
  EXPECT_EQ(t.end_ns, 200);
}

TEST(EventTimes, AnUnreportedQueuedTimeIsTheSubmitTimeNotTheClocksEpoch) {
  // As an invalidating map for writing reports on NVIDIA: end on a clock that started long ago.
  const std::int64_t now = 1'795'692'147'000'000'000;
  const EventTimes t = filledIn(times(0, now + 10, now + 20, now + 50));
  EXPECT_EQ(t.queued_ns, now + 10);
  EXPECT_EQ(t.end_ns - t.queued_ns, 40);
}

TEST(EventTimes, OnlyAnEndReportedIsACommandOfNoTime) {
  const EventTimes t = filledIn(times(0, 0, 0, 5000));
  EXPECT_TRUE(t.reported);
  EXPECT_EQ(t.queued_ns, 5000);
  EXPECT_EQ(t.start_ns, 5000);
}

TEST(EventTimes, StagesOutOfOrderAreClampedToTheNextOne) {
  const EventTimes t = filledIn(times(300, 100, 150, 200));
  EXPECT_EQ(t.queued_ns, 100);
  const EventTimes no_end = filledIn(times(10, 20, 30, 0));
  EXPECT_EQ(no_end.end_ns, 30);
}

TEST(EventTimes, NoTimesAtAllAreSaid) { EXPECT_FALSE(filledIn(times(0, 0, 0, 0)).reported); }
