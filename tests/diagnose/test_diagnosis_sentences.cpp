// A diagnosis's evidence and disagreements as data: the sentences reports write of them (the ones the
// analysis wrote when it built them itself), their JSON round trip, and a schema-1 item's sentence.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"
#include "reports/text/diagnosis_sentences.hpp"

using namespace rooflab;
using rooflab::reports::disagreementText;
using rooflab::reports::evidenceText;

namespace {

DiagnosisEvidence placement() {
  DiagnosisEvidence e;
  e.level = MemoryLevel::dram;
  e.points_to = DiagnosedBound::memory;
  e.fraction_of_roof = 0.8;
  e.intensity = 0.25;
  return e;
}

DiagnosisEvidence mutants() {
  DiagnosisEvidence e;
  e.signal = DiagnosisSignal::mutants;
  e.kind = EvidenceKind::mutants;
  e.t_ns = 1e6;
  e.t_mem_ns = 5e5;
  e.t_comp_ns = 1.3e6;
  e.verdict = MutationReading::compute_bound;
  e.doubt = DoubtfulMutant{"compute-only", 1.3};
  return e;
}

const LaunchFloor kLaunch{9000, 7000, 1, 2};

DiagnosisDisagreement disagreement(DisagreementCase reason, DiagnosisSignal trusted, DiagnosisSignal overruled) {
  DiagnosisDisagreement d;
  d.reason = reason;
  d.trusted = trusted;
  d.overruled = overruled;
  d.trusted_reading.fraction_of_roof = 0.8;
  d.trusted_reading.level = MemoryLevel::l2;
  d.overruled_reading.fraction_of_roof = 0.3;
  d.overruled_reading.level = MemoryLevel::dram;
  return d;
}

}  // namespace

TEST(DiagnosisSentences, EvidenceKindsSayTheirFormerSentences) {
  EXPECT_EQ(evidenceText(placement()), "roofline, DRAM level: 80% of the DRAM roof at 0.25 FLOP/byte (memory)");
  DiagnosisEvidence issue;
  issue.signal = DiagnosisSignal::counters;
  issue.kind = EvidenceKind::issue_slots;
  issue.points_to = DiagnosedBound::compute;
  issue.issue_slots_busy_pct = 85.4;
  EXPECT_EQ(evidenceText(issue), "counters: issue slots busy 85% of active cycles (instruction issue is the limit)");
  EXPECT_EQ(evidenceText(mutants()),
            "mutants: t 1000.0 us, memory-only 500.0 us (50%), compute-only 1300.0 us (130%): compute-bound; the "
            "compute-only mutant runs 1.30x as long as the original, so the reading is doubtful");
  DiagnosisEvidence tie = mutants();
  tie.doubt.reset();
  tie.verdict = MutationReading::balanced;
  tie.tie = BalancedTie{0.1, DiagnosedBound::memory, 0.0833, 7.2};
  EXPECT_NE(evidenceText(tie).find("balanced, the two mutants within 10% of the original's time of each other, and "
                                   "the memory roof is the lower one at its intensity (0.0833, left of the ridge at "
                                   "7.2), so memory"),
            std::string::npos);
  DiagnosisEvidence none = mutants();
  none.doubt.reset();
  none.t_ns.reset();
  none.verdict = MutationReading::unknown;
  EXPECT_EQ(evidenceText(none), "mutants: no verdict");
  DiagnosisEvidence launch;
  launch.signal = DiagnosisSignal::launch;
  launch.kind = EvidenceKind::launch_floor;
  launch.launch = kLaunch;
  EXPECT_EQ(evidenceText(launch), "launch: the kernel runs 9.0 us, 1.29x the 7.0 us launch latency (within 2x: "
                                  "launch-bound)");
  DiagnosisEvidence nothing;
  nothing.kind = EvidenceKind::nothing_to_place;
  EXPECT_EQ(evidenceText(nothing), "roofline: no placement on the device that ran and no mutant verdict");
  nothing.kind = EvidenceKind::failed_verification;
  EXPECT_EQ(evidenceText(nothing).rfind("roofline: the output differs from the reference: ", 0), 0u);
}

