#include "analyzer/diagnose/diagnosis.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "analyzer/diagnose/mutation_text_interim.hpp"
#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/support/format.hpp"
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

// `digits` significant digits, independent of the locale (diagnoses end up in JSON and reports).
std::string formatSignificant(double value, int digits) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
  return std::string(buffer, result.ptr);
}

std::string percentText(double fraction) { return formatFixed(fraction * 100, 0) + "%"; }
std::string microseconds(double ns) { return formatFixed(ns / 1000, 1) + " us"; }

// What one signal concludes, with the figure a disagreement sentence quotes.
struct Reading {
  std::optional<DiagnosedBound> bound;
  std::optional<MemoryLevel> level;
  std::string figure;  // "46% of the DRAM roof", "compute-bound (t 1.2 ms, ...)"
  bool weak = false;   // a leaning or overhead-dominated mutant reading
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
    DiagnosisEvidence item{signal, level, fromRoofline(placement.bound),
                           percentText(*fraction) + " of the " + levelName(level) + " roof"};
    if (const auto intensity = finiteValue(placement.intensity))
      item.says +=
          " at " + formatSignificant(*intensity, 3) +
          (placement.arithmetic.value_or(record.work.arithmetic) == Arithmetic::int32 ? " op/byte" : " FLOP/byte");
    item.says += item.points_to ? " (" + toString(*item.points_to) + ")" : "";
    item.above_roof = placement.above_roof;
    evidence.push_back(item);
    if (best_fraction && *fraction <= *best_fraction) continue;
    best_fraction = fraction;
    reading.bound = item.points_to;
    reading.level = level == MemoryLevel::global ? MemoryLevel::dram : level;
    reading.figure = percentText(*fraction) + " of the " + levelName(level) + " roof";
  }
  if (signal != DiagnosisSignal::counters || !record.counters.available) return reading;
  const auto issue = record.counters.derived.find("issue_slots_busy_pct");
  if (issue == record.counters.derived.end() || !finiteValue(issue->second)) return reading;
  const double busy_pct = *issue->second;
  const bool issue_bound = busy_pct >= kIssueBoundPct;
  evidence.push_back({signal, std::nullopt, issue_bound ? std::optional(DiagnosedBound::compute) : std::nullopt,
                      "issue slots busy " + formatFixed(busy_pct, 0) + "% of active cycles" +
                          (issue_bound ? " (instruction issue is the limit)" : "")});
  if (issue_bound && reading.bound != DiagnosedBound::memory) {
    reading.bound = DiagnosedBound::compute;
    reading.figure = "issue slots busy " + formatFixed(busy_pct, 0) + "% of the time";
  }
  return reading;
}

// Which roof is the lower one at the kernel's intensity on the device that ran it (memory left of the
// ridge, compute right of it), with the sentence that says so; nullopt without an analytic placement.
struct RidgeSide {
  DiagnosedBound bound;
  std::string text;
};
std::optional<RidgeSide> ridgeSide(const AnalysedRecord& record) {
  const auto found = record.roofline.find("device");
  if (found == record.roofline.end() || found->second.intensity_source != IntensitySource::analytic)
    return std::nullopt;
  const RooflinePlacement& placement = found->second;
  const auto intensity = finiteValue(placement.intensity);
  if (!intensity || !(placement.ridge_intensity > 0) || !std::isfinite(placement.ridge_intensity)) return std::nullopt;
  const bool memory = *intensity < placement.ridge_intensity;
  return RidgeSide{memory ? DiagnosedBound::memory : DiagnosedBound::compute,
                   std::string(memory ? "the memory roof" : "the compute roof") +
                       " is the lower one at its intensity (" + formatSignificant(*intensity, 3) +
                       (memory ? ", left of the ridge at " : ", right of the ridge at ") +
                       formatSignificant(placement.ridge_intensity, 3) + ")"};
}

// Two mutants this close to each other (a share of the original's time) are a tie: which is the
// slower is noise (a CPU's timings vary 2-4x between runs), so the slower one names no bound.
constexpr double kBalancedTie = 0.1;

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
  std::string doubt;    // why the mutants' times do not measure this kernel (a mutant slower than it)
  std::string invalid;  // why a mutant's time was not used (it failed validation)
};

