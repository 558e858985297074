// `rooflab tune` without a device: a tuning space read from a manifest (its mistakes at their lines),
// expanded into configurations checked by its constraints, the plan's checks and the device's limits,
// and searched: the exhaustive and random searchers' orders, and the guided searcher on spaces whose
// times are known (it must find a configuration within 3% of the best in a quarter of the space).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "analyzer/config/config.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/tune/searchers.hpp"
#include "analyzer/tune/tune.hpp"
#include "reports/text/tuned_variant_toml.hpp"
#include "analyzer/tune/tuning_plan.hpp"
#include "test_support.hpp"
#include "tune/tunable_family.hpp"

namespace fs = std::filesystem;

namespace rooflab::testing {
namespace {

DeviceInfo smallDevice() {
  DeviceInfo device;
  device.name = "test device";
  device.compute_units = 4;
  device.max_work_group_size = 256;
  device.max_work_item_sizes = {256, 256, 256};
  device.local_mem_bytes = 32768;
  device.max_alloc_bytes = 1ull << 30;
  device.global_mem_bytes = 4ull << 30;
  return device;
}

TuningPlan planOf(const TempDir& dir, const DeviceInfo& device, BatchPlan& plan) {
  const BatchConfig config =
      parseBatchConfig(std::string(kQuickCpuRun) + "[[study]]\nfamily = \"tadd\"\n", "c.toml", dir.path());
  plan = planBatch(config);
  EXPECT_TRUE(plan.input_errors.empty()) << (plan.input_errors.empty() ? "" : plan.input_errors.front());
  return planTuning(plan, device);
}

TEST(TuningSpace, ConstraintsThePlanAndTheDeviceRefuseConfigurationsBeforeAnyRuns) {
  TempDir dir;
  writeTunableFamily(dir);
  BatchPlan plan;
  DeviceInfo device = smallDevice();
  device.max_work_group_size = 32;  // a work-group of 64 does not fit this device
  const TuningPlan tuning = planOf(dir, device, plan);
  ASSERT_EQ(tuning.searches.size(), 1u);
  const TuningResult& r = tuning.searches[0].result;
  ASSERT_EQ(r.dimensions.size(), 3u);
  EXPECT_EQ(r.dimensions[0].kind, "param");
  EXPECT_EQ(r.dimensions[1].kind, "define");
  ASSERT_EQ(r.configurations.size(), 12u);
  EXPECT_EQ(r.valid, 6u);  // WG = 32 only
  std::size_t by_constraint = 0, by_device = 0;
  for (const TunedConfiguration& c : r.configurations) {
    by_constraint += contains(c.reason, "constraint 'WG*VPI <= 64' is false");
    by_device += contains(c.reason, "a work-group of 64 work items exceeds the device's 32");
  }
  EXPECT_EQ(by_constraint, 3u);
  EXPECT_EQ(by_device, 3u);
  ASSERT_TRUE(r.baseline);
  EXPECT_EQ(r.configurations[*r.baseline].values, (std::vector<double>{32, 1, 0}));
  // The ladder is empty (the only variant's own configuration is in its space); one point per valid one.
  EXPECT_EQ(tuning.ladder_points, 0u);
  ASSERT_EQ(tuning.plan->points.size(), 6u);
  const PlannedPoint& point = tuning.plan->points[tuning.searches[0].point_of[*r.baseline]];
  EXPECT_EQ(point.run_point.variant->name, "add[WG=32,VPI=1,FLAW=0]");
  ASSERT_TRUE(point.resolved);
  EXPECT_TRUE(contains(point.resolved->program_options, "-D VPI=1")) << point.resolved->program_options;
  EXPECT_TRUE(contains(point.resolved->program_options, "-D FLAW=0")) << point.resolved->program_options;
}

TEST(TuningSpace, ASpacesMistakesAreInputErrorsAtTheirLines) {
  TempDir dir;
  writeTunableFamily(dir);
  std::string manifest = fileText(dir.path() / "kernels/tadd/family.toml");
  manifest = replaced(manifest, "constraints = [\"WG*VPI <= 64\"]", "constraints = [\"WG*VPI <= \"]\nsearch = 1");
  manifest = replaced(manifest, "FLAW = [0, 1, 2]", "FLAW = []");
  dir.write("kernels/tadd/family.toml", manifest);
  const FamilyDiscovery found = discoverFamilies({dir.path() / "kernels"});
  std::string errors;
  for (const std::string& e : found.errors) errors += e + "\n";
  EXPECT_TRUE(
      contains(errors, ":" + std::to_string(lineOf(manifest, "search = 1")) + ": variants[0].tune.search: unknown key"))
      << errors;
  EXPECT_TRUE(contains(errors, ":" + std::to_string(lineOf(manifest, "FLAW = []")) +
                                   ": variants[0].tune.params.FLAW: is an empty array"))
      << errors;
}

// A search over a space whose times are a function of the values, as the driver feeds a searcher.
struct Simulated {
  TuningResult space;
  std::function<double(const std::vector<double>&)> time_ns;
};

Simulated simulated(std::vector<std::vector<double>> values,
                    std::function<double(const std::vector<double>&)> time_ns) {
  Simulated s{{}, std::move(time_ns)};
  for (std::size_t d = 0; d < values.size(); ++d)
    s.space.dimensions.push_back({"P" + std::to_string(d), "define", values[d]});
  std::vector<std::vector<double>> all{{}};
  for (const auto& dimension : values) {
    std::vector<std::vector<double>> next;
    for (const auto& prefix : all)
      for (double v : dimension) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    all = next;
  }
  for (auto& v : all) s.space.configurations.push_back(TunedConfiguration{v});
  return s;
}

// Runs the searcher to its end or its budget; returns the evaluations and the best time found.
std::pair<std::size_t, double> search(Simulated s, TuneSearcher kind, std::size_t budget,
                                      std::optional<std::size_t> baseline = {}) {
  SearcherSetup setup;
  setup.kind = kind;
  for (std::size_t c = 0; c < s.space.configurations.size(); ++c) setup.valid.push_back(c);
  setup.baseline = baseline;
  setup.budget = budget;
  setup.seed = 7;
  auto searcher = makeSearcher(setup, s.space);
  double best = INFINITY;
  std::string why;
  while (s.space.evaluations < budget) {
    const auto next = searcher->next(s.space, why);
    if (!next) break;
    TunedConfiguration& c = s.space.configurations[*next];
    EXPECT_FALSE(wasTried(c)) << "a configuration is run twice";
    const double t = s.time_ns(c.values);
    c.order = ++s.space.evaluations;
    if (std::isfinite(t)) {
      c.outcome = ConfigurationOutcome::ok;
      c.median_ns = t;
      best = std::min(best, t);
    } else {
      c.outcome = ConfigurationOutcome::build_failed;
    }
  }
  return {s.space.evaluations, best};
}

double bestOf(const Simulated& s) {
  double best = INFINITY;
  for (const TunedConfiguration& c : s.space.configurations) best = std::min(best, s.time_ns(c.values));
  return best;
}

TEST(Searchers, ExhaustiveAndRandomTryEveryConfigurationOnceTheVariantsOwnFirst) {
  const Simulated s = simulated({{1, 2, 3}, {1, 2}}, [](const std::vector<double>& v) { return v[0] * v[1]; });
  SearcherSetup setup;
  setup.valid = {0, 1, 2, 3, 4, 5};
  setup.baseline = 4;
  setup.kind = TuneSearcher::exhaustive;
  EXPECT_EQ(makeSearcher(setup, s.space)->plannedOrder(), (std::vector<std::size_t>{4, 0, 1, 2, 3, 5}));
  setup.kind = TuneSearcher::random;
  setup.seed = 3;
  const std::vector<std::size_t> order = makeSearcher(setup, s.space)->plannedOrder();
  EXPECT_EQ(order.front(), 4u);
  EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), 6u);
  EXPECT_EQ(makeSearcher(setup, s.space)->plannedOrder(), order) << "a seed gives one order: a second run resumes it";
  EXPECT_EQ(search(s, TuneSearcher::exhaustive, 100).first, 6u);
}

