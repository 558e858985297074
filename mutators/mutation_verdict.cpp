#include "mutators/mutation_verdict.hpp"

#include <cmath>

#include "analyzer/format.hpp"

namespace rooflab {

std::string toString(MutationReading reading) {
  switch (reading) {
    case MutationReading::memory_bound: return "memory-bound";
    case MutationReading::compute_bound: return "compute-bound";
    case MutationReading::balanced: return "balanced";
    case MutationReading::latency_bound: return "latency-bound";
    case MutationReading::memory_leaning: return "memory-leaning";
    case MutationReading::compute_leaning: return "compute-leaning";
    case MutationReading::overhead_dominated: return "overhead-dominated";
    case MutationReading::unknown: break;
  }
  return "unknown";
}

std::optional<MutationReading> parseMutationReading(std::string_view text) {
  for (MutationReading reading :
       {MutationReading::memory_bound, MutationReading::compute_bound, MutationReading::balanced,
        MutationReading::latency_bound, MutationReading::memory_leaning, MutationReading::compute_leaning,
        MutationReading::overhead_dominated, MutationReading::unknown})
    if (text == toString(reading)) return reading;
  return std::nullopt;
}

namespace {

std::optional<double> medianNs(const nlohmann::json* record) {
  if (!record || !record->is_object() || (*record)["status"] != "ok") return std::nullopt;
  const auto& t = (*record)["timings"];
  if (!t.is_object() || !t["kernel_ns"]["median"].is_number()) return std::nullopt;
  return t["kernel_ns"]["median"].get<double>();
}

std::optional<double> derivedCounter(const nlohmann::json& record, const char* key) {
  const auto& c = record["counters"];
  if (!c.is_object() || !c.value("available", false)) return std::nullopt;
  const auto& d = c["derived"];
  if (!d.is_object() || !d.contains(key) || !d[key].is_number()) return std::nullopt;
  return d[key].get<double>();
}

std::optional<double> rawCounterSum(const nlohmann::json& record, std::initializer_list<const char*> keys) {
  const auto& c = record["counters"];
  if (!c.is_object() || !c.value("available", false)) return std::nullopt;
  const auto& v = c["values"];
  double sum = 0;
  for (const char* k : keys) {
    if (!v.contains(k) || !v[k].is_number()) return std::nullopt;
    sum += v[k].get<double>();
  }
  return sum;
}

bool within(double a, double b, double tolerance) {
  if (a == b) return true;
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

// A mutant is used only when the counters confirm it does what it should (or, without counters,
// when it was built from annotations, which keep every annotated load/store or FLOP by construction).
nlohmann::json validate(const nlohmann::json& normal, const nlohmann::json& mutant, bool memory_only,
                        const VerdictMargins& m) {
  nlohmann::json v;
  if (memory_only) {
    // L1-level global sectors, not DRAM bytes: DRAM traffic of a small working set depends on what
    // the previous run left in L2, while the sectors a kernel requests do not.
    const std::initializer_list<const char*> sectors = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
    auto a = rawCounterSum(normal, sectors), b = rawCounterSum(mutant, sectors);
    if (a && b) {
      v = {{"by", "counters"}, {"quantity", "global memory sectors (load + store)"}, {"original", *a}, {"mutant", *b},
           {"valid", within(*a, *b, m.counter_tolerance)}};
    }
  } else {
    auto a = derivedCounter(normal, "fp32_flops"), b = derivedCounter(mutant, "fp32_flops");
    if (a && b) {
      v = {{"by", "counters"}, {"quantity", "FP32 FLOPs"}, {"original", *a}, {"mutant", *b},
           {"valid", within(*a, *b, m.counter_tolerance)}};
    }
  }
  if (v.is_null())
    v = {{"by", "construction"},
         {"quantity", memory_only ? "annotated global loads and stores" : "annotated arithmetic"},
         {"valid", true},
         {"note", "no counters on this device: the mutant keeps every annotated access (memory-only) or operation "
                  "(compute-only) by construction, which the analytic model assumes; not confirmed by measurement"}};
  return v;
}

}  // namespace

nlohmann::json analyseMutation(const nlohmann::json& normal, const nlohmann::json* memory_only,
                               const nlohmann::json* compute_only, double timer_resolution_ns,
                               const VerdictMargins& m) {
  nlohmann::json out = {{"verdict", "unknown"},
                        {"t_ns", nullptr},
                        {"t_mem_ns", nullptr},
                        {"t_comp_ns", nullptr},
                        {"speedup_if_memory_free", nullptr},
                        {"speedup_if_compute_free", nullptr},
                        {"margins",
                         {{"near", m.near}, {"sum_tolerance", m.sum_tolerance},
                          {"min_kernel_ns", m.min_kernel_ns}, {"counter_tolerance", m.counter_tolerance}}},
                        {"validation", nlohmann::json::object()},
                        {"notes", nlohmann::json::array()}};
  auto& notes = out["notes"];
  const auto t = medianNs(&normal);
  if (!t || *t <= 0) {
    notes.push_back("the original did not run, so there is nothing to compare");
    return out;
  }
  out["t_ns"] = *t;
  // What occupancy padding did for each mutant (runner.cpp): a mutant left at another parallelism
  // than the original's is still used, with the reason in the notes.
  out["occupancy"] = nlohmann::json::object();
  for (const auto& [name, mutant] : {std::pair<const char*, const nlohmann::json*>{"memory-only", memory_only},
                                     std::pair<const char*, const nlohmann::json*>{"compute-only", compute_only}}) {
    if (!mutant || !mutant->contains("occupancy_padding") || !(*mutant)["occupancy_padding"].is_object()) continue;
    const auto& padding = (*mutant)["occupancy_padding"];
    bool matched = true;
    std::size_t pad_bytes = 0;
    for (const auto& launch : padding.value("launches", nlohmann::json::array())) {
      matched = matched && launch.value("matched", true);
      pad_bytes += launch.value("pad_bytes", std::size_t{0});
    }
    out["occupancy"][name] = {{"padded", padding.value("padded", false)}, {"pad_bytes", pad_bytes}, {"matched", matched}};
    for (const auto& note : padding.value("notes", nlohmann::json::array()))
      notes.push_back(std::string("the ") + name + " mutant: " + note.get<std::string>());
  }
  std::optional<double> t_mem = medianNs(memory_only), t_comp = medianNs(compute_only);
  if (memory_only && t_mem) {
    out["validation"]["memory-only"] = validate(normal, *memory_only, true, m);
    if (!out["validation"]["memory-only"]["valid"].get<bool>()) {
      notes.push_back("the memory-only mutant does not move the same memory traffic as the original; its time is not used");
      t_mem.reset();
    }
  }
  if (compute_only && t_comp) {
    out["validation"]["compute-only"] = validate(normal, *compute_only, false, m);
    if (!out["validation"]["compute-only"]["valid"].get<bool>()) {
      notes.push_back("the compute-only mutant does not execute the same FLOPs as the original; its time is not used");
      t_comp.reset();
    }
  }
  if (t_mem) out["t_mem_ns"] = *t_mem;
  if (t_comp) out["t_comp_ns"] = *t_comp;
  if (!t_mem || !t_comp) {
    notes.push_back("a verdict needs both mutants (run modes normal, compute-only and memory-only on an annotated kernel)");
    return out;
  }
  out["speedup_if_memory_free"] = *t / *t_comp;
  out["speedup_if_compute_free"] = *t / *t_mem;

  for (const auto& [name, tx] : {std::pair<const char*, double>{"memory-only", *t_mem}, {"compute-only", *t_comp}})
    if (tx > 1.2 * *t)
      notes.push_back(std::string("the ") + name + " mutant runs " + formatNumber(std::round(tx / *t * 100) / 100) +
                      "x longer than the original: the mutation changed how the compiler shaped the code (on a CPU "
                      "device, typically lost vectorisation across work items), so this reading is doubtful");
  const double floor_ns = std::max(m.min_kernel_ns, m.min_kernel_ns_per_resolution * timer_resolution_ns);
  if (*t < floor_ns) {
    out["verdict"] = "overhead-dominated";
    notes.push_back("the kernel runs " + formatNumber(std::round(*t / 100) / 10) + " us, under " +
                    formatNumber(floor_ns / 1000) + " us: launch ramp-up, tail and timer resolution dominate all three "
                    "times; grow the problem size for a meaningful verdict");
    return out;
  }
  // DESIGN.md's reading: both ~ total: optimise both; one ~ total: bound by it; total ~ sum:
  // latency-bound (traffic and computation do not overlap); otherwise the larger one leads.
  const bool mem_near = *t_mem >= m.near * *t, comp_near = *t_comp >= m.near * *t;
  if (mem_near && comp_near)
    out["verdict"] = "balanced";
  else if (mem_near)
    out["verdict"] = "memory-bound";
  else if (comp_near)
    out["verdict"] = "compute-bound";
  else if (std::fabs(*t - (*t_mem + *t_comp)) <= m.sum_tolerance * *t)
    out["verdict"] = "latency-bound";
  else if (*t_mem >= *t_comp)
    out["verdict"] = "memory-leaning";
  else
    out["verdict"] = "compute-leaning";
  if (out["verdict"] == "latency-bound")
    notes.push_back("t is close to t_mem + t_comp: memory traffic and computation do not overlap; more parallelism "
                    "(occupancy, independent work per work item) would hide one behind the other");
  return out;
}

}  // namespace rooflab
