// What-if mutations: the manifest's [[variants.what_if]], the check of their expectation
// and their gains, the JSON edge, and a run of the built-in transpose family on PoCL as a user sees it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/diagnose/what_if.hpp"
#include "reports/text/what_if_sentences.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::fileText;
using rooflab::testing::replaced;
using rooflab::testing::TempDir;

namespace {

const char* kKernel = R"(
kernel void add(global const float* a, global const float* b, global float* c) {
  int i = get_global_id(0);
#ifdef RL_WHATIF_FAST
  c[i] = a[i];
#else
  c[i] = a[i] + b[i];
#endif
}
)";

std::string family(const std::string& what_if) {
  return rooflab::testing::vecaddFamilyHeader("wi") +
         "[[variants]]\nname = \"slow\"\nsource = \"k.cl\"\nkernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\n"
         "global = [\"N\"]\nlocal = [\"64\"]\n" +
         what_if +
         "[[variants]]\nname = \"fast\"\nsource = \"k.cl\"\nkernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\n"
         "global = [\"N\"]\nlocal = [\"64\"]\n";
}

const char* kWhatIf = R"([[variants.what_if]]
name = "no-add"
define = "RL_WHATIF_FAST"
description = "the add left out"
expect = { counter = "fp32_flops", to = 0 }
realised_by = "fast"
)";