MutantReading readMutants(const MutationVerdict& m, const std::optional<RidgeSide>& ridge,
                          std::vector<DiagnosisEvidence>& evidence) {
  MutantReading out;
  for (const auto& [name, validation] :
       {std::pair<const char*, const std::optional<MutantValidation>*>{"compute-only", &m.validation.compute_only},
        {"memory-only", &m.validation.memory_only}}) {
    if (!*validation || (*validation)->valid || !out.invalid.empty()) continue;
    const MutantValidation& v = **validation;
    out.invalid = std::string("the ") + name + " mutant failed validation";
    if (v.original && v.mutant)
      out.invalid += " (" + interimValidationQuantityText(v) + ": " + formatSignificant(*v.mutant, 4) +
                     " against the original's " + formatSignificant(*v.original, 4) +
                     (v.by == MutantValidation::Method::counters ? ", counted" : "") + ")";
  }
  for (const auto& [name, tx] :
       {std::pair<const char*, std::optional<double>>{"compute-only", m.t_comp_ns}, {"memory-only", m.t_mem_ns}})
    if (m.t_ns && tx && *tx > kMutantSlowerThanOriginal * *m.t_ns && out.doubt.empty())
      out.doubt =
          std::string("the ") + name + " mutant runs " + formatFixed(*tx / *m.t_ns, 2) + "x as long as the original";

  std::string says;
  if (m.t_ns) says = "t " + microseconds(*m.t_ns);
  if (m.t_ns && m.t_mem_ns)
    says += ", memory-only " + microseconds(*m.t_mem_ns) + " (" + percentText(*m.t_mem_ns / *m.t_ns) + ")";
  if (m.t_ns && m.t_comp_ns)
    says += ", compute-only " + microseconds(*m.t_comp_ns) + " (" + percentText(*m.t_comp_ns / *m.t_ns) + ")";
  const std::string verdict = toString(m.verdict);
  out.reading.bound = fromVerdict(m);
  // Both mutants about as long as the whole and as each other: neither part alone sets the time, and
  // the roofline says which limit the kernel meets first.
  const bool tie = balancedTie(m) && ridge;
  if (tie) out.reading.bound = ridge->bound;
  out.reading.weak = m.verdict == MutationReading::memory_leaning || m.verdict == MutationReading::compute_leaning ||
                     m.verdict == MutationReading::overhead_dominated;
  out.reading.figure = "verdict " + verdict;
  if (out.reading.bound) {
    says += (says.empty() ? "" : ": ") + verdict;
    if (tie)
      says += ", the two mutants within " + percentText(kBalancedTie) + " of the original's time of each other, and " +
              ridge->text + ", so " + toString(*out.reading.bound);
  } else {
    says += (says.empty() ? "" : ": ") + std::string("no verdict");
    if (!m.notes.empty()) says += " (" + interimMutationNoteText(m.notes.back(), m.cpu_device) + ")";
  }
  if (!out.invalid.empty()) says += "; " + out.invalid;
  if (!out.doubt.empty()) says += "; " + out.doubt + ", so the reading is doubtful";
  const bool usable = out.doubt.empty() && out.invalid.empty();
  evidence.push_back({DiagnosisSignal::mutants, std::nullopt, usable ? out.reading.bound : std::nullopt, says});
  return out;
}

std::string signalName(DiagnosisSignal signal) {
  switch (signal) {
    case DiagnosisSignal::roofline: return "the roofline";
    case DiagnosisSignal::mutants: return "the mutants";
    case DiagnosisSignal::launch: return "the launch latency";
    case DiagnosisSignal::counters: break;
  }
  return "the counters";
}

// A kernel within kLaunchBoundMultiple of its launches' cost is launch-bound, whatever its own work's
// bound: the other signals' readings stay as evidence, and one that named another bound is overruled.
void applyLaunchFloor(const RunRecord& original, double launch_latency_ns, Diagnosis& d) {
  const std::optional<double> kernel_ns = original.medianKernelNs();
  if (d.failed_verification || !kernel_ns || !(launch_latency_ns > 0)) return;
  const double launches = static_cast<double>(std::max<std::size_t>(1, original.geometry.size()));
  const double floor_ns = launches * launch_latency_ns;
  if (*kernel_ns > kLaunchBoundMultiple * floor_ns) return;
  const std::string figure = "the kernel runs " + microseconds(*kernel_ns) + ", " +
                             formatFixed(*kernel_ns / floor_ns, 2) + "x the " + microseconds(launch_latency_ns) +
                             " launch latency" +
                             (launches > 1 ? " times its " + formatFixed(launches, 0) + " launches" : "");
  d.evidence.push_back({DiagnosisSignal::launch, std::nullopt, DiagnosedBound::launch,
                        figure + " (within " + formatFixed(kLaunchBoundMultiple, 0) + "x: launch-bound)"});
  if (d.decided_by && d.bound != DiagnosedBound::undetermined && d.bound != DiagnosedBound::latency)
    d.disagreements.push_back({DiagnosisSignal::launch, *d.decided_by,
                               signalName(*d.decided_by) + " (" + toString(d.bound) +
                                   ") reads the kernel's own work; " + figure +
                                   ", so launches, not that work, set this point's time: a larger problem per "
                                   "launch or fewer launches is what would help"});
  d.bound = DiagnosedBound::launch;
  d.memory_level = std::nullopt;
  d.decided_by = DiagnosisSignal::launch;
  d.launch_floor_ns = floor_ns;
  d.confidence = *kernel_ns <= floor_ns ? DiagnosisConfidence::high : DiagnosisConfidence::medium;
}

