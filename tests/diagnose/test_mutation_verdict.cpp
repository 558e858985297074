#include <gtest/gtest.h>

#include "analyzer/diagnose/analysis.hpp"
#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/batch/batch.hpp"
#include "mutators/occupancy_padding.hpp"
#include "reports/text/mutation_sentences.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {
RunRecord record(double median_ns, RunMode mode = RunMode::normal) {
  RunRecord r;
  r.status = RecordStatus::ok;
  r.mode = mode;
  r.timings.emplace().kernel_ns.median = median_ns;
  r.counters = counters::CounterSet::notAttempted("test");
  return r;
}
RunRecord withCounters(RunRecord r, double flops, double sectors) {
  r.counters = counters::CounterSet{};
  r.counters.available = true;
  r.counters.derived = {{"fp32_flops", flops}};
  r.counters.values = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", sectors},
                       {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0.0}};
  return r;
}
// The last note as the reports say it.
std::string lastNoteText(const MutationVerdict& m) { return reports::mutationNoteText(m.notes.back(), m.cpu_device); }

// Whether any note, as the reports say it, contains `words`.
bool anyNoteSays(const MutationVerdict& m, const std::string& words) {
  for (const MutationNote& note : m.notes)
    if (reports::mutationNoteText(note, m.cpu_device).find(words) != std::string::npos) return true;
  return false;
}

// A verdict's JSON as schema 1 wrote it: its notes and validations in words.
nlohmann::json inSchema1Words(const MutationVerdict& m) {
  nlohmann::json j = toJson(m);
  j["notes"] = nlohmann::json::array();
  for (const MutationNote& note : m.notes) j["notes"].push_back(reports::mutationNoteText(note, m.cpu_device));
  for (const auto& [mode, validation] :
       {std::pair<const char*, const std::optional<MutantValidation>*>{"memory-only", &m.validation.memory_only},
        {"compute-only", &m.validation.compute_only}}) {
    if (!*validation) continue;
    nlohmann::json& v = j["validation"][mode];
    v["quantity"] = reports::mutantValidationQuantityText(**validation);
    for (const char* key :
         {"fp64_instructions", "integer_instructions", "global_load_sectors", "kept_global_loads", "construction"})
      v.erase(key);
    if (const auto note = reports::mutantValidationNoteText(**validation)) v["note"] = *note;
  }
  return j;
}

std::string verdictOf(double t, double t_mem, double t_comp) {
  const auto normal = record(t), mem = record(t_mem, RunMode::memory_only),
             comp = record(t_comp, RunMode::compute_only);
  return toString(analyseMutation(normal, &mem, &comp, 1000).verdict);
}
}  // namespace

TEST(MutationVerdict, FollowsTheCoursesReading) {
  EXPECT_EQ(verdictOf(1e6, 0.98e6, 0.55e6), "memory-bound");   // vecadd on an H100: t_mem ~ t
  EXPECT_EQ(verdictOf(1e6, 0.45e6, 1.01e6), "compute-bound");  // tiled nbody
  EXPECT_EQ(verdictOf(1e6, 0.95e6, 0.90e6), "balanced");       // both ~ t: optimise both
  EXPECT_EQ(verdictOf(1e6, 0.55e6, 0.50e6), "latency-bound");  // t ~ t_mem + t_comp: no overlap
  EXPECT_EQ(verdictOf(1e6, 0.30e6, 0.20e6), "memory-leaning");
  EXPECT_EQ(verdictOf(1e6, 0.20e6, 0.30e6), "compute-leaning");
}

TEST(MutationVerdict, ImpactEstimates) {
  const auto normal = record(1e6), mem = record(0.8e6, RunMode::memory_only),
             comp = record(0.25e6, RunMode::compute_only);
  const MutationVerdict m = analyseMutation(normal, &mem, &comp, 1000);
  EXPECT_DOUBLE_EQ(m.speedup_if_memory_free.value(), 4.0);    // t / t_comp
  EXPECT_DOUBLE_EQ(m.speedup_if_compute_free.value(), 1.25);  // t / t_mem
  EXPECT_EQ(m.validation.memory_only.value().by, MutantValidation::Method::construction);
}