// Spaces shaped like GPU tuning spaces: a parameter's value scales the time (tile sizes, loads per
// item), two interact (the work-group and the tile: occupancy), some configurations do not build,
// and the measurements have 2% noise.
double gpuLike(const std::vector<double>& v, std::uint64_t seed) {
  std::mt19937_64 noise(seed + static_cast<std::uint64_t>(v[0] * 131 + v[1] * 17 + v[2] * 7 + v[3] * 3 + v[4]));
  const double threads = v[0] * v[1];
  if (threads > 512) return INFINITY;  // does not build: too many registers
  double t = 1e6;
  t *= 1 + 0.8 * std::pow(std::log2(v[0]) - 3, 2) / 9;   // best at 8
  t *= 1 + 0.5 * std::pow(std::log2(v[1]) - 5, 2) / 25;  // best at 32
  t *= v[2] == 2 ? 0.8 : v[2] == 4 ? 0.75 : v[2] == 8 ? 0.9 : 1.0;
  t *= 1 + 0.3 * std::fabs(std::log2(v[3]) - std::log2(v[1]) + 2) / 4;  // interacts with the second
  t *= v[4] == 1 ? 0.95 : 1.0;
  return t * (1 + 0.02 * (std::uniform_real_distribution<double>(-1, 1)(noise)));
}

