// One diagnosis per original variant (analyzer/diagnosis.hpp): a rule per disagreement, on hand-built
// records (tests/binary/test_diagnosis_report.cpp: what the reports show of it).
#include <gtest/gtest.h>

#include "analyzer/diagnose/diagnosis.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "analyzer/data/run_record.hpp"

using namespace rooflab;
using rooflab::reports::boundText;
using rooflab::reports::disagreementText;
using rooflab::reports::evidenceText;
using rooflab::reports::summaryText;

namespace {

RooflinePlacement placed(double fraction, RooflineBound bound, MemoryLevel level = MemoryLevel::dram,
                         IntensitySource source = IntensitySource::analytic) {
  RooflinePlacement p;
  p.fraction_of_roof = fraction;
  p.bound = bound;
  p.level = level;
  p.intensity = 0.25;
  p.intensity_source = source;
  return p;
}

MutationVerdict verdict(MutationReading reading, double t_ns, double t_mem_ns, double t_comp_ns) {
  MutationVerdict m;
  m.verdict = reading;
  m.t_ns = t_ns;
  m.t_mem_ns = t_mem_ns;
  m.t_comp_ns = t_comp_ns;
  return m;
}

AnalysedRecord original() {
  AnalysedRecord r;
  r.status = RecordStatus::ok;
  r.timings.emplace().kernel_ns.median = 1e6;
  return r;
}

bool anyDisagreement(const Diagnosis& d, DiagnosisSignal trusted, DiagnosisSignal overruled, const std::string& says) {
  for (const DiagnosisDisagreement& item : d.disagreements)
    if (item.trusted == trusted && item.overruled == overruled &&
        disagreementText(item).find(says) != std::string::npos)
      return true;
  return false;
}

std::string describe(const Diagnosis& d) {
  std::string text = summaryText(d) + "\n";
  for (const DiagnosisEvidence& item : d.evidence) text += "  " + evidenceText(item) + "\n";
  for (const DiagnosisDisagreement& item : d.disagreements) text += "  disagreement: " + disagreementText(item) + "\n";
  return text;
}

}  // namespace

TEST(Diagnosis, SignalsThatAgreeGiveHighConfidenceAndTheirEvidence) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.8, RooflineBound::memory);
  r.mutation = verdict(MutationReading::memory_bound, 1e6, 0.95e6, 0.3e6);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.memory_level, MemoryLevel::dram);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::high);
  EXPECT_TRUE(d.disagreements.empty()) << describe(d);
  ASSERT_EQ(d.evidence.size(), 2u);
  EXPECT_EQ(evidenceText(d.evidence[0]), "roofline, DRAM level: 80% of the DRAM roof at 0.25 FLOP/byte (memory)");
  EXPECT_EQ(d.evidence[1].signal, DiagnosisSignal::mutants);
  EXPECT_NE(evidenceText(d.evidence[1]).find("memory-only 950.0 us (95%)"), std::string::npos) << describe(d);
  EXPECT_EQ(summaryText(d), "memory (DRAM), high confidence");
}

// The roofline cannot tell latency from a bound when the point is below half of every roof.
TEST(Diagnosis, MutantsOverTheRooflineBelowHalfOfEveryRoof) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.2, RooflineBound::latency);
  r.roofline["device_global"] = placed(0.1, RooflineBound::latency, MemoryLevel::global);
  r.mutation = verdict(MutationReading::compute_bound, 1e6, 0.4e6, 0.95e6);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::compute) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::mutants);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::medium);
  ASSERT_EQ(d.disagreements.size(), 1u) << describe(d);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::mutants, DiagnosisSignal::roofline, "below 50% of every roof"))
      << describe(d);
  EXPECT_EQ(d.evidence.size(), 3u) << "one item per roofline level and one for the mutants\n" << describe(d);
}

// A compute-only mutant much slower than the whole kernel (lost vectorisation on a CPU) measures
// another program: the counters, which saw this kernel's traffic, are trusted, with the level.
TEST(Diagnosis, CountersOverMutantsWhoseCodeChanged) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.3, RooflineBound::latency);
  r.roofline["device_counters"] = placed(0.6, RooflineBound::memory, MemoryLevel::dram, IntensitySource::counters);
  r.roofline["device_l2"] = placed(0.85, RooflineBound::memory, MemoryLevel::l2, IntensitySource::counters);
  r.mutation = verdict(MutationReading::compute_bound, 1e6, 0.5e6, 2e6);
  r.mutation->cpu_device = true;
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.memory_level, MemoryLevel::l2);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::counters);
  EXPECT_EQ(boundText(d), "memory (L2)");
  EXPECT_TRUE(
      anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::mutants, "runs 2.00x as long as the original"))
      << describe(d);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::mutants, "lost vectorisation"))
      << describe(d);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::roofline, "below 50% of every roof"))
      << describe(d);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::medium);
}

