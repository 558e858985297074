// A diagnosis's names, as results files spell them, and its text, as every report says it.
#include "analyzer/data/diagnosis.hpp"

namespace rooflab {

std::string toString(DiagnosedBound bound) {
  switch (bound) {
    case DiagnosedBound::compute: return "compute";
    case DiagnosedBound::memory: return "memory";
    case DiagnosedBound::latency: return "latency";
    case DiagnosedBound::undetermined: break;
  }
  return "undetermined";
}

std::optional<DiagnosedBound> parseDiagnosedBound(std::string_view text) {
  for (DiagnosedBound bound :
       {DiagnosedBound::compute, DiagnosedBound::memory, DiagnosedBound::latency, DiagnosedBound::undetermined})
    if (text == toString(bound)) return bound;
  return std::nullopt;
}

std::string toString(DiagnosisConfidence confidence) {
  switch (confidence) {
    case DiagnosisConfidence::high: return "high";
    case DiagnosisConfidence::medium: return "medium";
    case DiagnosisConfidence::low: break;
  }
  return "low";
}

std::optional<DiagnosisConfidence> parseDiagnosisConfidence(std::string_view text) {
  for (DiagnosisConfidence confidence : {DiagnosisConfidence::high, DiagnosisConfidence::medium, DiagnosisConfidence::low})
    if (text == toString(confidence)) return confidence;
  return std::nullopt;
}

std::string toString(DiagnosisSignal signal) {
  switch (signal) {
    case DiagnosisSignal::roofline: return "roofline";
    case DiagnosisSignal::mutants: return "mutants";
    case DiagnosisSignal::counters: break;
  }
  return "counters";
}

std::optional<DiagnosisSignal> parseDiagnosisSignal(std::string_view text) {
  for (DiagnosisSignal signal : {DiagnosisSignal::roofline, DiagnosisSignal::mutants, DiagnosisSignal::counters})
    if (text == toString(signal)) return signal;
  return std::nullopt;
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
  std::string text = toString(diagnosis.bound);
  if (diagnosis.bound == DiagnosedBound::memory && diagnosis.memory_level)
    text += " (" + levelName(*diagnosis.memory_level) + ")";
  return text;
}

std::string summaryText(const Diagnosis& diagnosis) {
  return boundText(diagnosis) + ", " + toString(diagnosis.confidence) + " confidence";
}

std::string evidenceText(const DiagnosisEvidence& evidence) {
  std::string text = toString(evidence.signal);
  if (evidence.level) text += ", " + levelName(*evidence.level) + " level";
  return text + ": " + evidence.says;
}

}  // namespace rooflab