// A mutant far slower than the kernel (over 1.5x) is another program: no verdict, which mutant and how
// much slower as data, and a note in the terms of the device that ran it.
TEST(MutationVerdict, AMutantFarSlowerThanTheOriginalGivesNoVerdict) {
  const auto normal = record(0.36e6), mem = record(7.69e6, RunMode::memory_only),
             comp = record(1.22e6, RunMode::compute_only);
  const MutationVerdict cpu = analyseMutation(normal, &mem, &comp, 1000, {}, std::nullopt, std::nullopt, true);
  EXPECT_EQ(cpu.verdict, MutationReading::unknown);
  ASSERT_TRUE(cpu.slower_mutant);
  EXPECT_EQ(cpu.slower_mutant->mode, "memory-only");  // the slower of the two
  EXPECT_NEAR(cpu.slower_mutant->times_original, 21.36, 0.01);
  ASSERT_FALSE(cpu.notes.empty());
  EXPECT_EQ(cpu.notes.back().kind, MutationNoteKind::mutant_far_slower);
  EXPECT_EQ(cpu.notes.back().mutant, "memory-only");
  EXPECT_NEAR(cpu.notes.back().times_original.value_or(0), 21.36, 0.01);
  EXPECT_EQ(cpu.notes.back().far_slower, 1.5);
  EXPECT_NE(lastNoteText(cpu).find("over the 1.5x that removing a part of the kernel can explain"), std::string::npos)
      << lastNoteText(cpu);
  EXPECT_NE(lastNoteText(cpu).find("on a CPU device, typically lost vectorisation"), std::string::npos)
      << lastNoteText(cpu);
  const MutationVerdict gpu = analyseMutation(normal, &mem, &comp, 1000);
  EXPECT_EQ(gpu.verdict, MutationReading::unknown);
  EXPECT_EQ(lastNoteText(gpu).find("CPU"), std::string::npos) << lastNoteText(gpu);
  EXPECT_NE(lastNoteText(gpu).find("on a GPU"), std::string::npos) << lastNoteText(gpu);
  // Through the results JSON and back.
  const MutationVerdict read = mutationVerdictFromJson(toJson(cpu));
  ASSERT_TRUE(read.slower_mutant);
  EXPECT_EQ(read.slower_mutant->mode, "memory-only");
  EXPECT_TRUE(read.cpu_device);
  // Up to 1.5x the verdict stands, with the doubt noted.
  EXPECT_EQ(verdictOf(1e6, 1.4e6, 0.5e6), "memory-bound");
}

TEST(MutationVerdict, ShortKernelsAreOverheadDominated) {
  EXPECT_EQ(verdictOf(8000, 7000, 6000), "overhead-dominated");
}

TEST(MutationVerdict, AMutantThatFailsValidationIsNotUsed) {
  const auto normal = withCounters(record(1e6), 1000, 500);
  const auto mem = withCounters(record(0.9e6, RunMode::memory_only), 0, 500);    // same sectors: valid
  const auto comp = withCounters(record(0.5e6, RunMode::compute_only), 800, 0);  // 20% fewer FLOPs: invalid
  const MutationVerdict m = analyseMutation(normal, &mem, &comp, 1000);
  EXPECT_TRUE(m.validation.memory_only.value().valid);
  EXPECT_FALSE(m.validation.compute_only.value().valid);
  EXPECT_FALSE(m.t_comp_ns.has_value());
  EXPECT_EQ(m.verdict, MutationReading::unknown);
}

TEST(MutationVerdict, NoOriginalNoVerdict) {
  RunRecord failed;
  failed.status = RecordStatus::error;
  EXPECT_EQ(analyseMutation(failed, nullptr, nullptr, 1).verdict, MutationReading::unknown);
}