// The same mutants on a GPU: the reason given is a GPU's, not a CPU's vectorisation.
TEST(Diagnosis, AGpusSlowerMutantIsExplainedInAGpusTerms) {
  AnalysedRecord r = original();
  r.roofline["device_counters"] = placed(0.6, RooflineBound::memory, MemoryLevel::dram, IntensitySource::counters);
  r.mutation = verdict(MutationReading::compute_bound, 1e6, 0.5e6, 1.3e6);
  const Diagnosis d = diagnose(r);
  EXPECT_TRUE(
      anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::mutants, "on a GPU, typically more registers"))
      << describe(d);
  EXPECT_FALSE(anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::mutants, "vectorisation")) << describe(d);
}

// Without counters, a doubtful mutant reading leaves the roofline to decide.
TEST(Diagnosis, RooflineOverMutantsWhoseCodeChangedWithoutCounters) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.74, RooflineBound::memory);
  r.mutation = verdict(MutationReading::balanced, 1e6, 0.92e6, 1.98e6);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::roofline);
  // balanced with t_comp > t_mem points to compute: a disagreement, and the mutants lose it.
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::roofline, DiagnosisSignal::mutants, "1.98x")) << describe(d);
}

TEST(Diagnosis, RooflineOverMutantsThatFailedValidation) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.7, RooflineBound::memory);
  MutationVerdict m;
  m.verdict = MutationReading::unknown;
  m.t_ns = 1e6;
  m.t_mem_ns = 0.9e6;
  MutantValidation invalid;
  invalid.by = MutantValidation::Method::counters;
  invalid.quantity = "FP32 FLOPs";
  invalid.original = 1000;
  invalid.mutant = 800;
  invalid.valid = false;
  m.validation.compute_only = invalid;
  MutationNote flops_differ;
  flops_differ.kind = MutationNoteKind::flops_differ;
  flops_differ.mutant = "compute-only";
  m.notes = {flops_differ};
  r.mutation = m;
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::roofline);
  ASSERT_EQ(d.disagreements.size(), 1u) << describe(d);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::roofline, DiagnosisSignal::mutants,
                              "failed validation (FP32 FLOPs: 800 against the original's 1000, counted)"))
      << describe(d);
  EXPECT_FALSE(d.evidence.back().points_to) << "an invalid mutant reading points nowhere\n" << describe(d);
}

// Valid mutants over a roofline that reaches a roof: the roof is the device's peak, the mutants
// time this kernel.
TEST(Diagnosis, MutantsOverARooflineThatReachesARoof) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.6, RooflineBound::memory);
  r.mutation = verdict(MutationReading::compute_bound, 1e6, 0.5e6, 0.9e6);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::compute) << describe(d);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::mutants, DiagnosisSignal::roofline, "device's peak")) << describe(d);
}

TEST(Diagnosis, IssueSlotsBusyPointToCompute) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.2, RooflineBound::latency);
  r.counters.available = true;
  r.counters.not_attempted = false;
  r.counters.derived["issue_slots_busy_pct"] = 92.0;
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::compute) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::counters);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::roofline, "")) << describe(d);
}

TEST(Diagnosis, LatencyFromTheRooflineAloneIsLowConfidence) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.2, RooflineBound::latency);
  r.roofline["gtx670"] = placed(3.0, RooflineBound::compute);  // the reference model: not read
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::latency) << describe(d);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::low);
  EXPECT_EQ(d.evidence.size(), 1u) << describe(d);
}

TEST(Diagnosis, NoSignalIsUndetermined) {
  const Diagnosis d = diagnose(original());
  EXPECT_EQ(d.bound, DiagnosedBound::undetermined);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::low);
  EXPECT_EQ(d.evidence.size(), 1u);
}

TEST(Diagnosis, RoundTripsThroughTheResultsJsonAndADerivedOneIsNotWritten) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.2, RooflineBound::latency);
  r.mutation = verdict(MutationReading::compute_bound, 1e6, 0.4e6, 0.95e6);
  r.diagnosis = diagnose(r);
  const AnalysedRecord back = analysedRecordFromJson(toJson(r, r));
  ASSERT_TRUE(back.diagnosis);
  EXPECT_EQ(toJson(*back.diagnosis), toJson(*r.diagnosis));
  EXPECT_EQ(back.diagnosis->memory_level, r.diagnosis->memory_level);
  EXPECT_EQ(back.diagnosis->disagreements.size(), 1u);
  r.diagnosis->derived_when_read = true;
  EXPECT_FALSE(toJson(r, r).contains("diagnosis"));
}

