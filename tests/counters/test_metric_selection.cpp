// What a record's counters collect (analyzer/counters/metric_selection.hpp), and the profiler session
// kept across records (analyzer/counters/profiler_session.hpp), on a backend that stands for CUPTI.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/metric_selection.hpp"
#include "analyzer/counters/profiler_session.hpp"

namespace rc = rooflab::counters;

TEST(MetricSelection, OriginalsCollectTheWholeTableThenTheExtraMetrics) {
  const rc::MetricSelection plain = rc::selectMetrics(rc::CounterNeed::full_table, {});
  ASSERT_EQ(plain.metrics.size(), rc::counterMetricTable().size());
  for (std::size_t i = 0; i < plain.metrics.size(); ++i)
    EXPECT_EQ(plain.metrics[i], rc::counterMetricTable()[i].raw_name);
  EXPECT_TRUE(plain.timing);
  EXPECT_TRUE(plain.read_back);
  EXPECT_EQ(plain.description, "full table");
  const auto extra = rc::selectMetrics(rc::CounterNeed::full_table, rc::parseExtraMetrics("smsp__a.sum, smsp__b.sum"));
  ASSERT_EQ(extra.metrics.size(), plain.metrics.size() + 2);
  EXPECT_EQ(extra.metrics[plain.metrics.size()], "smsp__a.sum");
  EXPECT_EQ(extra.metrics[plain.metrics.size() + 1], "smsp__b.sum");
}

TEST(MetricSelection, AMutantCollectsWhatValidatesItAndNeitherTimesNorReadsBack) {
  const rc::MetricSelection mutant = rc::selectMetrics(rc::CounterNeed::mutant_validation, {});
  EXPECT_EQ(mutant.metrics, rc::mutantValidationMetrics());
  EXPECT_LT(mutant.metrics.size(), rc::counterMetricTable().size());
  for (const char* needed : {rc::kFadd, rc::kFmul, rc::kFfma, rc::kGlobalLoadSectors, rc::kGlobalStoreSectors})
    EXPECT_NE(std::find(mutant.metrics.begin(), mutant.metrics.end(), needed), mutant.metrics.end()) << needed;
  EXPECT_FALSE(mutant.timing);
  EXPECT_FALSE(mutant.read_back);
  // The extra metrics extend the validation; one already in the set is not asked twice.
  const auto extended = rc::selectMetrics(rc::CounterNeed::mutant_validation, {rc::kDadd, rc::kFadd});
  EXPECT_EQ(extended.metrics.size(), mutant.metrics.size() + 1);
  EXPECT_EQ(extended.metrics.back(), rc::kDadd);
  EXPECT_NE(extended.description.find("extra metrics"), std::string::npos);
}

TEST(MetricSelection, ASetIsKnownByItsMetricsInAnyOrder) {
  EXPECT_EQ(rc::metricSetKey({"b", "a", "b"}), rc::metricSetKey({"a", "b"}));
  EXPECT_NE(rc::metricSetKey({"a"}), rc::metricSetKey({"a", "b"}));
}

namespace {

// Stands for CUPTI: each set needs `passes_per_metric` passes per metric; counts every call.
struct FakeBackend : rc::ProfilerBackend {
  int configures = 0, enables = 0, disables = 0, set_configs = 0, resets = 0, passes_run = 0;
  int fail_next_set_configs = 0;  // setConfig throws this many times
  std::map<int, std::vector<std::string>> sets;
  int pass_in_range = 0, passes_needed = 0;
  int schedule_passes = 0;    // as CUPTI's enabled profiler: the pass count of the first set configured
  int short_next_ranges = 0;  // ranges that end after one pass, whatever the set needs

  MetricSet configure(int id, const std::vector<std::string>& metrics) override {
    ++configures;
    MetricSet set;
    for (const std::string& m : metrics) {
      if (m.rfind("unknown", 0) == 0) set.missing[m] = "not available";
      else set.collected.push_back(m);
    }
    if (set.collected.empty()) throw std::runtime_error("none of the requested metrics is available");
    set.passes = static_cast<int>(set.collected.size());
    sets[id] = set.collected;
    return set;
  }
  void enable() override {
    ++enables;
    schedule_passes = 0;
  }
  void disable() noexcept override { ++disables; }
  void setConfig(int id) override {
    ++set_configs;
    if (fail_next_set_configs > 0) {
      --fail_next_set_configs;
      throw std::runtime_error("cuptiRangeProfilerSetConfig: CUPTI_ERROR_INVALID_OPERATION");
    }
    pass_in_range = 0;
    if (schedule_passes == 0) schedule_passes = static_cast<int>(sets.at(id).size());
    passes_needed = schedule_passes;
    if (short_next_ranges > 0) {
      --short_next_ranges;
      passes_needed = 1;
    }
  }
  bool runPass(const std::function<void()>& work) override {
    ++passes_run;
    work();
    return ++pass_in_range >= passes_needed;
  }
  std::map<std::string, double> decode(int id) override {
    std::map<std::string, double> values;
    for (const std::string& m : sets.at(id)) values[m] = 42;
    return values;
  }
  void reset() noexcept override {
    ++resets;
    sets.clear();
  }
};

}  // namespace

