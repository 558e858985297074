#include "analyzer/diagnose/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "analyzer/diagnose/hot_line.hpp"
#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/analysis.hpp"

namespace rooflab {

namespace {

// The mutants' "both ~ t" margin (VerdictMargins::near) has a mirror: a mutant this much slower than
// the whole kernel is not a part of it but another program (mutation_verdict.cpp says so in a note).
constexpr double kMutantSlowerThanOriginal = 1.2;
// Issue slots busy this share of the time: the schedulers issue nearly every cycle, instruction issue
// is the limit whatever the roofs say (Nsight Compute's "issue-bound" threshold).
constexpr double kIssueBoundPct = 80;
// A kernel that runs within this multiple of what its launches cost is bound by them: the launch
// latency is at least a third of the time its point takes.
constexpr double kLaunchBoundMultiple = 2;

// What one signal concludes, with the figure a disagreement quotes.
struct Reading {
  std::optional<DiagnosedBound> bound;
  std::optional<MemoryLevel> level;
  SignalReading figure;  // a roof fraction, the issue slots' busy share or the mutant verdict
  bool weak = false;     // a leaning or overhead-dominated mutant reading
};

std::optional<DiagnosedBound> fromRoofline(RooflineBound bound) {
  switch (bound) {
    case RooflineBound::memory: return DiagnosedBound::memory;
    case RooflineBound::compute: return DiagnosedBound::compute;
    case RooflineBound::latency: return DiagnosedBound::latency;
    case RooflineBound::unknown: break;
  }
  return std::nullopt;
}

std::optional<double> finiteValue(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return std::nullopt;
  return value;
}

// The placements of one signal on the device model, level by level; the conclusion is the bound of
// the roof the kernel comes closest to (below kRoofBoundFraction of every roof: latency).
Reading readPlacements(const AnalysedRecord& record, DiagnosisSignal signal, std::vector<DiagnosisEvidence>& evidence) {
  const IntensitySource source =
      signal == DiagnosisSignal::counters ? IntensitySource::counters : IntensitySource::analytic;
  const std::pair<MemoryLevel, std::string> keys[] = {
      {MemoryLevel::dram, signal == DiagnosisSignal::counters ? "device_counters" : "device"},
      {MemoryLevel::global, levelPlacementKey("device", MemoryLevel::global)},
      {MemoryLevel::l1, levelPlacementKey("device", MemoryLevel::l1)},
      {MemoryLevel::l2, levelPlacementKey("device", MemoryLevel::l2)},
      {MemoryLevel::local, levelPlacementKey("device", MemoryLevel::local)}};
  Reading reading;
  std::optional<double> best_fraction;
  for (const auto& [level, key] : keys) {
    const auto found = record.roofline.find(key);
    if (found == record.roofline.end() || found->second.intensity_source != source) continue;
    const RooflinePlacement& placement = found->second;
    const std::optional<double> fraction = finiteValue(placement.fraction_of_roof);
    if (!fraction) continue;
    DiagnosisEvidence item;
    item.signal = signal;
    item.level = level;
    item.points_to = fromRoofline(placement.bound);
    item.fraction_of_roof = fraction;
    item.intensity = finiteValue(placement.intensity);
    item.integer_ops = placement.arithmetic.value_or(record.work.arithmetic) == Arithmetic::int32;
    item.above_roof = placement.above_roof;
    evidence.push_back(item);
    if (best_fraction && *fraction <= *best_fraction) continue;
    best_fraction = fraction;
    reading.bound = item.points_to;
    reading.level = level == MemoryLevel::global ? MemoryLevel::dram : level;
    reading.figure = SignalReading{fraction, level, std::nullopt, std::nullopt};
  }
  if (signal != DiagnosisSignal::counters || !record.counters.available) return reading;
  const auto issue = record.counters.derived.find("issue_slots_busy_pct");
  if (issue == record.counters.derived.end() || !finiteValue(issue->second)) return reading;
  const double busy_pct = *issue->second;
  const bool issue_bound = busy_pct >= kIssueBoundPct;
  DiagnosisEvidence item;
  item.signal = signal;
  item.kind = EvidenceKind::issue_slots;
  item.points_to = issue_bound ? std::optional(DiagnosedBound::compute) : std::nullopt;
  item.issue_slots_busy_pct = busy_pct;
  evidence.push_back(item);
  if (issue_bound && reading.bound != DiagnosedBound::memory) {
    reading.bound = DiagnosedBound::compute;
    reading.figure = SignalReading{std::nullopt, std::nullopt, busy_pct, std::nullopt};
  }
  return reading;
}

// Two mutants this close to each other (a share of the original's time) are a tie: which is the
// slower is noise (a CPU's timings vary 2-4x between runs), so the slower one names no bound.
constexpr double kBalancedTie = 0.1;

// Which roof is the lower one at the kernel's intensity on the device that ran it (memory left of the
// ridge, compute right of it), with the intensities that say so; nullopt without an analytic placement.
std::optional<BalancedTie> ridgeSide(const AnalysedRecord& record) {
  const auto found = record.roofline.find("device");
  if (found == record.roofline.end() || found->second.intensity_source != IntensitySource::analytic)
    return std::nullopt;
  const RooflinePlacement& placement = found->second;
  const auto intensity = finiteValue(placement.intensity);
  if (!intensity || !(placement.ridge_intensity > 0) || !std::isfinite(placement.ridge_intensity)) return std::nullopt;
  const bool memory = *intensity < placement.ridge_intensity;
  return BalancedTie{kBalancedTie, memory ? DiagnosedBound::memory : DiagnosedBound::compute, *intensity,
                     placement.ridge_intensity};
}

bool balancedTie(const MutationVerdict& m) {
  return m.verdict == MutationReading::balanced && m.t_ns && m.t_mem_ns && m.t_comp_ns &&
         std::fabs(*m.t_mem_ns - *m.t_comp_ns) <= kBalancedTie * *m.t_ns;
}

std::optional<DiagnosedBound> fromVerdict(const MutationVerdict& m) {
  switch (m.verdict) {
    case MutationReading::memory_bound:
    case MutationReading::memory_leaning: return DiagnosedBound::memory;
    case MutationReading::compute_bound:
    case MutationReading::compute_leaning: return DiagnosedBound::compute;
    case MutationReading::latency_bound:
    case MutationReading::overhead_dominated: return DiagnosedBound::latency;
    case MutationReading::balanced:
      // Both mutants take about as long as the whole: the slower one is the nearer limit.
      return m.t_mem_ns && m.t_comp_ns && *m.t_comp_ns > *m.t_mem_ns ? DiagnosedBound::compute : DiagnosedBound::memory;
    case MutationReading::unknown: break;
  }
  return std::nullopt;
}

struct MutantReading {
  Reading reading;
  std::optional<DoubtfulMutant> doubt;   // a mutant slower than the kernel: its times do not measure it
  std::optional<InvalidMutant> invalid;  // a mutant that failed validation: its time was not used
};

MutantReading readMutants(const MutationVerdict& m, const std::optional<BalancedTie>& ridge,
                          std::vector<DiagnosisEvidence>& evidence) {
  MutantReading out;
  for (const auto& [name, validation] :
       {std::pair<const char*, const std::optional<MutantValidation>*>{"compute-only", &m.validation.compute_only},
        {"memory-only", &m.validation.memory_only}})
    if (*validation && !(*validation)->valid && !out.invalid) out.invalid = InvalidMutant{name, **validation};
  for (const auto& [name, tx] :
       {std::pair<const char*, std::optional<double>>{"compute-only", m.t_comp_ns}, {"memory-only", m.t_mem_ns}})
    if (m.t_ns && tx && *tx > kMutantSlowerThanOriginal * *m.t_ns && !out.doubt)
      out.doubt = DoubtfulMutant{name, *tx / *m.t_ns};

  DiagnosisEvidence item;
  item.signal = DiagnosisSignal::mutants;
  item.kind = EvidenceKind::mutants;
  item.t_ns = m.t_ns;
  item.t_mem_ns = m.t_mem_ns;
  item.t_comp_ns = m.t_comp_ns;
  item.verdict = m.verdict;
  item.cpu_device = m.cpu_device;
  out.reading.bound = fromVerdict(m);
  // Both mutants about as long as the whole and as each other: neither part alone sets the time, and
  // the roofline says which limit the kernel meets first.
  if (balancedTie(m) && ridge) {
    out.reading.bound = ridge->ridge_side;
    item.tie = ridge;
  }
  out.reading.weak = m.verdict == MutationReading::memory_leaning || m.verdict == MutationReading::compute_leaning ||
                     m.verdict == MutationReading::overhead_dominated;
  out.reading.figure.verdict = m.verdict;
  if (!out.reading.bound && !m.notes.empty()) item.last_note = m.notes.back();
  item.invalid = out.invalid;
  item.doubt = out.doubt;
  const bool usable = !out.doubt && !out.invalid;
  item.points_to = usable ? out.reading.bound : std::nullopt;
  evidence.push_back(item);
  return out;
}

// A kernel within kLaunchBoundMultiple of its launches' cost is launch-bound, whatever its own work's
// bound: the other signals' readings stay as evidence, and one that named another bound is overruled.
void applyLaunchFloor(const RunRecord& original, double launch_latency_ns, Diagnosis& d) {
  const std::optional<double> kernel_ns = original.medianKernelNs();
  if (d.failed_verification || !kernel_ns || !(launch_latency_ns > 0)) return;
  const double launches = static_cast<double>(std::max<std::size_t>(1, original.geometry.size()));
  const double floor_ns = launches * launch_latency_ns;
  if (*kernel_ns > kLaunchBoundMultiple * floor_ns) return;
  const LaunchFloor launch{*kernel_ns, launch_latency_ns, launches, kLaunchBoundMultiple};
  DiagnosisEvidence item;
  item.signal = DiagnosisSignal::launch;
  item.kind = EvidenceKind::launch_floor;
  item.points_to = DiagnosedBound::launch;
  item.launch = launch;
  d.evidence.push_back(item);
  if (d.decided_by && d.bound != DiagnosedBound::undetermined && d.bound != DiagnosedBound::latency) {
    DiagnosisDisagreement disagreement;
    disagreement.trusted = DiagnosisSignal::launch;
    disagreement.overruled = *d.decided_by;
    disagreement.reason = DisagreementCase::launch_floor;
    disagreement.overruled_bound = d.bound;
    disagreement.launch = launch;
    d.disagreements.push_back(disagreement);
  }
  d.bound = DiagnosedBound::launch;
  d.memory_level = std::nullopt;
  d.decided_by = DiagnosisSignal::launch;
  d.launch_floor_ns = floor_ns;
  d.confidence = *kernel_ns <= floor_ns ? DiagnosisConfidence::high : DiagnosisConfidence::medium;
}

// `overruled` says `other`, the diagnosis follows `trusted`: which of the reasons applies.
DiagnosisDisagreement disagreementOf(DiagnosisSignal trusted, const Reading& trusted_reading, DiagnosisSignal overruled,
                                     const Reading& other, const MutantReading& mutants, bool cpu_device) {
  DiagnosisDisagreement out;
  out.trusted = trusted;
  out.overruled = overruled;
  out.trusted_reading = trusted_reading.figure;
  out.overruled_reading = other.figure;
  const bool other_latency = other.bound == DiagnosedBound::latency;
  if (overruled == DiagnosisSignal::mutants) {
    out.reason = DisagreementCase::mutants_doubtful;
    out.cpu_device = cpu_device;
    out.doubt = mutants.doubt;
  } else if (trusted == DiagnosisSignal::mutants) {
    out.reason = other_latency ? DisagreementCase::mutants_over_latency : DisagreementCase::mutants_over_peak;
  } else {
    out.reason =
        other_latency ? DisagreementCase::counters_over_latency : DisagreementCase::counters_over_requested_bytes;
  }
  return out;
}

DiagnosisConfidence confidenceOf(const Diagnosis& d, int agreeing, int disagreeing, bool trusted_weak) {
  if (d.bound == DiagnosedBound::undetermined) return DiagnosisConfidence::low;
  // A weak mutant reading (leaning, overhead-dominated) needs both other signals behind it.
  if (disagreeing == 0 && (agreeing >= 3 || (agreeing == 2 && !trusted_weak))) return DiagnosisConfidence::high;
  // The roofline's latency is the absence of a saturated roof, not a measurement of latency.
  const bool rests_on_absence = d.decided_by == DiagnosisSignal::roofline && d.bound == DiagnosedBound::latency;
  if (agreeing == 1 && (rests_on_absence || trusted_weak)) return DiagnosisConfidence::low;
  return DiagnosisConfidence::medium;
}

}  // namespace

Diagnosis diagnoseSignals(const AnalysedRecord& original);

Diagnosis diagnose(const AnalysedRecord& original, std::optional<double> launch_latency_ns) {
  Diagnosis d = diagnoseSignals(original);
  if (launch_latency_ns) applyLaunchFloor(original, *launch_latency_ns, d);
  // The samples of a wrong computation say where it spends its time, not where the right one would.
  if (original.line_sampling && !d.failed_verification) d.hot_line = hotLineOf(*original.line_sampling);
  return d;
}

Diagnosis diagnoseSignals(const AnalysedRecord& original) {
  Diagnosis d;
  if (original.verification.status == VerificationStatus::failed) {
    d.failed_verification = true;
    DiagnosisEvidence item;
    item.kind = EvidenceKind::failed_verification;
    d.evidence.push_back(item);
    return d;
  }
  const Reading roofline = readPlacements(original, DiagnosisSignal::roofline, d.evidence);
  const Reading counters = readPlacements(original, DiagnosisSignal::counters, d.evidence);
  MutantReading mutants;
  if (original.mutation) mutants = readMutants(*original.mutation, ridgeSide(original), d.evidence);
  const bool mutants_usable = mutants.reading.bound && !mutants.doubt && !mutants.invalid;

  // Mutants first: they time this kernel without one of its parts. Then the counters (the traffic the
  // hardware saw at each level), then the analytic roofline.
  const Reading* trusted = nullptr;
  if (mutants_usable) {
    d.decided_by = DiagnosisSignal::mutants;
    trusted = &mutants.reading;
  } else if (counters.bound) {
    d.decided_by = DiagnosisSignal::counters;
    trusted = &counters;
  } else if (roofline.bound) {
    d.decided_by = DiagnosisSignal::roofline;
    trusted = &roofline;
  }
  if (trusted == nullptr) {
    if (d.evidence.empty()) {
      DiagnosisEvidence item;
      item.kind = EvidenceKind::nothing_to_place;
      d.evidence.push_back(item);
    }
    return d;
  }
  d.bound = *trusted->bound;
  // The level: where the counters say the kernel comes closest to a memory roof, even when the
  // mutants decided the bound and the counters alone would have said latency (below half of every roof).
  if (d.bound == DiagnosedBound::memory) {
    if (counters.bound == DiagnosedBound::memory) d.memory_level = counters.level;
    else if (counters.level && counters.bound != DiagnosedBound::compute) d.memory_level = counters.level;
    else if (roofline.bound == DiagnosedBound::memory) d.memory_level = roofline.level;
  }

  int agreeing = 0, disagreeing = 0;
  const std::pair<DiagnosisSignal, const Reading*> signals[] = {{DiagnosisSignal::roofline, &roofline},
                                                                {DiagnosisSignal::counters, &counters},
                                                                {DiagnosisSignal::mutants, &mutants.reading}};
  for (const auto& [signal, reading] : signals) {
    if (!reading->bound || (signal == DiagnosisSignal::mutants && mutants.invalid)) continue;
    if (*reading->bound == d.bound) {
      agreeing += signal != DiagnosisSignal::mutants || mutants_usable ? 1 : 0;
      continue;
    }
    ++disagreeing;
    d.disagreements.push_back(disagreementOf(*d.decided_by, *trusted, signal, *reading, mutants,
                                             original.mutation && original.mutation->cpu_device));
  }
  if (mutants.invalid && d.decided_by != DiagnosisSignal::mutants) {
    DiagnosisDisagreement disagreement;
    disagreement.trusted = *d.decided_by;
    disagreement.overruled = DiagnosisSignal::mutants;
    disagreement.reason = DisagreementCase::mutant_invalid;
    disagreement.trusted_reading = trusted->figure;
    disagreement.invalid = mutants.invalid;
    d.disagreements.push_back(disagreement);
  }
  d.confidence = confidenceOf(d, agreeing, disagreeing, trusted->weak);
  return d;
}

}  // namespace rooflab
