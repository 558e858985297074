#include "reports/text/diagnosis_sentences.hpp"

#include "reports/text/mutation_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/roofline_sentences.hpp"

namespace rooflab::reports {

namespace {

// The diagnosis's own number forms: whole percents, microseconds to one decimal, intensities and
// validation counts in std::to_chars's general form.
std::string percentText(double fraction) { return formatFixedAsWritten(fraction * 100, 0) + "%"; }
std::string microseconds(double ns) { return formatFixedAsWritten(ns / 1000, 1) + " us"; }

std::string placementText(const DiagnosisEvidence& e) {
  std::string text;
  if (e.fraction_of_roof && e.level)
    text = percentText(*e.fraction_of_roof) + " of the " + levelName(*e.level) + " roof";
  if (e.intensity) text += " at " + formatGeneral(*e.intensity, 3) + (e.integer_ops ? " op/byte" : " FLOP/byte");
  if (e.points_to) text += " (" + toString(*e.points_to) + ")";
  return text;
}

std::string issueSlotsText(const DiagnosisEvidence& e) {
  return "issue slots busy " + formatFixedAsWritten(e.issue_slots_busy_pct.value_or(0), 0) + "% of active cycles" +
         (e.points_to == DiagnosedBound::compute ? " (instruction issue is the limit)" : "");
}

// "the compute-only mutant failed validation (FP32 FLOPs: 1000 against the original's 2000, counted)".
std::string invalidMutantText(const InvalidMutant& invalid) {
  const MutantValidation& v = invalid.validation;
  std::string text = "the " + invalid.mutant + " mutant failed validation";
  if (v.original && v.mutant)
    text += " (" + mutantValidationQuantityText(v) + ": " + formatGeneral(*v.mutant, 4) + " against the original's " +
            formatGeneral(*v.original, 4) + (v.by == MutantValidation::Method::counters ? ", counted" : "") + ")";
  return text;
}

std::string doubtfulMutantText(const DoubtfulMutant& doubt) {
  return "the " + doubt.mutant + " mutant runs " + formatFixedAsWritten(doubt.times_original, 2) +
         "x as long as the original";
}

std::string tieText(const BalancedTie& tie) {
  const bool memory = tie.ridge_side == DiagnosedBound::memory;
  return ", the two mutants within " + percentText(tie.tie_share_fraction) +
         " of the original's time of each other, and " + (memory ? "the memory roof" : "the compute roof") +
         " is the lower one at its intensity (" + formatGeneral(tie.intensity, 3) +
         (memory ? ", left of the ridge at " : ", right of the ridge at ") + formatGeneral(tie.ridge_intensity, 3) +
         "), so " + toString(tie.ridge_side);
}

std::string mutantsText(const DiagnosisEvidence& e) {
  std::string says;
  if (e.t_ns) says = "t " + microseconds(*e.t_ns);
  if (e.t_ns && e.t_mem_ns)
    says += ", memory-only " + microseconds(*e.t_mem_ns) + " (" + percentText(*e.t_mem_ns / *e.t_ns) + ")";
  if (e.t_ns && e.t_comp_ns)
    says += ", compute-only " + microseconds(*e.t_comp_ns) + " (" + percentText(*e.t_comp_ns / *e.t_ns) + ")";
  if (e.verdict != MutationReading::unknown) {
    says += (says.empty() ? "" : ": ") + toString(e.verdict);
    if (e.tie) says += tieText(*e.tie);
  } else {
    says += (says.empty() ? "" : ": ") + std::string("no verdict");
    if (e.last_note) says += " (" + mutationNoteText(*e.last_note, e.cpu_device) + ")";
  }
  if (e.invalid) says += "; " + invalidMutantText(*e.invalid);
  if (e.doubt) says += "; " + doubtfulMutantText(*e.doubt) + ", so the reading is doubtful";
  return says;
}

// "the kernel runs 9.0 us, 1.29x the 7.0 us launch latency times its 2 launches".
std::string launchFigureText(const LaunchFloor& launch) {
  const double floor_ns = launch.launches * launch.launch_latency_ns;
  return "the kernel runs " + microseconds(launch.kernel_ns) + ", " +
         formatFixedAsWritten(launch.kernel_ns / floor_ns, 2) + "x the " + microseconds(launch.launch_latency_ns) +
         " launch latency" +
         (launch.launches > 1 ? " times its " + formatFixedAsWritten(launch.launches, 0) + " launches" : "");
}

std::string launchFloorText(const DiagnosisEvidence& e) {
  if (!e.launch) return "";
  return launchFigureText(*e.launch) + " (within " + formatFixedAsWritten(e.launch->bound_multiple, 0) +
         "x: launch-bound)";
}

std::string saysText(const DiagnosisEvidence& e) {
  if (e.says_as_saved) return *e.says_as_saved;
  switch (e.kind) {
    case EvidenceKind::placement: return placementText(e);
    case EvidenceKind::issue_slots: return issueSlotsText(e);
    case EvidenceKind::mutants: return mutantsText(e);
    case EvidenceKind::launch_floor: return launchFloorText(e);
    case EvidenceKind::failed_verification:
      return "the output differs from the reference: the time is of a wrong computation, so neither the roofline nor "
             "the mutants say what bounds the variant; fix it first";
    case EvidenceKind::nothing_to_place: break;
  }
  return "no placement on the device that ran and no mutant verdict";
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

// "46% of the DRAM roof", "issue slots busy 85% of the time", "verdict compute-bound".
std::string readingText(const SignalReading& reading) {
  if (reading.verdict) return "verdict " + toString(*reading.verdict);
  if (reading.issue_slots_busy_pct)
    return "issue slots busy " + formatFixedAsWritten(*reading.issue_slots_busy_pct, 0) + "% of the time";
  if (reading.fraction_of_roof && reading.level)
    return percentText(*reading.fraction_of_roof) + " of the " + levelName(*reading.level) + " roof";
  return "";
}

std::string trustedSays(const DiagnosisDisagreement& d) {
  return signalName(d.trusted) + " (" + readingText(d.trusted_reading) + ")" +
         (d.trusted == DiagnosisSignal::roofline ? " is" : " are");
}

constexpr const char* kNoRoofTellsLatency = " of every roof, which cannot tell latency from a bound no roof shows; ";

}  // namespace

std::string boundText(const Diagnosis& diagnosis) {
  if (diagnosis.failed_verification) return "failed verification";
  std::string text = toString(diagnosis.bound);
  if (diagnosis.bound == DiagnosedBound::memory && diagnosis.memory_level)
    text += " (" + levelName(*diagnosis.memory_level) + ")";
  if (diagnosis.bound == DiagnosedBound::launch && diagnosis.launch_floor_ns)
    text += " (" + formatFixedAsWritten(*diagnosis.launch_floor_ns / 1000, 1) + " us of launches)";
  return text;
}

std::string summaryText(const Diagnosis& diagnosis) {
  if (diagnosis.failed_verification) return boundText(diagnosis);
  return boundText(diagnosis) + ", " + toString(diagnosis.confidence) + " confidence";
}

std::string evidenceText(const DiagnosisEvidence& evidence) {
  std::string text = toString(evidence.signal);
  if (evidence.level) text += ", " + levelName(*evidence.level) + " level";
  text += ": " + saysText(evidence);
  if (evidence.above_roof) text += "; above its roof: " + aboveRoofText(*evidence.above_roof);
  return text;
}

std::string disagreementText(const DiagnosisDisagreement& d) {
  if (d.why_as_saved) return *d.why_as_saved;
  const std::string other_says = signalName(d.overruled) + " (" + readingText(d.overruled_reading) + ")";
  const std::string trusted = readingText(d.trusted_reading);
  switch (d.reason) {
    case DisagreementCase::mutants_doubtful:
      return (d.doubt ? doubtfulMutantText(*d.doubt) : std::string()) +
             ": the mutation changed the code the compiler made (" + slowerMutantCauseText(d.cpu_device) +
             "), so the mutants' " + readingText(d.overruled_reading) + " does not measure this kernel; " +
             trustedSays(d) + " trusted";
    case DisagreementCase::mutants_over_latency:
      return other_says + " places it below " + percentText(kRoofBoundFraction) + kNoRoofTellsLatency +
             "the mutants' times measure what removing the traffic or the arithmetic saves, so their " + trusted +
             " is trusted";
    case DisagreementCase::mutants_over_peak:
      return other_says +
             " compares it with the device's peak, which this kernel's mix of work need not be able to reach; the "
             "mutants' times measure this kernel directly, so their " +
             trusted + " is trusted";
    case DisagreementCase::counters_over_latency:
      return other_says + " places it below " + percentText(kRoofBoundFraction) + kNoRoofTellsLatency + trustedSays(d) +
             " measured on the hardware and trusted";
    case DisagreementCase::counters_over_requested_bytes:
      return other_says + " counts the bytes the code asks for; the counters count what each level really served, so " +
             trustedSays(d) + " trusted";
    case DisagreementCase::launch_floor:
      return signalName(d.overruled) + " (" + (d.overruled_bound ? toString(*d.overruled_bound) : std::string()) +
             ") reads the kernel's own work; " + (d.launch ? launchFigureText(*d.launch) : std::string()) +
             ", so launches, not that work, set this point's time: a larger problem per launch or fewer launches is "
             "what would help";
    case DisagreementCase::mutant_invalid: break;
  }
  return (d.invalid ? invalidMutantText(*d.invalid) : std::string()) +
         ": it does not do the original's work, so the mutants give no verdict; " + trustedSays(d) + " trusted";
}

}  // namespace rooflab::reports
