// Renderers (reports/): every test reads the checked-in results fixtures, as `rooflab report`
// does; nothing here needs a device.
//
// This file: `rooflab diff` (ReportDiff) and the noise target (ReportNoise).

#include "reports/reports_test_support.hpp"

// ---- diff ----

namespace {

// A record `factor` times slower in every repetition, as a run of slower code would be: the
// repetitions are what `diff` tests, the summary and the rates follow them.
void slowDown(json& record, double factor) {
  json& timings = record["timings"];
  for (json& repetition : timings["repetitions"]) {
    repetition["kernel_ns"] = std::llround(repetition["kernel_ns"].get<double>() * factor);
  }
  for (const char* key : {"median", "min", "max"})
    timings["kernel_ns"][key] = timings["kernel_ns"][key].get<double>() * factor;
  for (const char* key : {"gflops", "gbps"})
    if (timings.contains(key) && timings[key].is_number()) timings[key] = timings[key].get<double>() / factor;
}

const rooflab::PointComparison* changeOf(const rooflab::RunComparison& diff, const std::string& text) {
  for (const rooflab::PointComparison& change : diff.matched)
    if (reports::pointKeyText(change.key) == text) return &change;
  return nullptr;
}

std::string diffText(const rooflab::RunComparison& diff) {
  std::ostringstream out;
  reports::printDiff(diff, out);
  return out.str();
}

std::string lineWith(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

rooflab::RunComparisonOptions minEffect(double min_effect) {
  rooflab::RunComparisonOptions options;
  options.min_effect = min_effect;
  return options;
}

}  // namespace

TEST(ReportDiff, IdenticalRunsDoNotRegress) {
  const json results = loadFixture(kGpuFixture);
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(results), typed(results));
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_FALSE(diff.refusal.has_value());
  EXPECT_EQ(diff.matched.size(), results["records"].size());
  EXPECT_TRUE(diff.added.empty());
  EXPECT_TRUE(diff.removed.empty());
  EXPECT_TRUE(diff.warnings.empty());
  EXPECT_EQ(diff.count(rooflab::PointVerdict::regressed) + diff.count(rooflab::PointVerdict::improved), 0u);
}