// One sentence: `overruled` says `other`, the diagnosis follows `trusted`, and why.
std::string whyTrusted(DiagnosisSignal trusted, const Reading& trusted_reading, DiagnosisSignal overruled,
                       const Reading& other, const std::string& doubt, bool cpu_device) {
  const std::string trusted_says = signalName(trusted) + " (" + trusted_reading.figure + ")" +
                                   (trusted == DiagnosisSignal::roofline ? " is" : " are");
  if (overruled == DiagnosisSignal::mutants)
    return doubt + ": the mutation changed the code the compiler made (" + slowerMutantCause(cpu_device) +
           "), so the mutants' " + other.figure + " does not measure this kernel; " + trusted_says + " trusted";
  const std::string other_says = signalName(overruled) + " (" + other.figure + ")";
  if (trusted == DiagnosisSignal::mutants) {
    if (other.bound == DiagnosedBound::latency)
      return other_says + " places it below " + percentText(kRoofBoundFraction) +
             " of every roof, which cannot tell "
             "latency from a bound no roof shows; the mutants' times measure what removing the traffic or the "
             "arithmetic saves, so their " +
             trusted_reading.figure + " is trusted";
    return other_says +
           " compares it with the device's peak, which this kernel's mix of work need not be able to "
           "reach; the mutants' times measure this kernel directly, so their " +
           trusted_reading.figure + " is trusted";
  }
  if (other.bound == DiagnosedBound::latency)
    return other_says + " places it below " + percentText(kRoofBoundFraction) +
           " of every roof, which cannot tell "
           "latency from a bound no roof shows; " +
           trusted_says + " measured on the hardware and trusted";
  return other_says + " counts the bytes the code asks for; the counters count what each level really served, so " +
         trusted_says + " trusted";
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
  return d;
}

Diagnosis diagnoseSignals(const AnalysedRecord& original) {
  Diagnosis d;
  if (original.verification.status == VerificationStatus::failed) {
    d.failed_verification = true;
    d.evidence.push_back({DiagnosisSignal::roofline, std::nullopt, std::nullopt,
                          "the output differs from the reference: the time is of a wrong computation, so neither the "
                          "roofline nor the mutants say what bounds the variant; fix it first"});
    return d;
  }
  const Reading roofline = readPlacements(original, DiagnosisSignal::roofline, d.evidence);
  const Reading counters = readPlacements(original, DiagnosisSignal::counters, d.evidence);
  MutantReading mutants;
  if (original.mutation) mutants = readMutants(*original.mutation, ridgeSide(original), d.evidence);
  const bool mutants_usable = mutants.reading.bound && mutants.doubt.empty() && mutants.invalid.empty();

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
    if (d.evidence.empty())
      d.evidence.push_back({DiagnosisSignal::roofline, std::nullopt, std::nullopt,
                            "no placement on the device that ran and no mutant verdict"});
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
    if (!reading->bound || (signal == DiagnosisSignal::mutants && !mutants.invalid.empty())) continue;
    if (*reading->bound == d.bound) {
      agreeing += signal != DiagnosisSignal::mutants || mutants_usable ? 1 : 0;
      continue;
    }
    ++disagreeing;
    d.disagreements.push_back({*d.decided_by, signal,
                               whyTrusted(*d.decided_by, *trusted, signal, *reading, mutants.doubt,
                                          original.mutation && original.mutation->cpu_device)});
  }
  if (!mutants.invalid.empty() && d.decided_by != DiagnosisSignal::mutants)
    d.disagreements.push_back({*d.decided_by, DiagnosisSignal::mutants,
                               mutants.invalid +
                                   ": it does not do the original's work, so the mutants give no "
                                   "verdict; " +
                                   signalName(*d.decided_by) + " (" + trusted->figure + ")" +
                                   (d.decided_by == DiagnosisSignal::roofline ? " is" : " are") + " trusted"});
  d.confidence = confidenceOf(d, agreeing, disagreeing, trusted->weak);
  return d;
}

}  // namespace rooflab
