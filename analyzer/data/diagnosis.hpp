#pragma once
// One diagnosis per original variant: what bounds it, read from every signal rooflab has (the
// roofline position at each memory level, the mutants' times, the hardware counters), with the
// evidence listed and, where two signals point to different bounds, which one is trusted and why.
// Types and their text; diagnose/diagnosis.hpp decides them (docs/results-schema.md, "Diagnosis").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/roofline.hpp"

namespace rooflab {

// launch: the kernel runs within a small multiple of the device's launch latency: launches, not the
// kernel's work, set the point's time.
enum class DiagnosedBound { compute, memory, latency, undetermined, launch };
std::string toString(DiagnosedBound bound);  // "compute" | "memory" | "latency" | "undetermined" | "launch"
std::optional<DiagnosedBound> parseDiagnosedBound(std::string_view text);

// How far the signals carry the conclusion: high when at least two agree and none disagrees (three
// when the deciding one is a leaning or overhead-dominated mutant reading), low
// when it rests on the absence of a saturated roof or on a weak mutant reading alone.
enum class DiagnosisConfidence { high, medium, low };
std::string toString(DiagnosisConfidence confidence);
std::optional<DiagnosisConfidence> parseDiagnosisConfidence(std::string_view text);

// roofline: the analytic placements on the device that ran (compulsory DRAM bytes, the variant's
// global accesses, declared local accesses); counters: what the hardware counted (placements at the
// levels it saw, issue slots); mutants: the compute-only and memory-only times against the original.
// launch: the kernel's time against the launch latency the ceilings measured.
enum class DiagnosisSignal { roofline, mutants, counters, launch };
std::string toString(DiagnosisSignal signal);
std::optional<DiagnosisSignal> parseDiagnosisSignal(std::string_view text);

struct DiagnosisEvidence {
  DiagnosisSignal signal = DiagnosisSignal::roofline;
  std::optional<MemoryLevel> level;         // the memory level a roofline or counters item is about
  std::optional<DiagnosedBound> points_to;  // nullopt: the item gives no bound (context, or unusable)
  std::string says;                         // what it says, with the figures
  // A roofline or counters item whose placement stands above its roof: why, as the placement says it
  // (reports append its sentence to `says`). Absent otherwise, and in schema-1 files, whose `says`
  // holds that sentence.
  std::optional<AboveRoof> above_roof;
};

struct DiagnosisDisagreement {
  DiagnosisSignal trusted = DiagnosisSignal::roofline;
  DiagnosisSignal overruled = DiagnosisSignal::mutants;
  std::string why;  // one sentence: what each says and why the trusted one is trusted
};

struct Diagnosis {
  DiagnosedBound bound = DiagnosedBound::undetermined;
  // With a memory bound: the level whose roof the kernel is closest to (DRAM for the global level,
  // whose roof is DRAM bandwidth); nullopt when no signal names one.
  std::optional<MemoryLevel> memory_level;
  DiagnosisConfidence confidence = DiagnosisConfidence::low;
  std::optional<DiagnosisSignal> decided_by;  // the signal the bound comes from
  std::vector<DiagnosisEvidence> evidence;    // roofline items first, then counters, then mutants
  std::vector<DiagnosisDisagreement> disagreements;
  // The variant's output differed from the reference: its time is of a wrong computation, so
  // nothing about its bound is said (bound undetermined, no verdict).
  bool failed_verification = false;
  // A launch bound's floor: the launch latency times the variant's launches.
  std::optional<double> launch_floor_ns;
  // Made by `rooflab report` for a record saved before diagnoses existed: shown in the reports, never
  // written back, so that an old results file is re-written byte for byte.
  bool derived_when_read = false;
};

// "memory (DRAM)", "compute", "latency", "undetermined", "launch (7.0 us launch latency)".
std::string boundText(const Diagnosis& diagnosis);
// "memory (DRAM), high confidence".
std::string summaryText(const Diagnosis& diagnosis);
std::string levelName(MemoryLevel level);  // "DRAM", "global (CGMA)", "L1", "L2", "local"

}  // namespace rooflab