// The rule changed from "median slower by more than 10%" to a test on the repetitions and a
// minimum effect of 20%: the doctored copy now slows the repetitions down, not only the median.
TEST(ReportDiff, FindsARegressionInADoctoredCopy) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  json* tiled = findRecord(new_run, "matmul", "tiled16", "normal", 1024);
  ASSERT_NE(tiled, nullptr);
  slowDown(*tiled, 1.25);
  // 5% slower, with repetitions that do not overlap the old ones: significant, but under the default
  // minimum effect of 20%.
  slowDown(*findRecord(new_run, "matmul", "naive", "normal", 1024), 1.05);
  // One record gone, one new.
  json added = new_run["records"][0];
  added["params"]["N"] = 33554432;
  new_run["records"].erase(new_run["records"].begin() + 1);
  new_run["records"].push_back(added);

  const rooflab::RunComparison diff = rooflab::compareRuns(typed(old_run), typed(new_run));
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  std::vector<std::string> regressed;
  for (const rooflab::PointComparison& change : diff.matched)
    if (change.verdict == rooflab::PointVerdict::regressed) regressed.push_back(reports::pointKeyText(change.key));
  EXPECT_EQ(regressed, std::vector<std::string>{"matmul/tiled16 N=1024 (normal)"});
  const rooflab::PointComparison* tiled_change = changeOf(diff, "matmul/tiled16 N=1024 (normal)");
  ASSERT_NE(tiled_change, nullptr);
  ASSERT_TRUE(tiled_change->time_change.has_value());
  EXPECT_NEAR(*tiled_change->time_change, 0.25, 1e-5);
  ASSERT_TRUE(tiled_change->comparison.has_value());
  EXPECT_NEAR(tiled_change->comparison->p_value, 2.0 / 252, 1e-12);  // 5 + 5 that do not overlap: exact
  const rooflab::PointComparison* naive_change = changeOf(diff, "matmul/naive N=1024 (normal)");
  ASSERT_NE(naive_change, nullptr);
  EXPECT_EQ(naive_change->verdict, rooflab::PointVerdict::unchanged_within_noise);
  EXPECT_LT(naive_change->comparison->p_value, 0.05);
  ASSERT_EQ(diff.added.size(), 1u);
  EXPECT_EQ(reports::pointParamsText(diff.added[0]), "N=33554432, WG=256");
  ASSERT_EQ(diff.removed.size(), 1u);
  EXPECT_EQ(reports::pointKeyText(diff.removed[0]), "vecadd/global N=16777216, WG=256 (compute-only)");

  const std::string text = diffText(diff);
  // Each record shows its p-value and the ratio's interval beside the verdict.
  const std::string tiled_line = lineWith(text, "matmul/tiled16 N=1024 (normal)");
  EXPECT_NE(tiled_line.find("+25.0%"), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("1.250 ["), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("0.0079"), std::string::npos) << text;
  EXPECT_NE(tiled_line.find("REGRESSED"), std::string::npos) << text;
  EXPECT_NE(lineWith(text, "matmul/naive N=1024 (normal)").find("unchanged within noise"), std::string::npos) << text;
  EXPECT_NE(text.find("new/old (95% interval)"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSED: 1 of " + std::to_string(diff.matched.size()) + " matched records"),
            std::string::npos);
  EXPECT_NE(text.find("(a change counts when p < 0.05 and the median moved by more than 20%)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("added:   vecadd/global N=33554432, WG=256 (normal)"), std::string::npos);

  // A larger minimum effect lets the same change pass; a smaller one catches the 5% too.
  EXPECT_NE(rooflab::compareRuns(typed(old_run), typed(new_run), minEffect(0.30)).outcome,
            rooflab::ComparisonOutcome::regressed);
  EXPECT_EQ(
      rooflab::compareRuns(typed(old_run), typed(new_run), minEffect(0.04)).count(rooflab::PointVerdict::regressed),
      2u);
}

TEST(ReportDiff, NewErrorsAndVerificationFailuresRegress) {
  const json old_run = loadFixture(kCpuFixture);
  json new_run = old_run;
  json* global = findRecord(new_run, "vecadd", "global", "normal", 1048576);
  (*global)["status"] = "error";
  (*global)["error"] = "clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES (-5)";
  (*global)["timings"] = nullptr;
  json* vec4 = findRecord(new_run, "vecadd", "vec4", "normal", 1048576);
  (*vec4)["verification"]["status"] = "failed";
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(old_run), typed(new_run));
  EXPECT_TRUE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  std::size_t regressions = 0;
  for (const auto& change : diff.matched) regressions += (change.verdict == rooflab::PointVerdict::regressed);
  EXPECT_EQ(regressions, 2u);
  const std::string text = diffText(diff);
  EXPECT_NE(text.find("REGRESSED: ran before, now errors"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSED: now fails verification"), std::string::npos) << text;
  // The record that already failed verification in the old run is no news.
  EXPECT_NE(rooflab::compareRuns(typed(old_run), typed(old_run)).outcome, rooflab::ComparisonOutcome::regressed);
}

TEST(ReportDiff, FasterRepetitionsImprove) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  slowDown(*findRecord(new_run, "matmul", "tiled16", "normal", 1024), 0.5);
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(old_run), typed(new_run));
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::regressed);
  EXPECT_EQ(diff.count(rooflab::PointVerdict::improved), 1u);
  EXPECT_EQ(changeOf(diff, "matmul/tiled16 N=1024 (normal)")->verdict, rooflab::PointVerdict::improved);
  const std::string text = diffText(diff);
  EXPECT_NE(lineWith(text, "matmul/tiled16 N=1024 (normal)").find("IMPROVED"), std::string::npos) << text;
  EXPECT_NE(lineWith(text, "matmul/tiled16 N=1024 (normal)").find("  0.0079  "), std::string::npos) << text;
  // The fixture's skipped and failed mutants are not compared.
  ASSERT_EQ(diff.count(rooflab::PointVerdict::not_compared), 3u);
  EXPECT_NE(text.find("no regression among 42 matched records: 1 improved, 38 unchanged within noise, 3 not compared"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not compared: skipped in both runs"), std::string::npos) << text;
}

// A whole run on a slower host, as a shared host gives. Every repetition moved, so the test is
// significant everywhere; only the minimum effect keeps that from reading as a regression.
TEST(ReportDiff, ARunThatMovedLessThanTheMinimumEffectIsUnchanged) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  for (json& record : new_run["records"])
    if (record["timings"].is_object()) slowDown(record, 1.15);
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(old_run), typed(new_run));
  EXPECT_FALSE(diff.outcome == rooflab::ComparisonOutcome::regressed) << diffText(diff);
  std::size_t significant = 0;
  for (const auto& change : diff.matched) significant += change.comparison && change.comparison->p_value < 0.05;
  EXPECT_GT(significant, 0u);
  EXPECT_EQ(diff.count(rooflab::PointVerdict::regressed), 0u);
  // The same shift beyond the minimum effect is a regression of every record that ran.
  EXPECT_EQ(rooflab::compareRuns(typed(old_run), typed(new_run), minEffect(0.10)).outcome,
            rooflab::ComparisonOutcome::regressed);
}