TEST(Searchers, TheGuidedSearcherFindsWithin3PercentOfTheBestInAQuarterOfTheSpace) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Simulated s = simulated({{2, 4, 8, 16, 32}, {8, 16, 32, 64}, {1, 2, 4, 8}, {2, 4, 8, 16}, {0, 1}},
                                  [seed](const std::vector<double>& v) { return gpuLike(v, seed); });
    const std::size_t space = s.space.configurations.size();  // 640
    const std::size_t budget = defaultTuneBudget(TuneSearcher::guided, space);
    EXPECT_EQ(budget, 160u);
    const auto [evaluations, best] = search(s, TuneSearcher::guided, budget, 0);
    EXPECT_LE(evaluations, space / 4);
    EXPECT_LE(best, bestOf(s) * 1.03) << "after " << evaluations << " evaluations";
  }
}

TEST(Searchers, TheGuidedSearcherStopsAtTheRoof) {
  Simulated s =
      simulated({{1, 2, 4, 8}, {1, 2, 4, 8}}, [](const std::vector<double>& v) { return 100.0 / (v[0] * v[1]); });
  s.space.roof_rate = 10;
  SearcherSetup setup;
  setup.kind = TuneSearcher::guided;
  for (std::size_t c = 0; c < 16; ++c) setup.valid.push_back(c);
  setup.budget = 16;
  auto searcher = makeSearcher(setup, s.space);
  // The best so far runs at 98% of the roof: once its neighbours are tried, nothing is left to win.
  auto ran = [&](std::size_t c, double rate) {
    s.space.configurations[c].outcome = ConfigurationOutcome::ok;
    s.space.configurations[c].median_ns = 100.0 / rate;
    s.space.configurations[c].rate = rate;
  };
  ran(15, 9.8);
  std::string why;
  const std::optional<std::size_t> next = searcher->next(s.space, why);
  ASSERT_TRUE(next);
  for (std::size_t c : {3u, 7u, 11u, 12u, 13u, 14u}) ran(c, 5);  // the neighbours of 15 (one value changed)
  EXPECT_FALSE(searcher->next(s.space, why));
  EXPECT_TRUE(contains(why, "97% of the device's roof at its intensity and every neighbour of it was tried")) << why;
}

TEST(TuningSpace, TheSnippetKeepsTheBestConfigurationAsAVariantTheManifestReads) {
  TempDir dir;
  writeTunableFamily(dir);
  BatchPlan plan;
  TuningPlan tuning = planOf(dir, smallDevice(), plan);
  TuningResult& r = tuning.searches[0].result;
  const std::size_t best = tuning.searches[0].valid.back();  // WG=64, VPI=1, FLAW=2... any valid one
  r.best = best;
  r.configurations[best].median_ns = 1000;
  const FamilyManifest& family = tuning.plan->families.front();
  const std::string snippet = reports::manifestSnippet(*family.findVariant("add"), r, best, "add_tuned", "test device");
  EXPECT_TRUE(contains(snippet, "name = \"add_tuned\"")) << snippet;
  EXPECT_TRUE(contains(snippet, "WG = ")) << snippet;
  dir.write("kernels/tadd/family.toml", fileText(dir.path() / "kernels/tadd/family.toml") + "\n" + snippet);
  const FamilyDiscovery found = discoverFamilies({dir.path() / "kernels"});
  ASSERT_TRUE(found.errors.empty()) << found.errors.front() << "\n" << snippet;
  const VariantSpec* tuned = found.families.at(0).findVariant("add_tuned");
  ASSERT_NE(tuned, nullptr);
  EXPECT_FALSE(tuned->tune);
}

}  // namespace
}  // namespace rooflab::testing
