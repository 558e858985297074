// A mutation verdict's notes and validations as data: the sentences the reports make of them are the
// ones the analysis wrote before, the data round-trips through the results JSON, and a schema-1
// file's sentences are kept and written back as they were.
#include <gtest/gtest.h>

#include "analyzer/json/results_json.hpp"
#include "reports/text/mutation_sentences.hpp"

using namespace rooflab;
using nlohmann::json;

namespace {

MutationNote noteOf(MutationNoteKind kind, std::string mutant = "") {
  MutationNote note;
  note.kind = kind;
  note.mutant = std::move(mutant);
  return note;
}

}  // namespace

TEST(MutationSentences, NotesSayWhatTheAnalysisWrote) {
  MutationNote slower = noteOf(MutationNoteKind::mutant_slower, "compute-only");
  slower.times_original = 1.3456;
  EXPECT_EQ(reports::mutationNoteText(slower, true),
            "the compute-only mutant runs 1.35x longer than the original: the mutation changed how the compiler "
            "shaped the code (on a CPU device, typically lost vectorisation across work items), so this reading is "
            "doubtful");
  MutationNote far = noteOf(MutationNoteKind::mutant_far_slower, "memory-only");
  far.times_original = 21.3611;
  far.far_slower = 1.5;
  EXPECT_EQ(reports::mutationNoteText(far, false),
            "the memory-only mutant runs 21.36x longer than the original, over the 1.5x that removing a part of the "
            "kernel can explain: the mutation changed how the compiler shaped the code (on a GPU, typically more "
            "registers per work item and so fewer in flight, or memory requests that no longer coalesce), so the "
            "mutants give no verdict");
  MutationNote roof = noteOf(MutationNoteKind::above_compute_roof, "compute-only");
  roof.flops = 2e9;
  roof.mutant_gflops = 20000.4;
  roof.roof_gflops = 5000;
  EXPECT_EQ(reports::mutationNoteText(roof, false),
            "the compute-only mutant runs the kernel's 2000000000 FLOPs at 20000 GFLOP/s, above the device's compute "
            "roof of 5000 GFLOP/s: the compiler removed work the mutant should keep; its time is not used");
  MutationNote memory = noteOf(MutationNoteKind::above_memory_roof, "memory-only");
  memory.bytes = 4.2e6;
  memory.mutant_gbps = 1400000.2;
  memory.roof_gbps = 33454.08;
  memory.roof_level = "local memory";
  memory.original_gbps = 2100;
  EXPECT_EQ(reports::mutationNoteText(memory, false),
            "the memory-only mutant moves the 4.2 MB it must move at least (every global access is kept) at 1400000 "
            "GB/s, over 4x the device's fastest memory roof (local memory, 33454 GB/s) and 4x the original's 2100 "
            "GB/s: the compiler removed traffic the mutant should keep; its time is not used");
  MutationNote short_kernel = noteOf(MutationNoteKind::kernel_too_short);
  short_kernel.t_ns = 9200;
  short_kernel.floor_ns = 20000;
  EXPECT_EQ(reports::mutationNoteText(short_kernel, false),
            "the kernel runs 9.2 us, under 20 us: launch ramp-up, tail and timer resolution dominate all three times; "
            "grow the problem size for a meaningful verdict");
  MutationNote did_not_run = noteOf(MutationNoteKind::mutant_did_not_run, "memory-only");
  did_not_run.quoted = "build failed";
  EXPECT_EQ(reports::mutationNoteText(did_not_run, false), "the memory-only mutant did not run: build failed");
  EXPECT_EQ(reports::mutationNoteText(noteOf(MutationNoteKind::needs_both_mutants), false),
            "a verdict needs both mutants (run modes normal, compute-only and memory-only on an annotated kernel)");
}

