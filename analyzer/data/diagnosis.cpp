// A diagnosis's names, as results files spell them, and its text, as every report says it.
#include "analyzer/data/diagnosis.hpp"

#include "analyzer/support/enum_names.hpp"
#include "analyzer/support/format.hpp"

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

std::string boundText(const Diagnosis& diagnosis) {
  if (diagnosis.failed_verification) return "failed verification";
  std::string text = toString(diagnosis.bound);
  if (diagnosis.bound == DiagnosedBound::memory && diagnosis.memory_level)
    text += " (" + levelName(*diagnosis.memory_level) + ")";
  if (diagnosis.bound == DiagnosedBound::launch && diagnosis.launch_floor_ns)
    text += " (" + formatFixed(*diagnosis.launch_floor_ns / 1000, 1) + " us of launches)";
  return text;
}

std::string summaryText(const Diagnosis& diagnosis) {
  if (diagnosis.failed_verification) return boundText(diagnosis);
  return boundText(diagnosis) + ", " + toString(diagnosis.confidence) + " confidence";
}

}  // namespace rooflab
