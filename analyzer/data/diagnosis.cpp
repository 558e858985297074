// A diagnosis's names, as results files spell them.
#include "analyzer/data/diagnosis.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<DiagnosedBound> kDiagnosedBoundNames[] = {
    {DiagnosedBound::compute, "compute"}, {DiagnosedBound::memory, "memory"},
    {DiagnosedBound::latency, "latency"}, {DiagnosedBound::undetermined, "undetermined"},
    {DiagnosedBound::launch, "launch"},
};

std::string toString(DiagnosedBound bound) { return nameOf(kDiagnosedBoundNames, bound); }

std::optional<DiagnosedBound> parseDiagnosedBound(std::string_view text) { return valueOf(kDiagnosedBoundNames, text); }

constexpr EnumName<DiagnosisConfidence> kDiagnosisConfidenceNames[] = {
    {DiagnosisConfidence::high, "high"},
    {DiagnosisConfidence::medium, "medium"},
    {DiagnosisConfidence::low, "low"},
};

std::string toString(DiagnosisConfidence confidence) { return nameOf(kDiagnosisConfidenceNames, confidence); }

std::optional<DiagnosisConfidence> parseDiagnosisConfidence(std::string_view text) {
  return valueOf(kDiagnosisConfidenceNames, text);
}

constexpr EnumName<DiagnosisSignal> kDiagnosisSignalNames[] = {
    {DiagnosisSignal::roofline, "roofline"},
    {DiagnosisSignal::mutants, "mutants"},
    {DiagnosisSignal::counters, "counters"},
    {DiagnosisSignal::launch, "launch"},
};

std::string toString(DiagnosisSignal signal) { return nameOf(kDiagnosisSignalNames, signal); }

std::optional<DiagnosisSignal> parseDiagnosisSignal(std::string_view text) {
  return valueOf(kDiagnosisSignalNames, text);
}

constexpr EnumName<EvidenceKind> kEvidenceKindNames[] = {
    {EvidenceKind::placement, "placement"},
    {EvidenceKind::issue_slots, "issue-slots"},
    {EvidenceKind::mutants, "mutants"},
    {EvidenceKind::launch_floor, "launch-floor"},
    {EvidenceKind::failed_verification, "failed-verification"},
    {EvidenceKind::nothing_to_place, "nothing-to-place"},
};

std::string toString(EvidenceKind kind) { return nameOf(kEvidenceKindNames, kind); }

std::optional<EvidenceKind> parseEvidenceKind(std::string_view text) { return valueOf(kEvidenceKindNames, text); }

constexpr EnumName<DisagreementCase> kDisagreementCaseNames[] = {
    {DisagreementCase::mutants_doubtful, "mutants-doubtful"},
    {DisagreementCase::mutants_over_latency, "mutants-over-latency"},
    {DisagreementCase::mutants_over_peak, "mutants-over-peak"},
    {DisagreementCase::counters_over_latency, "counters-over-latency"},
    {DisagreementCase::counters_over_requested_bytes, "counters-over-requested-bytes"},
    {DisagreementCase::launch_floor, "launch-floor"},
    {DisagreementCase::mutant_invalid, "mutant-invalid"},
};

std::string toString(DisagreementCase disagreement) { return nameOf(kDisagreementCaseNames, disagreement); }

std::optional<DisagreementCase> parseDisagreementCase(std::string_view text) {
  return valueOf(kDisagreementCaseNames, text);
}

constexpr EnumName<HotLineCause> kHotLineCauseNames[] = {
    {HotLineCause::memory, "memory"},
    {HotLineCause::dependency, "dependency"},
    {HotLineCause::synchronisation, "synchronisation"},
};

std::string toString(HotLineCause cause) { return nameOf(kHotLineCauseNames, cause); }

std::optional<HotLineCause> parseHotLineCause(std::string_view text) { return valueOf(kHotLineCauseNames, text); }

constexpr EnumName<HotLineCause> kStallCauses[] = {
    {HotLineCause::memory, "long_scoreboard"}, {HotLineCause::memory, "lg_throttle"},
    {HotLineCause::memory, "tex_throttle"},    {HotLineCause::memory, "mio_throttle"},
    {HotLineCause::memory, "drain"},           {HotLineCause::dependency, "short_scoreboard"},
    {HotLineCause::dependency, "wait"},        {HotLineCause::synchronisation, "barrier"},
    {HotLineCause::synchronisation, "membar"},
};

std::optional<HotLineCause> causeOfStall(std::string_view stall_reason) { return valueOf(kStallCauses, stall_reason); }

std::string levelName(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::dram: return "DRAM";
    case MemoryLevel::global: return "global (CGMA)";
    case MemoryLevel::l1: return "L1";
    case MemoryLevel::l2: return "L2";
    case MemoryLevel::local: return "local";
  }
  return "DRAM";
}

}  // namespace rooflab
