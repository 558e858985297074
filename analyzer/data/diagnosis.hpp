#pragma once
// One diagnosis per original variant: what bounds it, read from every signal rooflab has (the
// roofline position at each memory level, the mutants' times, the hardware counters), with the
// evidence listed and, where two signals point to different bounds, which one is trusted and why.
// Types and their names; diagnose/diagnosis.hpp decides them (docs/results-schema.md, "Diagnosis").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/mutation_verdict.hpp"
#include "analyzer/data/roofline.hpp"
#include "analyzer/data/source_lines.hpp"

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

// What an evidence item reports. placement: a placement's fraction of a level's roof, at its
// intensity, with the bound it points to; issue_slots: the share of active cycles the schedulers
// issued (points to compute at kIssueBound, 80%); mutants: the mutants' times and verdict;
// launch_floor: the kernel's time against its launches' cost; failed_verification: the output
// differed from the reference; nothing_to_place: no placement and no mutant verdict.
enum class EvidenceKind { placement, issue_slots, mutants, launch_floor, failed_verification, nothing_to_place };
std::string toString(EvidenceKind kind);  // "placement" | "issue-slots" | "mutants" | ...
std::optional<EvidenceKind> parseEvidenceKind(std::string_view text);

// A mutant that failed validation: which one and what its validation compared.
struct InvalidMutant {
  std::string mutant;  // "compute-only" | "memory-only"
  MutantValidation validation;
};

// A mutant slower than the whole kernel (over 1.2x its time): it measures another program.
struct DoubtfulMutant {
  std::string mutant;         // "compute-only" | "memory-only"
  double times_original = 0;  // its time over the original's
};

// Two mutants within tie_share_fraction of the original's time of each other: the roofline's side
// of the ridge names the bound.
struct BalancedTie {
  double tie_share_fraction = 0.1;
  DiagnosedBound ridge_side = DiagnosedBound::memory;  // memory: left of the ridge; compute: right of it
  double intensity = 0;                                // the analytic DRAM placement's, FLOP (or op)/byte
  double ridge_intensity = 0;
};

// A kernel within bound_multiple of its launches' cost (launches x launch latency).
struct LaunchFloor {
  double kernel_ns = 0;
  double launch_latency_ns = 0;
  double launches = 1;
  double bound_multiple = 2;
};

struct DiagnosisEvidence {
  DiagnosisSignal signal = DiagnosisSignal::roofline;
  EvidenceKind kind = EvidenceKind::placement;
  std::optional<MemoryLevel> level;         // the memory level a roofline or counters item is about
  std::optional<DiagnosedBound> points_to;  // nullopt: the item gives no bound (context, or unusable)
  // placement: its fraction of the level's roof and its intensity, in op/byte when integer.
  std::optional<double> fraction_of_roof;
  std::optional<double> intensity;
  bool integer_ops = false;
  std::optional<double> issue_slots_busy_pct;  // issue_slots
  // mutants: the times (each where measured), the verdict (unknown: none), the verdict's last note
  // where there is none, and what makes the reading unusable or what decided a tie.
  std::optional<double> t_ns, t_mem_ns, t_comp_ns;
  MutationReading verdict = MutationReading::unknown;
  std::optional<MutationNote> last_note;
  bool cpu_device = false;
  std::optional<BalancedTie> tie;
  std::optional<InvalidMutant> invalid;
  std::optional<DoubtfulMutant> doubt;
  std::optional<LaunchFloor> launch;  // launch_floor
  // A roofline or counters item whose placement stands above its roof: why, as the placement says it
  // (reports append its sentence). Absent otherwise, and in schema-1 files, whose sentence holds it.
  std::optional<AboveRoof> above_roof;
  std::optional<std::string> says_as_saved;  // the sentence a schema-1 results file saved
};

// What one signal concluded, as a disagreement quotes it: a roof fraction at a level, the issue
// slots' busy share, or a mutant verdict (the first of these that is set).
struct SignalReading {
  std::optional<double> fraction_of_roof;
  std::optional<MemoryLevel> level;
  std::optional<double> issue_slots_busy_pct;
  std::optional<MutationReading> verdict;
};

// Why the trusted signal wins. mutants_doubtful: the overruled mutants run slower than the kernel;
// mutants_over_latency / mutants_over_peak: trusted mutants against a below-every-roof reading or a
// peak comparison; counters_over_latency / counters_over_requested_bytes: trusted counters against a
// below-every-roof reading or the roofline's requested bytes; launch_floor: launches set the time;
// mutant_invalid: a mutant failed validation.
enum class DisagreementCase {
  mutants_doubtful,
  mutants_over_latency,
  mutants_over_peak,
  counters_over_latency,
  counters_over_requested_bytes,
  launch_floor,
  mutant_invalid,
};
std::string toString(DisagreementCase disagreement);
std::optional<DisagreementCase> parseDisagreementCase(std::string_view text);

struct DiagnosisDisagreement {
  DiagnosisSignal trusted = DiagnosisSignal::roofline;
  DiagnosisSignal overruled = DiagnosisSignal::mutants;
  DisagreementCase reason = DisagreementCase::counters_over_requested_bytes;
  SignalReading trusted_reading;
  SignalReading overruled_reading;
  std::optional<DiagnosedBound> overruled_bound;  // launch_floor: the bound the overruled signal named
  bool cpu_device = false;                        // mutants_doubtful: why a mutant runs slower
  std::optional<DoubtfulMutant> doubt;            // mutants_doubtful
  std::optional<InvalidMutant> invalid;           // mutant_invalid
  std::optional<LaunchFloor> launch;              // launch_floor
  std::optional<std::string> why_as_saved;        // the sentence a schema-1 results file saved
};

// What the warps sampled at a hot line wait for, by the line's most sampled stall reason (CUPTI's
// name): memory (long_scoreboard, lg_throttle, tex_throttle, mio_throttle, drain: a load's data or a
// memory pipeline's queue), dependency (short_scoreboard, wait: a result of a shared-memory,
// special-function or fixed-latency instruction) or synchronisation (barrier, membar: the other warps
// of the work-group, or a memory fence).
enum class HotLineCause { memory, dependency, synchronisation };
std::string toString(HotLineCause cause);  // "memory" | "dependency" | "synchronisation"
std::optional<HotLineCause> parseHotLineCause(std::string_view text);
// The cause a stall reason names, by the table above; nullopt for the others (selected, not_selected,
// math_pipe_throttle, ...), which no hot line is named for.
std::optional<HotLineCause> causeOfStall(std::string_view stall_reason);

// The one source line of an original where most of its warp samples gather, when the stall they show
// most waits on memory, a dependency or synchronisation (diagnose/hot_line.hpp has the rule).
struct HotLine {
  SourceLine where;
  std::int64_t samples = 0;             // warp samples at the line
  std::int64_t attributed_samples = 0;  // warp samples at every line of the program's files
  double share_of_samples = 0;          // samples / attributed_samples, a fraction
  std::string stall_reason;             // the line's most sampled stall reason, as CUPTI names it
  std::int64_t stall_samples = 0;       // the line's samples with that reason
  HotLineCause cause = HotLineCause::memory;
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
  // Where the original's warp samples gather, when one line holds most of them (NVIDIA, sampled).
  std::optional<HotLine> hot_line;
  // Made by `rooflab report` for a record saved before diagnoses existed: shown in the reports, never
  // written back, so that an old results file is re-written byte for byte.
  bool derived_when_read = false;
};

std::string levelName(MemoryLevel level);  // "DRAM", "global (CGMA)", "L1", "L2", "local"

}  // namespace rooflab