TEST(ProfilerSession, ASetIsConfiguredOnceAndTheProfilerEnabledAfreshOnlyForANewSet) {
  auto backend = std::make_unique<FakeBackend>();
  FakeBackend& fake = *backend;
  rc::ProfilerSession session(std::move(backend));
  int prepared = 0, ran = 0;
  const auto first = session.profile(
      {"a", "b"}, [&] { ++prepared; }, [&] { ++ran; });
  EXPECT_FALSE(first.session_reused);
  EXPECT_EQ(first.passes, 2);
  EXPECT_EQ(first.pass_seconds.size(), 2u);
  EXPECT_EQ(first.values.at("a"), 42);
  const auto second = session.profile(
      {"b", "a"}, [&] { ++prepared; }, [&] { ++ran; });
  EXPECT_TRUE(second.session_reused);
  // A mutant's smaller set: configured once, then reused too; the profiler is enabled afresh for it
  // (an enabled one keeps the first set's pass schedule), then stays enabled.
  session.profile(
      {"a"}, [&] {}, [&] {});
  const auto again = session.profile(
      {"a"}, [&] {}, [&] {});
  EXPECT_TRUE(again.session_reused);
  EXPECT_EQ(again.passes, 1);
  // Back to the first set: enabled afresh again, and all of its passes run.
  const auto full = session.profile(
      {"a", "b"}, [] {}, [] {});
  EXPECT_EQ(full.passes, 2);
  EXPECT_EQ(fake.configures, 2);
  EXPECT_EQ(fake.enables, 3);
  EXPECT_EQ(fake.disables, 2);
  EXPECT_EQ(fake.set_configs, 5);  // one per range
  EXPECT_EQ(prepared, 4);          // before every pass of the first two ranges
  EXPECT_EQ(ran, 4);
}

TEST(ProfilerSession, DisabledBetweenRecordsTheProfilerKeepsItsConfigurations) {
  auto backend = std::make_unique<FakeBackend>();
  FakeBackend& fake = *backend;
  rc::ProfilerSession session(std::move(backend));
  const auto first = session.profile(
      {"a", "b"}, [] {}, [] {});
  session.disableProfiler();
  const auto second = session.profile(
      {"b", "a"}, [] {}, [] {});
  session.disableProfiler();
  session.disableProfiler();  // a second disable has nothing to do
  EXPECT_FALSE(first.session_reused);
  EXPECT_TRUE(second.session_reused);
  EXPECT_EQ(second.values.at("a"), 42);
  EXPECT_EQ(fake.configures, 1);
  EXPECT_EQ(fake.enables, 2);
  EXPECT_EQ(fake.disables, 2);
  EXPECT_EQ(fake.resets, 0);
}

TEST(ProfilerSession, AKeptRangeThatEndsBeforeItsSetsPassesIsProfiledAgainFromAFreshSession) {
  auto backend = std::make_unique<FakeBackend>();
  FakeBackend& fake = *backend;
  rc::ProfilerSession session(std::move(backend));
  EXPECT_EQ(session
                .profile(
                    {"a", "b", "c"}, [] {}, [] {})
                .passes,
            3);
  fake.short_next_ranges = 1;
  const auto retried = session.profile(
      {"a", "b", "c"}, [] {}, [] {});
  EXPECT_EQ(retried.passes, 3);
  EXPECT_FALSE(retried.session_reused);
  EXPECT_EQ(fake.resets, 1);
}

TEST(ProfilerSession, AMetricTheChipLacksIsMissingNotAFailure) {
  rc::ProfilerSession session(std::make_unique<FakeBackend>());
  const auto profile = session.profile(
      {"a", "unknown.sum"}, [] {}, [] {});
  EXPECT_EQ(profile.values.count("a"), 1u);
  EXPECT_EQ(profile.missing.count("unknown.sum"), 1u);
  EXPECT_THROW(session.profile(
                   {"unknown.only"}, [] {}, [] {}),
               std::runtime_error);
}

TEST(ProfilerSession, AReusedSessionThatFailsIsDroppedAndTheRangeProfiledFromAFreshOne) {
  auto backend = std::make_unique<FakeBackend>();
  FakeBackend& fake = *backend;
  rc::ProfilerSession session(std::move(backend));
  session.profile(
      {"a"}, [] {}, [] {});
  fake.fail_next_set_configs = 1;
  const auto recovered = session.profile(
      {"a"}, [] {}, [] {});
  EXPECT_FALSE(recovered.session_reused);
  EXPECT_EQ(recovered.values.at("a"), 42);
  EXPECT_EQ(fake.resets, 1);
  EXPECT_EQ(fake.enables, 2);
  // A fresh session that fails is the answer: no second try.
  session.reset();
  fake.fail_next_set_configs = 2;
  EXPECT_THROW(session.profile(
                   {"a"}, [] {}, [] {}),
               std::runtime_error);
  EXPECT_EQ(fake.fail_next_set_configs, 1);
}

TEST(ProfilerSession, AFailureOfTheWorkIsNeverRetried) {
  auto backend = std::make_unique<FakeBackend>();
  FakeBackend& fake = *backend;
  rc::ProfilerSession session(std::move(backend));
  session.profile(
      {"a"}, [] {}, [] {});
  int runs = 0;
  EXPECT_THROW(session.profile(
                   {"a"}, [] {},
                   [&] {
                     ++runs;
                     throw std::runtime_error("cuLaunchKernel: an illegal memory access");
                   }),
               std::runtime_error);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(fake.resets, 1);  // the session is gone with the context it was on
}