TEST(DiagnosisSentences, DisagreementCasesSayTheirFormerSentences) {
  EXPECT_EQ(disagreementText(disagreement(DisagreementCase::counters_over_requested_bytes, DiagnosisSignal::counters,
                                          DiagnosisSignal::roofline)),
            "the roofline (30% of the DRAM roof) counts the bytes the code asks for; the counters count what each "
            "level really served, so the counters (80% of the L2 roof) are trusted");
  EXPECT_EQ(disagreementText(disagreement(DisagreementCase::counters_over_latency, DiagnosisSignal::counters,
                                          DiagnosisSignal::roofline)),
            "the roofline (30% of the DRAM roof) places it below 50% of every roof, which cannot tell latency from a "
            "bound no roof shows; the counters (80% of the L2 roof) are measured on the hardware and trusted");
  DiagnosisDisagreement peak =
      disagreement(DisagreementCase::mutants_over_peak, DiagnosisSignal::mutants, DiagnosisSignal::roofline);
  peak.trusted_reading = SignalReading{std::nullopt, std::nullopt, std::nullopt, MutationReading::compute_bound};
  EXPECT_EQ(disagreementText(peak),
            "the roofline (30% of the DRAM roof) compares it with the device's peak, which this kernel's mix of work "
            "need not be able to reach; the mutants' times measure this kernel directly, so their verdict "
            "compute-bound is trusted");
  DiagnosisDisagreement doubt =
      disagreement(DisagreementCase::mutants_doubtful, DiagnosisSignal::counters, DiagnosisSignal::mutants);
  doubt.overruled_reading = SignalReading{std::nullopt, std::nullopt, std::nullopt, MutationReading::compute_bound};
  doubt.doubt = DoubtfulMutant{"compute-only", 1.3};
  doubt.cpu_device = true;
  EXPECT_EQ(disagreementText(doubt),
            "the compute-only mutant runs 1.30x as long as the original: the mutation changed the code the compiler "
            "made (on a CPU device, typically lost vectorisation across work items), so the mutants' verdict "
            "compute-bound does not measure this kernel; the counters (80% of the L2 roof) are trusted");
  DiagnosisDisagreement launch =
      disagreement(DisagreementCase::launch_floor, DiagnosisSignal::launch, DiagnosisSignal::mutants);
  launch.overruled_bound = DiagnosedBound::memory;
  launch.launch = kLaunch;
  EXPECT_EQ(disagreementText(launch),
            "the mutants (memory) reads the kernel's own work; the kernel runs 9.0 us, 1.29x the 7.0 us launch "
            "latency, so launches, not that work, set this point's time: a larger problem per launch or fewer "
            "launches is what would help");
  DiagnosisDisagreement invalid =
      disagreement(DisagreementCase::mutant_invalid, DiagnosisSignal::roofline, DiagnosisSignal::mutants);
  invalid.invalid = InvalidMutant{"memory-only", MutantValidation{}};
  EXPECT_EQ(disagreementText(invalid),
            "the memory-only mutant failed validation: it does not do the original's work, so the mutants give no "
            "verdict; the roofline (80% of the L2 roof) is trusted");
}

TEST(DiagnosisSentences, JsonRoundTripKeepsTheData) {
  Diagnosis d;
  d.evidence = {placement(), mutants()};
  DiagnosisDisagreement launch =
      disagreement(DisagreementCase::launch_floor, DiagnosisSignal::launch, DiagnosisSignal::mutants);
  launch.overruled_bound = DiagnosedBound::memory;
  launch.launch = kLaunch;
  d.disagreements = {launch};
  const Diagnosis again = diagnosisFromJson(toJson(d));
  ASSERT_EQ(again.evidence.size(), 2u);
  ASSERT_EQ(again.disagreements.size(), 1u);
  EXPECT_FALSE(again.evidence[1].says_as_saved);
  EXPECT_EQ(again.evidence[1].kind, EvidenceKind::mutants);
  for (std::size_t i = 0; i < d.evidence.size(); ++i)
    EXPECT_EQ(evidenceText(again.evidence[i]), evidenceText(d.evidence[i]));
  EXPECT_EQ(disagreementText(again.disagreements[0]), disagreementText(launch));
  EXPECT_EQ(toJson(again), toJson(d));
}

TEST(DiagnosisSentences, SchemaOneSentencesAreKeptAndWrittenBack) {
  const nlohmann::json saved = {
      {"bound", "memory"},
      {"memory_level", "dram"},
      {"confidence", "high"},
      {"decided_by", "roofline"},
      {"evidence",
       {{{"signal", "roofline"}, {"level", "dram"}, {"points_to", "memory"}, {"says", "80% of the DRAM roof"}}}},
      {"disagreements", {{{"trusted", "roofline"}, {"overruled", "mutants"}, {"why", "as it was said"}}}}};
  const Diagnosis d = diagnosisFromJson(saved);
  ASSERT_EQ(d.evidence.size(), 1u);
  EXPECT_EQ(evidenceText(d.evidence[0]), "roofline, DRAM level: 80% of the DRAM roof");
  EXPECT_EQ(disagreementText(d.disagreements.at(0)), "as it was said");
  EXPECT_EQ(toJson(d), saved);
}