TEST(MutationSentences, ValidationCountsAndNotesSayWhatTheAnalysisWrote) {
  MutantValidation counted;
  counted.by = MutantValidation::Method::counters;
  counted.quantity = "FP32 FLOPs";
  counted.fp64_instructions = CountedPair{5000, 5000};
  counted.global_load_sectors = CountedPair{1000, 400};
  counted.kept_global_loads = KeptGlobalLoads{2, 6, 270344, 536584};
  EXPECT_EQ(reports::mutantValidationQuantityText(counted),
            "FP32 FLOPs, FP64 instructions 5000 -> 5000, global load sectors 1000 -> 400 (it keeps 2 of the 6 global "
            "loads (270.3 KB of the 536.6 KB their buffers hold, each element counted once a launch))");
  EXPECT_FALSE(reports::mutantValidationNoteText(counted));
  counted.kept_global_loads->kept = 0;
  EXPECT_EQ(reports::mutantValidationQuantityText(counted),
            "FP32 FLOPs, FP64 instructions 5000 -> 5000, global load sectors 1000 -> 400 (it keeps no load)");
  MutantValidation annotated;
  annotated.construction = ConstructionBasis::annotations;
  EXPECT_EQ(reports::mutantValidationNoteText(annotated),
            "no counters on this device: the mutant keeps every annotated access (memory-only) or operation "
            "(compute-only) by construction, which the analytic model assumes; not confirmed by measurement");
}

TEST(MutationSentences, NotesAndValidationsRoundTripAsData) {
  MutationVerdict verdict;
  verdict.cpu_device = true;
  MutationNote memory = noteOf(MutationNoteKind::above_memory_roof, "memory-only");
  memory.bytes = 4.2e6;
  memory.mutant_gbps = 1400000.5;
  memory.roof_gbps = 33454.08;
  memory.roof_level = "local memory";
  memory.original_gbps = 2100;
  MutationNote occupancy = noteOf(MutationNoteKind::mutant_occupancy, "compute-only");
  occupancy.quoted = "nbody_blocked: the mutant fits 4 work-groups per compute unit";
  verdict.notes = {memory, occupancy, noteOf(MutationNoteKind::no_overlap)};
  MutantValidation by_source;
  by_source.quantity = "floating-point and integer operations in the source";
  by_source.construction = ConstructionBasis::source_counts;
  by_source.kept_global_loads = KeptGlobalLoads{4, 6, std::nullopt, std::nullopt};
  verdict.validation.compute_only = by_source;
  const json written = toJson(verdict);
  EXPECT_EQ(written["notes"][0]["kind"], "above-memory-roof");
  EXPECT_EQ(written["notes"][0]["roof_level"], "local memory");
  EXPECT_EQ(written["validation"]["compute-only"]["construction"], "source-counts");
  EXPECT_FALSE(written["validation"]["compute-only"].contains("note"));
  const MutationVerdict read = mutationVerdictFromJson(written);
  ASSERT_EQ(read.notes.size(), 3u);
  for (std::size_t i = 0; i < read.notes.size(); ++i)
    EXPECT_EQ(reports::mutationNoteText(read.notes[i], true), reports::mutationNoteText(verdict.notes[i], true));
  EXPECT_EQ(read.notes[1].quoted, occupancy.quoted);
  EXPECT_EQ(reports::mutantValidationNoteText(read.validation.compute_only.value()),
            reports::mutantValidationNoteText(by_source));
  EXPECT_EQ(toJson(read), written);
}

// A schema-1 file: notes are sentences, a validation's quantity carries its counts and its note is a
// sentence. They are said as saved and written back unchanged.
TEST(MutationSentences, ASchema1VerdictKeepsItsSentences) {
  const json saved = json::parse(R"saved({"verdict": "unknown", "t_ns": 1000000.0, "t_mem_ns": null, "t_comp_ns": null,
    "speedup_if_memory_free": null, "speedup_if_compute_free": null,
    "margins": {"near": 0.8, "sum_tolerance": 0.2, "min_kernel_ns": 10000.0, "counter_tolerance": 0.05},
    "validation": {"compute-only": {"by": "construction", "quantity": "FP32 FLOPs, FP64 instructions 3 -> 4",
                                    "valid": true, "note": "an old note, as written"}},
    "notes": ["the first note, as written", "a verdict needs both mutants (as an old rooflab put it)"]})saved");
  const MutationVerdict read = mutationVerdictFromJson(saved);
  ASSERT_EQ(read.notes.size(), 2u);
  EXPECT_EQ(reports::mutationNoteText(read.notes[1], false), "a verdict needs both mutants (as an old rooflab put it)");
  const MutantValidation& v = read.validation.compute_only.value();
  EXPECT_EQ(reports::mutantValidationQuantityText(v), "FP32 FLOPs, FP64 instructions 3 -> 4");
  EXPECT_EQ(reports::mutantValidationNoteText(v), "an old note, as written");
  EXPECT_EQ(toJson(read), saved);
}