// vecadd on an H100 at a small size: under half of every roof, analytic and counted, and too short
// for the mutants: three signals say latency, none disagrees.
TEST(Diagnosis, AWeakMutantReadingWithBothOtherSignalsBehindItIsHighConfidence) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.46, RooflineBound::latency);
  r.roofline["device_counters"] = placed(0.31, RooflineBound::latency, MemoryLevel::dram, IntensitySource::counters);
  r.mutation = verdict(MutationReading::overhead_dominated, 9200, 8200, 8600);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::latency) << describe(d);
  EXPECT_EQ(d.confidence, DiagnosisConfidence::high) << describe(d);
  r.roofline.erase("device_counters");
  EXPECT_EQ(diagnose(r).confidence, DiagnosisConfidence::medium) << describe(diagnose(r));
}

// Counters that put the kernel under half of every roof against an analytic roofline that reaches one:
// the counters count what each level served, the roofline the bytes the code asks for.
TEST(Diagnosis, CountersOverTheAnalyticRoofline) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.7, RooflineBound::memory);
  r.roofline["device_l2"] = placed(0.2, RooflineBound::latency, MemoryLevel::l2, IntensitySource::counters);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::latency) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::counters);
  EXPECT_TRUE(anyDisagreement(d, DiagnosisSignal::counters, DiagnosisSignal::roofline, "really served")) << describe(d);
}

// Mutants decide "memory"; the counters, below half of every roof, still say which level the kernel
// comes closest to: the diagnosis names that level (an H100 matmul at N=2048 read "memory" with no level).
TEST(Diagnosis, MutantsDecideMemoryAndTheCountersGiveTheLevel) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.3, RooflineBound::latency);
  r.counters.available = true;
  r.roofline["device_counters"] = placed(0.05, RooflineBound::latency, MemoryLevel::dram, IntensitySource::counters);
  r.roofline["device_l2"] = placed(0.45, RooflineBound::latency, MemoryLevel::l2, IntensitySource::counters);
  r.roofline["device_l1"] = placed(0.2, RooflineBound::latency, MemoryLevel::l1, IntensitySource::counters);
  r.mutation = verdict(MutationReading::memory_bound, 1e6, 0.97e6, 0.4e6);
  const Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::mutants);
  ASSERT_TRUE(d.memory_level.has_value()) << describe(d);
  EXPECT_EQ(*d.memory_level, MemoryLevel::l2) << describe(d);
  EXPECT_EQ(summaryText(d).rfind("memory (L2)", 0), 0u) << summaryText(d);
}

// Both mutants about as long as the original and within noise of each other: which one is slower says
// nothing, so the roof that is lower at the kernel's intensity names the bound (vecadd on a CPU, whose
// bounds check keeps every mode in the same scalar loop).
TEST(Diagnosis, BalancedMutantsInATieFollowTheLowerRoofAtTheKernelsIntensity) {
  AnalysedRecord r = original();
  r.roofline["device"] = placed(0.41, RooflineBound::latency);
  r.roofline["device"].ridge_intensity = 7.2;
  r.roofline["device"].intensity = 0.0833;
  r.mutation = verdict(MutationReading::balanced, 4.41e6, 4.26e6, 4.60e6);
  Diagnosis d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::memory) << describe(d);
  EXPECT_EQ(d.decided_by, DiagnosisSignal::mutants);
  ASSERT_EQ(d.evidence.back().signal, DiagnosisSignal::mutants);
  EXPECT_NE(evidenceText(d.evidence.back())
                .find("balanced, the two mutants within 10% of the original's time of each other, and "
                      "the memory roof is the lower one at its intensity (0.0833, left of the ridge at 7.2), "
                      "so memory"),
            std::string::npos)
      << describe(d);

  // Right of the ridge the same times say compute.
  r.roofline["device"].intensity = 30;
  d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::compute) << describe(d);

  // Farther apart than the tie, the slower mutant names the nearer limit, whatever the intensity.
  r.roofline["device"].intensity = 0.0833;
  r.mutation = verdict(MutationReading::balanced, 1e6, 0.82e6, 1.0e6);
  d = diagnose(r);
  EXPECT_EQ(d.bound, DiagnosedBound::compute) << describe(d);
}