// The verdicts saved in the golden runs were computed from JSON records before records became typed:
// the typed analysis of the same records gives the same verdicts, times, validations and notes.
TEST(MutationVerdict, ReproducesTheVerdictsSavedInTheGoldenRuns) {
  for (const char* run : {"pocl-default", "h100-default"}) {
    SCOPED_TRACE(run);
    const AnalysedResults d =
        readResultsFile(std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/report-golden/" + run + "/input.json");
    ASSERT_TRUE(d.device.has_value());
    int compared = 0, far_slower = 0;
    for (const AnalysedRecord& normal : d.records) {
      if (normal.mode != RunMode::normal || !normal.mutation) continue;
      const RunRecord* mutants[2] = {nullptr, nullptr};
      for (const AnalysedRecord& r : d.records)
        if (r.family == normal.family && r.variant == normal.variant && r.params == normal.params &&
            r.mode != RunMode::normal)
          mutants[r.mode == RunMode::memory_only ? 0 : 1] = &r;
      const MutationVerdict again =
          analyseMutation(normal, mutants[0], mutants[1], static_cast<double>(d.device->timer_resolution_ns), {},
                          std::nullopt, std::nullopt, d.device->type == "CPU");
      ++compared;
      // Saved before a mutant over 1.5x the original's time gave no verdict: those now give none.
      if (again.slower_mutant) {
        EXPECT_EQ(again.verdict, MutationReading::unknown) << normal.label();
        EXPECT_GT(again.slower_mutant->times_original, 1.5) << normal.label();
        ++far_slower;
        continue;
      }
      nlohmann::json saved = toJson(*normal.mutation), now = inSchema1Words(again);
      now.erase("cpu_device");
      // Saved when every device's slower mutant was explained by a CPU's vectorisation, a GPU's too.
      const std::string cpu_cause = "on a CPU device, typically lost vectorisation across work items";
      for (auto& note : saved["notes"]) {
        std::string text = note.get<std::string>();
        if (const auto at = text.find(cpu_cause); at != std::string::npos)
          text.replace(at, cpu_cause.size(), rooflab::reports::slowerMutantCauseText(d.device->type == "CPU"));
        note = text;
      }
      EXPECT_EQ(now, saved) << normal.label();
    }
    EXPECT_EQ(compared, 28);
    EXPECT_LT(far_slower, compared / 2);
  }
}

// A compute-only mutant whose compiler dropped the work: its FLOPs in its time beat the device's
// compute roof, which no cache can explain. It is invalid, and says why, on a device without counters.
TEST(MutationVerdict, AComputeOnlyMutantAboveTheComputeRoofHasLostWork) {
  auto normal = record(1e6);
  normal.work.flops = 2e9;  // 2 GFLOP in 1 ms: 2000 GFLOP/s
  const auto mem = record(0.9e6, RunMode::memory_only), comp = record(0.1e6, RunMode::compute_only);
  const MutationVerdict collapsed = analyseMutation(normal, &mem, &comp, 1000, {}, 5000.0);  // 20000 GFLOP/s > 5000
  EXPECT_FALSE(collapsed.validation.compute_only.value().valid);
  EXPECT_EQ(collapsed.verdict, MutationReading::unknown);
  EXPECT_TRUE(anyNoteSays(collapsed, "above the device's compute roof of 5000 GFLOP/s: the compiler removed work"));
  // Within the roof the same mutant is used.
  const MutationVerdict kept = analyseMutation(normal, &mem, &comp, 1000, {}, 50000.0);
  EXPECT_TRUE(kept.validation.compute_only.value().valid);
  EXPECT_NE(kept.verdict, MutationReading::unknown);
}

// With the extra metrics: FP64 instructions must be kept; integer instructions must not fall in an
// integer kernel (its work), while in a floating-point kernel they are addressing and may.
TEST(MutationVerdict, Fp64AndIntegerInstructionsExtendTheComputeOnlyValidation) {
  auto withInstructions = [](RunRecord r, double fp32, double fp64, double integer) {
    r = withCounters(std::move(r), fp32, 0);
    r.counters.values["smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"] = fp64;
    r.counters.values["smsp__sass_thread_inst_executed_op_dmul_pred_on.sum"] = 0;
    r.counters.values["smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"] = 0;
    r.counters.values["smsp__sass_thread_inst_executed_op_integer_pred_on.sum"] = integer;
    return r;
  };
  const auto mem = withCounters(record(0.9e6, RunMode::memory_only), 0, 0);
  // An integer kernel whose compute-only mutant lost a third of its integer instructions: invalid.
  const auto int_normal = withInstructions(record(1e6), 0, 0, 3000);
  const auto int_lost = withInstructions(record(0.5e6, RunMode::compute_only), 0, 0, 2000);
  EXPECT_FALSE(analyseMutation(int_normal, &mem, &int_lost, 1000).validation.compute_only.value().valid);
  // A double kernel: FP64 kept, fewer integer (addressing) instructions: valid; FP64 lost: invalid.
  const auto fp64_normal = withInstructions(record(1e6), 0, 5000, 3000);
  const auto fp64_kept = withInstructions(record(0.5e6, RunMode::compute_only), 0, 5000, 2000);
  const auto fp64_lost = withInstructions(record(0.5e6, RunMode::compute_only), 0, 2500, 4000);
  const MutationVerdict kept = analyseMutation(fp64_normal, &mem, &fp64_kept, 1000);
  EXPECT_TRUE(kept.validation.compute_only.value().valid);
  ASSERT_TRUE(kept.validation.compute_only->fp64_instructions);
  EXPECT_EQ(kept.validation.compute_only->fp64_instructions->original, 5000);
  EXPECT_EQ(kept.validation.compute_only->fp64_instructions->mutant, 5000);
  EXPECT_EQ(kept.validation.compute_only->quantity, "FP32 FLOPs");
  EXPECT_NE(reports::mutantValidationQuantityText(*kept.validation.compute_only).find("FP64 instructions 5000 -> 5000"),
            std::string::npos);
  EXPECT_FALSE(analyseMutation(fp64_normal, &mem, &fp64_lost, 1000).validation.compute_only.value().valid);
}

// A memory-only mutant keeps every global access, so it cannot move the bytes it must move faster
// than the device's fastest memory roof allows; one that does has lost its traffic to the compiler.
// The rule leaves a memory-bound kernel's mutant (as fast as the kernel) and timing noise alone.
TEST(MutationVerdict, AMemoryOnlyMutantFasterThanTheFastestMemoryRoofHasLostTraffic) {
  DeviceModel device;
  device.dram_gbps = 20;
  device.l2_gbps = 60;
  device.local_gbps = 100;
  const std::optional<MemoryRoof> roof = fastestMemoryRoof(device);
  ASSERT_TRUE(roof);
  EXPECT_EQ(roof->level, "local memory");
  EXPECT_DOUBLE_EQ(roof->gbps, 100);

  auto normal = record(1e6);
  normal.work.bytes = 4e6;  // 4 MB in 1 ms: 4 GB/s
  const auto comp = record(0.3e6, RunMode::compute_only);
  auto readingOf = [&](double t_mem_ns, std::optional<MutantSourceCheck> check = std::nullopt) {
    auto mem = record(t_mem_ns, RunMode::memory_only);
    mem.mutant_source_check = std::move(check);
    return analyseMutation(normal, &mem, &comp, 1000, {}, std::nullopt, roof);
  };
  // Memory-bound: the mutant runs as the kernel does.
  const MutationVerdict bound = readingOf(0.95e6);
  EXPECT_TRUE(bound.validation.memory_only.value().valid);
  EXPECT_EQ(bound.verdict, MutationReading::memory_bound);
  // 4 MB in 30 us is 133 GB/s: above the roof, within the noise a CPU's timings and roofs show.
  EXPECT_TRUE(readingOf(0.03e6).validation.memory_only.value().valid);
  // 4 MB in 1 us is 4000 GB/s: the loads are gone.
  const MutationVerdict collapsed = readingOf(1000);
  EXPECT_FALSE(collapsed.validation.memory_only.value().valid);
  EXPECT_FALSE(collapsed.t_mem_ns.has_value());
  EXPECT_EQ(collapsed.verdict, MutationReading::unknown);
  EXPECT_TRUE(anyNoteSays(collapsed,
                          "the memory-only mutant moves the 4 MB it must move at least (every global access is kept) "
                          "at 4000 GB/s, over 4x the device's fastest memory roof (local memory, 100 GB/s) and 4x the "
                          "original's 4 GB/s: the compiler removed traffic"))
      << reports::mutationNoteText(collapsed.notes.front(), false);
  // A roof measured below what the original itself achieved (other processes ran meanwhile): a
  // mutant as fast as the original is not judged.
  auto fast = record(4000);  // 4 MB in 4 us: 1000 GB/s
  fast.work.bytes = 4e6;
  auto fast_mem = record(3000, RunMode::memory_only);
  EXPECT_TRUE(
      analyseMutation(fast, &fast_mem, &comp, 1000, {}, std::nullopt, roof).validation.memory_only.value().valid);
  // A family that declares more bytes than its buffers hold: the buffers the accesses reach decide.
  normal.work.bytes = 4e9;
  MutantSourceCheck reached;
  reached.bytes = TrafficBytes{"", 3e6, 0, 1e6};
  EXPECT_TRUE(readingOf(0.03e6, reached).validation.memory_only.value().valid);
  EXPECT_FALSE(readingOf(0.03e6).validation.memory_only.value().valid);
  // Without a roof nothing is judged.
  auto mem = record(1000, RunMode::memory_only);
  EXPECT_TRUE(analyseMutation(normal, &mem, &comp, 1000).validation.memory_only.value().valid);
}

// An automatic compute-only mutant keeps the loads whose values decide addresses, bounds or branches
// and makes up the rest: by counters it reads at most the original's load sectors, and about none
// when it keeps no load; without counters the note says how many bytes the kept loads' buffers hold.
TEST(MutationVerdict, AnAutomaticComputeOnlyMutantReadsOnlyTheLoadsItKeeps) {
  const auto normal = withCounters(record(1e6), 1000, 1000);
  const auto mem = withCounters(record(0.9e6, RunMode::memory_only), 0, 1000);
  MutantSourceCheck keeps;
  keeps.quantity = "floating-point and integer operations";
  keeps.original = keeps.mutant = 9;
  keeps.kept_global_loads = 2;
  keeps.global_loads = 6;
  keeps.bytes = TrafficBytes{"", 536584, 270344, 8192};
  MutantSourceCheck keeps_none = keeps;
  keeps_none.kept_global_loads = 0;
  auto compute = [](double sectors, const MutantSourceCheck& check) {
    auto r = withCounters(record(0.5e6, RunMode::compute_only), 1000, sectors);
    r.mutant_source_check = check;
    return r;
  };
  const auto reads_kept = compute(400, keeps);
  const MutantValidation v = analyseMutation(normal, &mem, &reads_kept, 1000).validation.compute_only.value();
  EXPECT_TRUE(v.valid);
  ASSERT_TRUE(v.global_load_sectors && v.kept_global_loads);
  EXPECT_EQ(v.global_load_sectors->mutant, 400);
  EXPECT_EQ(v.kept_global_loads->kept, 2);
  EXPECT_NE(reports::mutantValidationQuantityText(v).find(
                "global load sectors 1000 -> 400 (it keeps 2 of the 6 global loads (270.3 KB of the 536.6 KB "
                "their buffers hold"),
            std::string::npos)
      << reports::mutantValidationQuantityText(v);
  const auto reads_more = compute(1200, keeps);
  EXPECT_FALSE(analyseMutation(normal, &mem, &reads_more, 1000).validation.compute_only.value().valid);
  const auto reads_without_keeping = compute(300, keeps_none);
  EXPECT_FALSE(analyseMutation(normal, &mem, &reads_without_keeping, 1000).validation.compute_only.value().valid);
  const auto reads_nothing = compute(0, keeps_none);
  EXPECT_TRUE(analyseMutation(normal, &mem, &reads_nothing, 1000).validation.compute_only.value().valid);
  // No counters: the note gives the kept loads' bytes.
  auto plain = record(0.5e6, RunMode::compute_only);
  plain.mutant_source_check = keeps;
  const auto by_source = analyseMutation(record(1e6), nullptr, &plain, 1000).validation.compute_only.value();
  EXPECT_EQ(by_source.by, MutantValidation::Method::construction);
  EXPECT_EQ(by_source.construction, ConstructionBasis::source_counts);
  const std::string note = reports::mutantValidationNoteText(by_source).value_or("");
  EXPECT_NE(note.find("it keeps 2 of the 6 global loads (270.3 KB of the 536.6 KB their buffers "
                      "hold, each element counted once a launch), whose values decide"),
            std::string::npos)
      << note;
}

// A run stopped between a group's original and its last mutant (records run by metric set put every
// original of an input set first): the group is concluded from the modes that ran, once.
TEST(RecordAnalysis, AGroupStoppedBeforeItsLastModeIsConcludedFromWhatRan) {
  std::vector<RunRecord> records{record(1e6), record(0.98e6, RunMode::memory_only)};
  for (RunRecord& r : records) {
    r.family = "vecadd";
    r.variant = "global";
    r.params = {{"N", 1024}};
    r.param_order = {"N"};
  }
  RooflineModels models{DeviceModel{}, std::nullopt, std::nullopt, std::nullopt};
  models.timer_resolution_ns = 1000;
  RecordAnalysis analysis(DeviceAnalysisInputs{models, false});
  Analysis concluded;
  EXPECT_FALSE(analysis.recordAdded(records, concluded, 0, false));
  EXPECT_FALSE(analysis.recordAdded(records, concluded, 1, false));  // its compute-only mutant never came
  EXPECT_FALSE(concluded.records[0].mutation);
  EXPECT_EQ(analysis.concludeOpenGroups(records, concluded), (std::vector<std::size_t>{0}));
  ASSERT_TRUE(concluded.records[0].mutation);
  EXPECT_TRUE(concluded.records[0].mutation->validation.memory_only.has_value());
  EXPECT_TRUE(analysis.concludeOpenGroups(records, concluded).empty());  // concluded once
}