std::string manifestError(const std::string& text) {
  TempDir dir;
  dir.write("wi/k.cl", kKernel);
  try {
    loadFamilyManifest(dir.write("wi/family.toml", text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(WhatIfManifest, ReadsNameDefineExpectationAndRealisedBy) {
  TempDir dir;
  dir.write("wi/k.cl", kKernel);
  const FamilyManifest f = loadFamilyManifest(dir.write("wi/family.toml", family(kWhatIf)));
  ASSERT_EQ(f.variants[0].what_ifs.size(), 1u);
  const WhatIfSpec& w = f.variants[0].what_ifs[0];
  EXPECT_EQ(w.name, "no-add");
  EXPECT_EQ(w.define, "RL_WHATIF_FAST");
  ASSERT_TRUE(w.expect);
  EXPECT_EQ(w.expect->counter, "fp32_flops");
  EXPECT_EQ(w.expect->comparison, WhatIfComparison::to);
  EXPECT_EQ(w.expect->value, 0);
  EXPECT_EQ(w.realised_by, "fast");
  EXPECT_TRUE(f.variants[1].what_ifs.empty());
}

TEST(WhatIfManifest, TheTransposeFamilyDeclaresNoBankConflictsRealisedByThePaddedTile) {
  const FamilyManifest f =
      loadFamilyManifest(std::filesystem::path(ROOFLAB_SOURCE_DIR) / "kernels" / "transpose" / "family.toml");
  const VariantSpec* tiled = f.findVariant("tiled");
  ASSERT_NE(tiled, nullptr);
  ASSERT_EQ(tiled->what_ifs.size(), 1u);
  EXPECT_EQ(tiled->what_ifs[0].name, "no-bank-conflicts");
  ASSERT_TRUE(tiled->what_ifs[0].expect);
  EXPECT_EQ(tiled->what_ifs[0].expect->counter, "shared_bank_conflicts");
  EXPECT_EQ(tiled->what_ifs[0].realised_by, "tiled_padded");
}

struct BadWhatIf {
  const char* name;
  const char* from;
  const char* to;
  const char* expect;  // substring of the error
};

class WhatIfManifestErrors : public ::testing::TestWithParam<BadWhatIf> {};

TEST_P(WhatIfManifestErrors, NameFileLineKeyAndReason) {
  const BadWhatIf& c = GetParam();
  const std::string error = manifestError(family(replaced(kWhatIf, c.from, c.to)));
  ASSERT_FALSE(error.empty()) << "no error for " << c.name;
  EXPECT_TRUE(contains(error, "family.toml:")) << error;
  EXPECT_TRUE(contains(error, c.expect)) << error;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, WhatIfManifestErrors,
    ::testing::Values(
        BadWhatIf{"unknown_counter", "\"fp32_flops\"", "\"shared_bank_conflict\"",
                  "unknown counter 'shared_bank_conflict' (did you mean 'shared_bank_conflicts'?)"},
        BadWhatIf{"two_comparisons", "to = 0 }", "to = 0, below = 3 }", "give exactly one of to, below or ratio_below"},
        BadWhatIf{"no_comparison", ", to = 0 }", " }", "give exactly one of to, below or ratio_below (got 0)"},
        BadWhatIf{"unknown_comparison", "to = 0 }", "upto = 0 }", "unknown key"},
        BadWhatIf{"unused_define", "define = \"RL_WHATIF_FAST\"", "define = \"RL_WHATIF_FASTER\"",
                  "'RL_WHATIF_FASTER' does not appear in the variant's sources"},
        BadWhatIf{"bad_define", "define = \"RL_WHATIF_FAST\"", "define = \"RL-FAST\"", "not a valid macro name"},
        BadWhatIf{"bad_name", "name = \"no-add\"", "name = \"no add\"", "not a valid what-if name"},
        BadWhatIf{"unknown_realised_by", "realised_by = \"fast\"", "realised_by = \"fats\"",
                  "realised_by: no variant 'fats' in"},
        BadWhatIf{"realised_by_itself", "realised_by = \"fast\"", "realised_by = \"slow\"", "names the variant itself"},
        BadWhatIf{"unknown_key", "realised_by = \"fast\"", "realized_by = \"fast\"", "unknown key"}),
    [](const ::testing::TestParamInfo<BadWhatIf>& info) { return std::string(info.param.name); });

TEST(WhatIfManifest, ErrorsCarryTheLineOfTheKey) {
  const std::string text = family(replaced(kWhatIf, "\"fp32_flops\"", "\"flops\""));
  const std::string error = manifestError(text);
  const int line = rooflab::testing::lineOf(text, "expect = {");
  EXPECT_TRUE(contains(error, "family.toml:" + std::to_string(line) + ": variants[0].what_if[0].expect.counter"))
      << error;
}

TEST(WhatIfManifest, DuplicateNamesAreRejected) {
  const std::string error = manifestError(family(std::string(kWhatIf) + kWhatIf));
  EXPECT_TRUE(contains(error, "duplicate what-if name 'no-add'")) << error;
}

namespace {

RunRecord timedRecord(const std::string& variant, RunMode mode, double median_ns) {
  RunRecord r;
  r.family = "transpose";
  r.variant = variant;
  r.mode = mode;
  r.params = {{"N", 1024}};
  r.param_order = {"N"};
  r.timings.emplace();
  r.timings->kernel_ns.median = median_ns;
  // A gain is given only from records that verified (a what-if's outputs are not results).
  r.verification.status = mode == RunMode::normal ? VerificationStatus::passed : VerificationStatus::skipped;
  return r;
}

void setCounter(RunRecord& r, const std::string& key, double value) {
  r.counters.available = true;
  r.counters.not_attempted = false;
  r.counters.derived[key] = value;
}

RunRecord whatIfRecord(double median_ns, WhatIfComparison comparison, double value) {
  RunRecord r = timedRecord("tiled", RunMode::what_if, median_ns);
  WhatIfRun& w = r.what_if.emplace();
  w.name = "no-bank-conflicts";
  w.define = "RL_WHATIF_NO_BANK_CONFLICTS";
  w.expectation = WhatIfExpectation{"shared_bank_conflicts", comparison, value};
  w.realised_by = "tiled_padded";
  return r;
}

}  // namespace

TEST(WhatIfAnalysis, CountersShowTheConflictsGoneAndBothGainsStandSideBySide) {
  std::vector<RunRecord> records = {timedRecord("tiled", RunMode::normal, 2000),
                                    whatIfRecord(1000, WhatIfComparison::to, 0),
                                    timedRecord("tiled_padded", RunMode::normal, 1250)};
  setCounter(records[0], "shared_bank_conflicts", 1e6);
  setCounter(records[1], "shared_bank_conflicts", 120);  // within 1% of the original's 1 M: "to 0"
  const WhatIfOutcome w = whatIfOutcome(records, records[1]);
  EXPECT_EQ(w.check, WhatIfCheck::met) << reports::whatIfCheckDetailText(*records[1].what_if, w);
  EXPECT_EQ(*w.counter_original, 1e6);
  EXPECT_EQ(*w.counter_what_if, 120);
  EXPECT_DOUBLE_EQ(*w.predicted_gain, 2.0);
  EXPECT_DOUBLE_EQ(*w.realised_gain, 1.6);
  EXPECT_FALSE(records[0].what_if);  // normal records are left alone
}

TEST(WhatIfAnalysis, AnExpectationTheCountersContradictFails) {
  std::vector<RunRecord> records = {timedRecord("tiled", RunMode::normal, 2000),
                                    whatIfRecord(1900, WhatIfComparison::ratio_below, 0.1)};
  setCounter(records[0], "shared_bank_conflicts", 1e6);
  setCounter(records[1], "shared_bank_conflicts", 5e5);
  const WhatIfOutcome w = whatIfOutcome(records, records[1]);
  EXPECT_EQ(w.check, WhatIfCheck::failed);
  EXPECT_EQ(w.check_basis, WhatIfCheckBasis::counters_compared);
  EXPECT_EQ(reports::whatIfCheckDetailText(*records[1].what_if, w),
            "shared_bank_conflicts 1000000 (original) -> 500000 (what-if); expected shared_bank_conflicts below 0.1 x "
            "the original's");
}

TEST(WhatIfAnalysis, WithoutCountersTheExpectationIsNotCheckedAndSaysWhy) {
  std::vector<RunRecord> records = {timedRecord("tiled", RunMode::normal, 2000),
                                    whatIfRecord(2500, WhatIfComparison::to, 0)};
  records[1].counters = counters::CounterSet::notAttempted("counters unavailable: not an NVIDIA device");
  const WhatIfOutcome w = whatIfOutcome(records, records[1]);
  EXPECT_EQ(w.check, WhatIfCheck::not_checked);
  EXPECT_EQ(w.check_basis, WhatIfCheckBasis::no_counters);
  EXPECT_EQ(w.check_record, WhatIfRecordRole::what_if);
  EXPECT_EQ(reports::whatIfCheckDetailText(*records[1].what_if, w),
            "no counters on the what-if: counters unavailable: not an NVIDIA device");
  EXPECT_DOUBLE_EQ(*w.predicted_gain, 0.8);  // slower: the report says "none"
  EXPECT_FALSE(w.realised_gain);             // tiled_padded did not run
}

TEST(WhatIfJson, TheResultRoundTripsThroughTheResultsFile) {
  std::vector<RunRecord> records = {timedRecord("tiled", RunMode::normal, 2000),
                                    whatIfRecord(1000, WhatIfComparison::ratio_below, 0.1),
                                    timedRecord("tiled_padded", RunMode::normal, 1250)};
  RecordConclusions concluded;
  concluded.what_if_outcome = whatIfOutcome(records, records[1]);
  const nlohmann::json j = toJson(records[1], concluded);
  EXPECT_EQ(j["mode"], "what-if");
  EXPECT_EQ(j["what_if"]["expect"]["comparison"], "ratio_below");
  EXPECT_FALSE(toJson(records[0]).contains("what_if"));  // old records re-render byte for byte
  const AnalysedRecord back = analysedRecordFromJson(j);
  ASSERT_TRUE(back.what_if);
  EXPECT_EQ(back.mode, RunMode::what_if);
  EXPECT_EQ(back.label(), "transpose/tiled N=1024 (what-if no-bank-conflicts)");
  EXPECT_EQ(toJson(back, back), j);
}

// As a user runs it: the transpose family with its what-ifs on PoCL, where there are no counters.
TEST(WhatIfRun, TransposeOnPoclPredictsAGainBesideThePaddedVariantsAndSaysTheCheckNeedsCounters) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("transpose.toml", R"([run]
device = "cpu"
repetitions = 3
warmup = 1
counters = "auto"
ceilings = "datasheet"
formats = ["json", "html"]
out = "out"
[[study]]
family = "transpose"
params = { N = 256 }
modes = ["normal", "what-if"]
)");
  const auto o = rooflab::testing::runRooflab("run transpose.toml", dir.path());
  ASSERT_EQ(o.exit_code, 0) << rooflab::testing::show(o);
  // The terminal: one line per what-if under the table.
  EXPECT_TRUE(contains(o.out, "what-if transpose/tiled no-bank-conflicts N=256: predicted gain: ")) << o.out;
  EXPECT_TRUE(contains(o.out, "; tiled_padded (the real optimisation) measured: ")) << o.out;
  EXPECT_TRUE(contains(o.out, "; expectation not checked: no counters on the what-if: counters unavailable")) << o.out;
  EXPECT_TRUE(contains(o.out, "what-if transpose/naive coalesced-stores N=256: ")) << o.out;

  const auto results = nlohmann::json::parse(fileText(dir.path() / "out" / "results.json"));
  int what_ifs = 0;
  for (const auto& r : results["records"]) {
    if (r["mode"] == "normal") {
      EXPECT_TRUE(r["verification"]["status"] == "passed" || r["verification"]["status"] == "reference")
          << r["variant"];
      continue;
    }
    ++what_ifs;
    EXPECT_EQ(r["status"], "ok") << r["error"];
    EXPECT_EQ(r["verification"]["status"], "skipped");
    EXPECT_EQ(r["verification"]["detail"], "a what-if mutation is deliberately incorrect: its outputs are not results");
    EXPECT_TRUE(contains(r["build"]["options"].get<std::string>(), "-D RL_MODE=0")) << r["build"]["options"];
    const auto& w = r["what_if"];
    EXPECT_TRUE(contains(r["build"]["options"].get<std::string>(), " -D " + w["define"].get<std::string>() + "=1"));
    EXPECT_EQ(w["check"], "not_checked");
    EXPECT_TRUE(w["predicted_gain"].is_number()) << w;
    EXPECT_TRUE(w["realised_gain"].is_number()) << w;
    EXPECT_EQ(w["realised_by"], "tiled_padded");
  }
  EXPECT_EQ(what_ifs, 2);  // naive's coalesced-stores, tiled's no-bank-conflicts; tiled_padded declares none

  const std::string html = fileText(dir.path() / "out" / "report.html");
  EXPECT_TRUE(contains(html, "<h3>What-if mutations</h3>")) << "no what-if section";
  EXPECT_TRUE(contains(html, "tiled · no-bank-conflicts")) << "no card for tiled's what-if";
  EXPECT_TRUE(contains(html, "t (tiled_padded)")) << "no bar for the real optimisation";
  EXPECT_TRUE(contains(html, "tiled_padded (the real optimisation) measured: "));
}

TEST(WhatIfRun, AConfigModeNamesWhatIf) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("c.toml", "[run]\nmodes = [\"normal\", \"what-ifs\"]\n[[study]]\nfamily = \"transpose\"\n");
  const auto o = rooflab::testing::runRooflab("run c.toml", dir.path());
  EXPECT_EQ(o.exit_code, 2) << rooflab::testing::show(o);
  EXPECT_TRUE(contains(o.err, "unknown mode 'what-ifs' (expected normal, compute-only, memory-only or what-if)"))
      << o.err;
}

// A gain withheld names the record in the way and its state, in the words the analysis wrote
// before it kept them as data.
TEST(WhatIfAnalysis, AWithheldGainSaysWhichRecordAndItsState) {
  std::vector<RunRecord> records = {timedRecord("tiled", RunMode::normal, 2000),
                                    whatIfRecord(1000, WhatIfComparison::to, 0),
                                    timedRecord("tiled_padded", RunMode::normal, 1250)};
  records[2].verification.status = VerificationStatus::failed;
  records[2].verification.detail = "rel. L2 error 0.5 above 1e-06\nfirst wrong element 3";
  WhatIfOutcome w = whatIfOutcome(records, records[1]);
  ASSERT_TRUE(w.realised_gain_unavailable.has_value());
  EXPECT_EQ(w.realised_gain_unavailable->because, WhatIfGainBlock::verification_failed);
  EXPECT_EQ(reports::whatIfGainWithheldText(*w.realised_gain_unavailable),
            "tiled_padded failed verification (rel. L2 error 0.5 above 1e-06)");
  EXPECT_FALSE(w.predicted_gain_unavailable.has_value());

  records[0].status = RecordStatus::crashed;
  records[0].status_reason = records[0].label() + " on cpu: killed by signal 11\ncore dumped";
  w = whatIfOutcome(records, records[1]);
  ASSERT_TRUE(w.predicted_gain_unavailable.has_value());
  EXPECT_EQ(reports::whatIfGainWithheldText(*w.predicted_gain_unavailable),
            "the original (tiled) crashed: killed by signal 11");
  EXPECT_EQ(reports::whatIfGainWithheldText(*w.realised_gain_unavailable),
            "the original (tiled) crashed: killed by signal 11");

  records.erase(records.begin());  // no original at all; the what-if timed out
  records[0].status = RecordStatus::timed_out;
  records[0].status_reason = "the point ran past its time limit";
  w = whatIfOutcome(records, records[0]);
  EXPECT_EQ(reports::whatIfGainWithheldText(*w.predicted_gain_unavailable),
            "the original (tiled) did not run at these parameters (study it in normal mode)");
  EXPECT_EQ(w.check_basis, WhatIfCheckBasis::what_if_did_not_run);
  EXPECT_EQ(reports::whatIfCheckDetailText(*records[0].what_if, w),
            "the what-if did not run: the point ran past its time limit");
}
