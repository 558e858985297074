#include "reports/text/mutation_sentences.hpp"

#include <cmath>

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

// "270.3 KB": bytes as people read them, to one decimal in units of 1000.
std::string bytesText(double bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  return formatNumber(unit == 0 ? bytes : std::round(bytes * 10) / 10) + " " + units[unit];
}

// "it keeps 4 of the 6 global loads (270.3 KB of the 536.6 KB their buffers hold, ...)": what an
// automatic compute-only mutant still reads.
std::string keptLoadsText(const KeptGlobalLoads& kept) {
  std::string text = "it keeps " + std::to_string(kept.kept) + " of the " + std::to_string(kept.of) + " global loads";
  if (kept.bytes && kept.of_bytes)
    text += " (" + bytesText(*kept.bytes) + " of the " + bytesText(*kept.of_bytes) +
            " their buffers hold, each element counted once a launch)";
  return text;
}

std::string countsText(const char* name, const CountedPair& counts) {
  return std::string(", ") + name + " " + formatNumber(counts.original) + " -> " + formatNumber(counts.mutant);
}

// A figure to two decimals as the notes give it: "1.35", "21.36", "2".
std::string hundredthsText(double value) { return formatNumber(std::round(value * 100) / 100); }

std::string roundedText(double value) { return formatNumber(std::round(value)); }

std::string aboveMemoryRoofText(const MutationNote& note) {
  return "the memory-only mutant moves the " + bytesText(note.bytes.value_or(0)) +
         " it must move at least (every global access is kept) at " + roundedText(note.mutant_gbps.value_or(0)) +
         " GB/s, over 4x the device's fastest memory roof (" + note.roof_level + ", " +
         roundedText(note.roof_gbps.value_or(0)) + " GB/s) and 4x the original's " +
         roundedText(note.original_gbps.value_or(0)) +
         " GB/s: the compiler removed traffic the mutant should keep; its time is not used";
}

std::string aboveComputeRoofText(const MutationNote& note) {
  return "the compute-only mutant runs the kernel's " + formatNumber(note.flops.value_or(0)) + " FLOPs at " +
         roundedText(note.mutant_gflops.value_or(0)) + " GFLOP/s, above the device's compute roof of " +
         roundedText(note.roof_gflops.value_or(0)) +
         " GFLOP/s: the compiler removed work the mutant should keep; its time is not used";
}

// The notes on a mutant slower than the original: doubtful up to far_slower, no verdict over it.
std::string slowerText(const MutationNote& note, bool cpu_device) {
  const std::string runs = "the " + note.mutant + " mutant runs " + hundredthsText(note.times_original.value_or(0));
  if (note.kind == MutationNoteKind::mutant_slower)
    return runs + "x longer than the original: the mutation changed how the compiler shaped the code (" +
           slowerMutantCauseText(cpu_device) + "), so this reading is doubtful";
  return runs + "x longer than the original, over the " + formatNumber(note.far_slower.value_or(0)) +
         "x that removing a part of the kernel can explain: the mutation changed how the compiler shaped the code (" +
         slowerMutantCauseText(cpu_device) + "), so the mutants give no verdict";
}

}  // namespace

std::string slowerMutantCauseText(bool cpu_device) {
  return cpu_device ? "on a CPU device, typically lost vectorisation across work items"
                    : "on a GPU, typically more registers per work item and so fewer in flight, or memory requests "
                      "that no longer coalesce";
}

std::string mutationNoteText(const MutationNote& note, bool cpu_device) {
  if (note.text_as_saved) return *note.text_as_saved;
  switch (note.kind) {
    case MutationNoteKind::original_did_not_run: return "the original did not run, so there is nothing to compare";
    case MutationNoteKind::mutant_occupancy:
    case MutationNoteKind::mutant_same_as_original: return "the " + note.mutant + " mutant: " + note.quoted;
    case MutationNoteKind::mutant_did_not_run: return "the " + note.mutant + " mutant did not run: " + note.quoted;
    case MutationNoteKind::traffic_differs:
      return "the memory-only mutant does not move the same memory traffic as the original; its time is not used";
    case MutationNoteKind::flops_differ:
      return "the compute-only mutant does not execute the same FLOPs as the original; its time is not used";
    case MutationNoteKind::above_compute_roof: return aboveComputeRoofText(note);
    case MutationNoteKind::above_memory_roof: return aboveMemoryRoofText(note);
    case MutationNoteKind::needs_both_mutants:
      return "a verdict needs both mutants (run modes normal, compute-only and memory-only on an annotated kernel)";
    case MutationNoteKind::mutant_slower:
    case MutationNoteKind::mutant_far_slower: return slowerText(note, cpu_device);
    case MutationNoteKind::kernel_too_short:
      return "the kernel runs " + formatNumber(std::round(note.t_ns.value_or(0) / 100) / 10) + " us, under " +
             formatNumber(note.floor_ns.value_or(0) / 1000) +
             " us: launch ramp-up, tail and timer resolution dominate all three times; grow the problem size for a "
             "meaningful verdict";
    case MutationNoteKind::no_overlap:
      return "t is close to t_mem + t_comp: memory traffic and computation do not overlap; more parallelism "
             "(occupancy, independent work per work item) would hide one behind the other";
  }
  return "";
}

std::string mutantValidationQuantityText(const MutantValidation& validation) {
  std::string text = validation.quantity;
  if (validation.fp64_instructions) text += countsText("FP64 instructions", *validation.fp64_instructions);
  if (validation.integer_instructions) text += countsText("integer instructions", *validation.integer_instructions);
  if (validation.global_load_sectors) {
    const auto& kept = validation.kept_global_loads;
    text += countsText("global load sectors", *validation.global_load_sectors) +
            (kept && kept->kept > 0 ? " (" + keptLoadsText(*kept) + ")" : " (it keeps no load)");
  }
  return text;
}

std::optional<std::string> mutantValidationNoteText(const MutantValidation& validation) {
  if (validation.note_as_saved) return validation.note_as_saved;
  if (!validation.construction) return std::nullopt;
  if (*validation.construction == ConstructionBasis::annotations)
    return "no counters on this device: the mutant keeps every annotated access (memory-only) or operation "
           "(compute-only) by construction, which the analytic model assumes; not confirmed by measurement";
  std::string text =
      "no counters on this device: the automatic mutant keeps every global access (memory-only) or operation "
      "(compute-only) as written in the source, counted by its rewriter; not confirmed by measurement";
  if (const auto& kept = validation.kept_global_loads; kept && kept->kept > 0)
    text += "; " + keptLoadsText(*kept) +
            ", whose values decide addresses, branches, loop bounds or divisors, so its time includes their traffic";
  return text;
}

}  // namespace rooflab::reports