TEST(ReportDiff, TooFewRepetitionsCannotBeSignificant) {
  const json old_run = loadFixture(kGpuFixture);
  json new_run = old_run;
  json* tiled = findRecord(new_run, "matmul", "tiled16", "normal", 1024);
  json trimmed_old = old_run;
  json* tiled_old = findRecord(trimmed_old, "matmul", "tiled16", "normal", 1024);
  for (json* record : {tiled, tiled_old}) {
    json& repetitions = (*record)["timings"]["repetitions"];
    repetitions.erase(repetitions.begin() + 3, repetitions.end());  // 3 each
  }
  ASSERT_EQ((*tiled)["timings"]["repetitions"].size(), 3u);
  slowDown(*tiled, 2.0);
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(trimmed_old), typed(new_run));
  const rooflab::PointComparison* change = changeOf(diff, "matmul/tiled16 N=1024 (normal)");
  ASSERT_NE(change, nullptr);
  EXPECT_EQ(change->verdict, rooflab::PointVerdict::unchanged_within_noise);
  EXPECT_NEAR(change->comparison->p_value, 0.1, 1e-12);  // 2 / C(6, 3): the smallest there is
  EXPECT_NE(diffText(diff).find("unchanged within noise: 3 + 3 repetitions cannot reach p < 0.05"), std::string::npos)
      << diffText(diff);
}

TEST(ReportDiff, RefusesOtherDevicesUnlessAllowedAndRejectsBadSettings) {
  const json cpu = loadFixture(kCpuFixture);
  const json gpu = loadFixture(kGpuFixture);
  const rooflab::RunComparison refused = rooflab::compareRuns(typed(cpu), typed(gpu));
  ASSERT_TRUE(refused.refusal.has_value());
  EXPECT_NE(reports::refusalText(*refused.refusal)
                .find("OLD ran on \"cpu-haswell-Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz\" "
                      "(Portable Computing Language), NEW on \"NVIDIA H100 80GB HBM3\" (NVIDIA CUDA)"),
            std::string::npos)
      << reports::refusalText(*refused.refusal);
  EXPECT_NE(reports::refusalText(*refused.refusal).find("--allow-other-device"), std::string::npos);
  EXPECT_TRUE(refused.matched.empty());
  EXPECT_FALSE(refused.outcome == rooflab::ComparisonOutcome::regressed);

  // The same device on another platform is another device too.
  json other_platform = cpu;
  other_platform["device"]["platform"] = "Intel(R) OpenCL";
  EXPECT_TRUE(rooflab::compareRuns(typed(cpu), typed(other_platform)).refusal.has_value());

  rooflab::RunComparisonOptions allow;
  allow.allow_other_device = true;
  const rooflab::RunComparison allowed = rooflab::compareRuns(typed(cpu), typed(other_platform), allow);
  EXPECT_FALSE(allowed.refusal.has_value());
  ASSERT_EQ(allowed.warnings.size(), 1u);
  EXPECT_NE(reports::warningText(allowed.warnings[0]).find("different devices"), std::string::npos);
  EXPECT_EQ(allowed.matched.size(), cpu["records"].size());

  EXPECT_THROW(rooflab::compareRuns(typed(cpu), typed(cpu), minEffect(-0.1)), std::invalid_argument);
  for (double alpha : {0.0, 1.0, -0.5}) {
    rooflab::RunComparisonOptions bad;
    bad.alpha = alpha;
    EXPECT_THROW(rooflab::compareRuns(typed(cpu), typed(cpu), bad), std::invalid_argument) << alpha;
  }
}

TEST(ReportDiff, NothingMatchedSaysWhy) {
  const json cpu = loadFixture(kCpuFixture);
  json running = cpu;
  running["records"] = json::array();
  running["status"] = "running";
  running.erase("summary");
  const rooflab::RunComparison empty = rooflab::compareRuns(typed(cpu), typed(running));
  ASSERT_TRUE(empty.refusal.has_value());
  EXPECT_EQ(reports::refusalText(*empty.refusal), "nothing to compare: NEW has 0 records (status: running)");

  json other_family = cpu;
  for (json& record : other_family["records"]) record["family"] = "transpose";
  const rooflab::RunComparison families = rooflab::compareRuns(typed(cpu), typed(other_family));
  ASSERT_TRUE(families.refusal.has_value());
  EXPECT_EQ(reports::refusalText(*families.refusal),
            "nothing to compare: no family in common: OLD holds matmul, vecadd, NEW holds transpose")
      << reports::refusalText(*families.refusal);

  json other_size = cpu;
  for (json& record : other_size["records"]) record["params"]["N"] = 12345;
  const rooflab::RunComparison sizes = rooflab::compareRuns(typed(cpu), typed(other_size));
  ASSERT_TRUE(sizes.refusal.has_value());
  EXPECT_NE(reports::refusalText(*sizes.refusal)
                .find("no record of OLD has the (family, variant, params, mode) of one in NEW"),
            std::string::npos)
      << reports::refusalText(*sizes.refusal);
  EXPECT_NE(reports::refusalText(*sizes.refusal).find("N=12345"), std::string::npos)
      << reports::refusalText(*sizes.refusal);
}

// ---- Noise target: intervals, convergence and the host ----

namespace {

// The CPU fixture as a run measured to a noise target would write it: every timed record with its
// median's interval, the first normal record not converged, and a noisy host.
json withIntervals() {
  json results = loadFixture(kCpuFixture);
  bool first_normal = true;
  for (json& record : results["records"]) {
    json& timings = record["timings"];
    if (!timings.is_object() || !timings["kernel_ns"].is_object() || !timings["kernel_ns"]["median"].is_number())
      continue;
    const double median = timings["kernel_ns"]["median"].get<double>();
    const bool converged = !(first_normal && record["mode"] == "normal");
    if (record["mode"] == "normal") first_normal = false;
    timings["kernel_ns_interval"] = {{"lower", median * 0.9},
                                     {"upper", median * 1.1},
                                     {"confidence", 0.95},
                                     {"noise", 0.1},
                                     {"converged", converged}};
  }
  results["host"] = {{"cpu_governor", "powersave"},
                     {"load_average_1min", 3.5},
                     {"core_count", 2},
                     {"gpu_sm_clock_unavailable", "not an NVIDIA GPU"}};
  results["noisy_host"] = "load average 3.50 on 2 cores";
  return results;
}

}  // namespace

TEST(ReportNoise, IntervalsAndTheHostRoundTripThroughJson) {
  const json results = withIntervals();
  const json written = asWritten(results);
  EXPECT_EQ(written["host"], results["host"]);
  EXPECT_EQ(written["noisy_host"], results["noisy_host"]);
  std::size_t intervals = 0;
  for (std::size_t i = 0; i < results["records"].size(); ++i) {
    const json& timings = results["records"][i]["timings"];
    if (!timings.is_object() || !timings.contains("kernel_ns_interval")) continue;
    ++intervals;
    EXPECT_EQ(written["records"][i]["timings"]["kernel_ns_interval"], timings["kernel_ns_interval"]) << i;
  }
  EXPECT_GT(intervals, 0u);
  EXPECT_EQ(asWritten(written), written);
}

TEST(ReportNoise, ChartDrawsBarsAndHollowMarkersForMissedTargets) {
  const rooflab::ResultsDocument document = typed(withIntervals());
  const std::string family = document.records.front().family;
  const reports::RooflineChart chart = reports::buildRooflineChart(document, family);
  ASSERT_FALSE(chart.points.empty());
  std::size_t missed = 0;
  for (const reports::VariantPoint& point : chart.points) {
    ASSERT_TRUE(point.median_interval && point.min_max);
    EXPECT_LT(point.median_interval->low, point.at.gflops);  // slower end of the time interval
    EXPECT_GT(point.median_interval->high, point.at.gflops);
    EXPECT_LT(point.min_max->low, point.min_max->high);
    if (point.missed_noise_target) ++missed;
  }
  EXPECT_EQ(missed, 1u);
  const reports::ChartScene scene = reports::layoutRooflineChart(chart);
  std::size_t hollow_points = 0, legend_texts = 0;
  for (const reports::SceneItem& item : scene.items) {
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item);
        marker && marker->hollow && !marker->tooltip.empty())
      ++hollow_points;
    if (const auto* text = std::get_if<reports::SceneText>(&item);
        text && (text->text == "95% interval of median" || text->text == "hollow: noise target missed"))
      ++legend_texts;
  }
  EXPECT_EQ(hollow_points, 1u);
  EXPECT_EQ(legend_texts, 2u);
  EXPECT_NE(reports::renderSvgChart(scene, family).find("fill=\"#ffffff\" stroke=\"#"), std::string::npos);
}

TEST(ReportNoise, HtmlMarksNoisyRecordsOnceExplainedAndTheNoisyHost) {
  const std::string html = reports::renderHtmlReport(typed(withIntervals()));
  EXPECT_EQ(countOccurrences(html, "did not meet"), 1u);
  EXPECT_GE(countOccurrences(html, "<span class=\"bad\">noisy</span>"), 2u);  // the note and the record's cell
  EXPECT_NE(html.find("±10.0%"), std::string::npos);
  EXPECT_NE(html.find("noisy host</strong>: load average 3.50 on 2 cores"), std::string::npos);
  EXPECT_NE(html.find("NOT converged"), std::string::npos);  // the tooltip
  // Older results say nothing of noise.
  const std::string old_html = reports::renderHtmlReport(typed(loadFixture(kCpuFixture)));
  EXPECT_EQ(old_html.find("did not meet"), std::string::npos);
  EXPECT_EQ(old_html.find("<span class=\"bad\">noisy</span>"), std::string::npos);
  EXPECT_EQ(old_html.find("noisy host</strong>"), std::string::npos);
}

TEST(ReportNoise, CsvHasTheIntervalColumnsWhenMeasuredToATarget) {
  const json results = withIntervals();
  const auto rows = parseCsv(csvText(results));
  const std::vector<std::string>& header = rows.at(0);
  auto column = [&](const std::string& title) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), title) - header.begin());
  };
  ASSERT_LT(column("converged"), header.size());
  ASSERT_LT(column("median_ns_low"), header.size());
  std::size_t not_converged = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size());
    if (rows[i][column("converged")] == "false") ++not_converged;
    if (!rows[i][column("median_ns")].empty())
      EXPECT_NEAR(std::stod(rows[i][column("median_ns_low")]), 0.9 * std::stod(rows[i][column("median_ns")]), 1.0);
  }
  EXPECT_EQ(not_converged, 1u);
  const auto old_header = parseCsv(csvText(loadFixture(kCpuFixture))).at(0);
  EXPECT_EQ(std::find(old_header.begin(), old_header.end(), "converged"), old_header.end());
}

TEST(ReportNoise, DiffWarnsOfNoisyHostsAndRecordsThatMissedTheTarget) {
  const rooflab::ResultsDocument noisy = typed(withIntervals());
  const rooflab::RunComparison diff = rooflab::compareRuns(typed(loadFixture(kCpuFixture)), noisy);
  ASSERT_EQ(diff.warnings.size(), 2u);
  EXPECT_EQ(reports::warningText(diff.warnings[0]), "NEW ran on a noisy host: load average 3.50 on 2 cores");
  EXPECT_EQ(reports::warningText(diff.warnings[1]),
            "1 record of NEW did not meet the noise target: its median is less certain than the others'");
}
