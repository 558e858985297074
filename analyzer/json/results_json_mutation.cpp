// The JSON edge of the mutation verdict (normal records), the occupancy match and an automatic
// mutant's source check (mutant records): docs/results-schema.md, "Mutation", "Occupancy padding"
// and "How a mutant was made".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

constexpr const char* kMemoryOnly = "memory-only";
constexpr const char* kComputeOnly = "compute-only";

json toJson(const CountedPair& counts) {
  return {{"original", countOrReal(counts.original)}, {"mutant", countOrReal(counts.mutant)}};
}

std::optional<CountedPair> countedPairFromJson(const json& j, std::string_view key) {
  const json* counts = member(j, key);
  if (counts == nullptr || !counts->is_object()) return std::nullopt;
  return CountedPair{numberOr(*counts, "original", 0), numberOr(*counts, "mutant", 0)};
}

// Loads and bytes as the mutant's source check writes them (kept_global_loads, "How a mutant was made").
json toJson(const KeptGlobalLoads& kept) {
  json j = {{"kept", kept.kept}, {"of", kept.of}};
  if (kept.bytes) j["bytes"] = countOrReal(*kept.bytes);
  if (kept.of_bytes) j["of_bytes"] = countOrReal(*kept.of_bytes);
  return j;
}

std::optional<KeptGlobalLoads> keptGlobalLoadsFromJson(const json& j) {
  const json* kept = member(j, "kept_global_loads");
  if (kept == nullptr || !kept->is_object()) return std::nullopt;
  return KeptGlobalLoads{integerOr<int>(*kept, "kept", 0), integerOr<int>(*kept, "of", 0),
                         optionalNumber(*kept, "bytes"), optionalNumber(*kept, "of_bytes")};
}

}  // namespace

json toJson(const MutantValidation& v) {
  json j = {{"by", v.by == MutantValidation::Method::counters ? "counters" : "construction"},
            {"quantity", v.quantity},
            {"valid", v.valid}};
  if (v.original) j["original"] = finiteOrNull(*v.original);
  if (v.mutant) j["mutant"] = finiteOrNull(*v.mutant);
  if (v.fp64_instructions) j["fp64_instructions"] = toJson(*v.fp64_instructions);
  if (v.integer_instructions) j["integer_instructions"] = toJson(*v.integer_instructions);
  if (v.global_load_sectors) j["global_load_sectors"] = toJson(*v.global_load_sectors);
  if (v.kept_global_loads) j["kept_global_loads"] = toJson(*v.kept_global_loads);
  if (v.construction) j["construction"] = toString(*v.construction);
  if (v.note_as_saved) j["note"] = *v.note_as_saved;
  return j;
}

MutantValidation mutantValidationFromJson(const json& j) {
  MutantValidation v;
  v.by = textOr(j, "by") == "counters" ? MutantValidation::Method::counters : MutantValidation::Method::construction;
  v.quantity = textOr(j, "quantity");
  v.original = optionalNumber(j, "original");
  v.mutant = optionalNumber(j, "mutant");
  v.valid = boolOr(j, "valid", false);
  v.fp64_instructions = countedPairFromJson(j, "fp64_instructions");
  v.integer_instructions = countedPairFromJson(j, "integer_instructions");
  v.global_load_sectors = countedPairFromJson(j, "global_load_sectors");
  v.kept_global_loads = keptGlobalLoadsFromJson(j);
  v.construction = parseConstructionBasis(textOr(j, "construction"));
  v.note_as_saved = optionalText(j, "note");  // schema 1: why construction had to do, as a sentence
  return v;
}

namespace {

// A note's figures, each under its field's name where the note has it.
const std::pair<const char*, std::optional<double> MutationNote::*> kNoteFigures[] = {
    {"times_original", &MutationNote::times_original},
    {"far_slower", &MutationNote::far_slower},
    {"flops", &MutationNote::flops},
    {"mutant_gflops", &MutationNote::mutant_gflops},
    {"roof_gflops", &MutationNote::roof_gflops},
    {"bytes", &MutationNote::bytes},
    {"mutant_gbps", &MutationNote::mutant_gbps},
    {"roof_gbps", &MutationNote::roof_gbps},
    {"original_gbps", &MutationNote::original_gbps},
    {"t_ns", &MutationNote::t_ns},
    {"floor_ns", &MutationNote::floor_ns},
};

}  // namespace

// A note read from a schema-1 file is its sentence, written back as it was.
json toJson(const MutationNote& note) {
  if (note.text_as_saved) return *note.text_as_saved;
  json j = {{"kind", toString(note.kind)}};
  if (!note.mutant.empty()) j["mutant"] = note.mutant;
  if (!note.quoted.empty()) j["quoted"] = note.quoted;
  for (const auto& [key, figure] : kNoteFigures)
    if (note.*figure) j[key] = finiteOrNull(note.*figure);
  if (!note.roof_level.empty()) j["roof_level"] = note.roof_level;
  return j;
}

std::optional<MutationNote> mutationNoteFromJson(const json& j) {
  MutationNote note;
  if (j.is_string()) {
    note.text_as_saved = j.get<std::string>();
    return note;
  }
  if (!j.is_object()) return std::nullopt;
  const auto kind = parseMutationNoteKind(textOr(j, "kind"));
  if (!kind) return std::nullopt;
  note.kind = *kind;
  note.mutant = textOr(j, "mutant");
  note.quoted = textOr(j, "quoted");
  for (const auto& [key, figure] : kNoteFigures) note.*figure = optionalNumber(j, key);
  note.roof_level = textOr(j, "roof_level");
  return note;
}

namespace {

// Bytes are whole numbers: written as integers.
json bytesJson(const TrafficBytes& b, bool with_kernel) {
  json j = json::object();
  if (with_kernel) j["kernel"] = b.kernel;
  j["loads"] = static_cast<std::uint64_t>(b.loads);
  j["kept_loads"] = static_cast<std::uint64_t>(b.kept_loads);
  j["stores"] = static_cast<std::uint64_t>(b.stores);
  return j;
}

TrafficBytes trafficBytesFromJson(const json& j) {
  TrafficBytes b;
  b.kernel = textOr(j, "kernel");
  b.loads = numberOr(j, "loads", 0);
  b.kept_loads = numberOr(j, "kept_loads", 0);
  b.stores = numberOr(j, "stores", 0);
  return b;
}

json toJson(const MutantOccupancy& o) {
  return {{"padded", o.padded}, {"pad_bytes", o.pad_bytes}, {"matched", o.matched}};
}

MutantOccupancy mutantOccupancyFromJson(const json& j) {
  return {boolOr(j, "padded", false), integerOr<std::size_t>(j, "pad_bytes", 0), boolOr(j, "matched", true)};
}

template <class T>
json perMutantJson(const PerMutant<T>& values) {
  json j = json::object();
  if (values.memory_only) j[kMemoryOnly] = toJson(*values.memory_only);
  if (values.compute_only) j[kComputeOnly] = toJson(*values.compute_only);
  return j;
}

template <class T, class Read>
PerMutant<T> perMutantFromJson(const json& j, Read read) {
  PerMutant<T> values;
  if (const json* m = member(j, kMemoryOnly); m != nullptr && m->is_object()) values.memory_only = read(*m);
  if (const json* c = member(j, kComputeOnly); c != nullptr && c->is_object()) values.compute_only = read(*c);
  return values;
}

json toJson(const DriverOccupancy& o) {
  return {{"registers_per_thread", o.registers_per_thread},
          {"static_local_bytes", o.static_local_bytes},
          {"dynamic_local_bytes", o.dynamic_local_bytes},
          {"private_spill_bytes_per_thread", o.private_spill_bytes_per_thread},
          {"work_groups_per_cu", o.work_groups_per_cu},
          {"occupancy_pct", o.occupancy_pct}};
}

// The driver's figures sit beside OpenCL's in one object; work_groups_per_cu says they are there.
std::optional<DriverOccupancy> driverOccupancyFromJson(const json& j) {
  if (member(j, "work_groups_per_cu") == nullptr) return std::nullopt;
  DriverOccupancy o;
  o.registers_per_thread = integerOr<int>(j, "registers_per_thread", 0);
  o.static_local_bytes = integerOr<std::int64_t>(j, "static_local_bytes", 0);
  o.dynamic_local_bytes = integerOr<std::int64_t>(j, "dynamic_local_bytes", 0);
  o.private_spill_bytes_per_thread = integerOr<std::int64_t>(j, "private_spill_bytes_per_thread", 0);
  o.work_groups_per_cu = integerOr<int>(j, "work_groups_per_cu", 0);
  o.occupancy_pct = numberOr(j, "occupancy_pct", 0);
  return o;
}

json toJson(const KernelFootprint& k) {
  json j = {{"local_bytes", k.local_bytes}, {"private_bytes", k.private_bytes}};
  if (k.occupancy) j.update(toJson(*k.occupancy));
  return j;
}

KernelFootprint kernelFootprintFromJson(const json& j) {
  return {integerOr<std::uint64_t>(j, "local_bytes", 0), integerOr<std::uint64_t>(j, "private_bytes", 0),
          driverOccupancyFromJson(j)};
}

}  // namespace

json toJson(const MutationVerdict& v) {
  const VerdictMargins& m = v.margins;
  json j = {{"verdict", toString(v.verdict)},
            {"t_ns", finiteOrNull(v.t_ns)},
            {"t_mem_ns", finiteOrNull(v.t_mem_ns)},
            {"t_comp_ns", finiteOrNull(v.t_comp_ns)},
            {"speedup_if_memory_free", finiteOrNull(v.speedup_if_memory_free)},
            {"speedup_if_compute_free", finiteOrNull(v.speedup_if_compute_free)},
            {"margins",
             {{"near", m.near},
              {"sum_tolerance", m.sum_tolerance},
              {"min_kernel_ns", m.min_kernel_ns},
              {"counter_tolerance", m.counter_tolerance}}},
            {"validation", perMutantJson(v.validation)},
            {"notes", json::array()}};
  for (const MutationNote& note : v.notes) j["notes"].push_back(toJson(note));
  if (v.occupancy) j["occupancy"] = perMutantJson(*v.occupancy);
  if (v.slower_mutant)
    j["slower_mutant"] = {{"mode", v.slower_mutant->mode}, {"times_original", v.slower_mutant->times_original}};
  if (v.cpu_device) j["cpu_device"] = true;  // absent: a GPU or other device (and files written before it was recorded)
  return j;
}

MutationVerdict mutationVerdictFromJson(const json& j) {
  MutationVerdict v;
  v.verdict = parseMutationReading(textOr(j, "verdict")).value_or(MutationReading::unknown);
  v.t_ns = optionalNumber(j, "t_ns");
  v.t_mem_ns = optionalNumber(j, "t_mem_ns");
  v.t_comp_ns = optionalNumber(j, "t_comp_ns");
  v.speedup_if_memory_free = optionalNumber(j, "speedup_if_memory_free");
  v.speedup_if_compute_free = optionalNumber(j, "speedup_if_compute_free");
  const json& margins = objectOrEmpty(j, "margins");
  v.margins.near = numberOr(margins, "near", v.margins.near);
  v.margins.sum_tolerance = numberOr(margins, "sum_tolerance", v.margins.sum_tolerance);
  v.margins.min_kernel_ns = numberOr(margins, "min_kernel_ns", v.margins.min_kernel_ns);
  v.margins.counter_tolerance = numberOr(margins, "counter_tolerance", v.margins.counter_tolerance);
  v.validation = perMutantFromJson<MutantValidation>(objectOrEmpty(j, "validation"), mutantValidationFromJson);
  if (const json* occupancy = member(j, "occupancy"); occupancy != nullptr && occupancy->is_object())
    v.occupancy = perMutantFromJson<MutantOccupancy>(*occupancy, mutantOccupancyFromJson);
  if (const json* slower = member(j, "slower_mutant"); slower != nullptr && slower->is_object())
    v.slower_mutant = SlowerMutant{textOr(*slower, "mode"), numberOr(*slower, "times_original", 0)};
  if (const json* cpu = member(j, "cpu_device"); cpu != nullptr && cpu->is_boolean()) v.cpu_device = cpu->get<bool>();
  if (const json* notes = member(j, "notes"); notes != nullptr && notes->is_array())
    for (const json& item : *notes)
      if (auto note = mutationNoteFromJson(item)) v.notes.push_back(std::move(*note));
  return v;
}

json toJson(const OccupancyMatch& match) {
  json launches = json::array();
  for (const LaunchOccupancyMatch& launch : match.launches) {
    json l = {{"kernel", launch.kernel},
              {"original", toJson(launch.original)},
              {"mutant", toJson(launch.mutant)},
              {"pad_bytes", launch.pad_bytes},
              {"matched", launch.matched}};
    if (launch.padded) l["padded"] = toJson(*launch.padded);
    if (launch.note) l["note"] = *launch.note;
    launches.push_back(std::move(l));
  }
  return {{"method", describe(match.method)}, {"padded", match.padded}, {"launches", launches}, {"notes", match.notes}};
}

OccupancyMatch occupancyMatchFromJson(const json& j) {
  OccupancyMatch match;
  match.method = textOr(j, "method") == describe(OccupancyMatchMethod::driver_occupancy)
                     ? OccupancyMatchMethod::driver_occupancy
                     : OccupancyMatchMethod::local_memory;
  match.padded = boolOr(j, "padded", false);
  if (const json* launches = member(j, "launches"); launches != nullptr && launches->is_array())
    for (const json& l : *launches) {
      LaunchOccupancyMatch launch;
      launch.kernel = textOr(l, "kernel");
      launch.original = kernelFootprintFromJson(objectOrEmpty(l, "original"));
      launch.mutant = kernelFootprintFromJson(objectOrEmpty(l, "mutant"));
      if (const json* padded = member(l, "padded"); padded != nullptr && padded->is_object())
        launch.padded = driverOccupancyFromJson(*padded);
      launch.pad_bytes = integerOr<std::size_t>(l, "pad_bytes", 0);
      launch.matched = boolOr(l, "matched", true);
      launch.note = optionalText(l, "note");
      match.launches.push_back(std::move(launch));
    }
  match.notes = textList(j, "notes");
  return match;
}

json toJson(const MutantSourceCheck& check) {
  json j = {{"quantity", check.quantity}, {"original", check.original}, {"mutant", check.mutant}};
  if (check.kept_global_loads > 0) {
    j["kept_global_loads"] = {{"kept", check.kept_global_loads}, {"of", check.global_loads}};
    if (check.bytes) {
      j["kept_global_loads"]["bytes"] = static_cast<std::uint64_t>(check.bytes->kept_loads);
      j["kept_global_loads"]["of_bytes"] = static_cast<std::uint64_t>(check.bytes->loads);
    }
  }
  if (check.bytes) {
    j["global_bytes"] = bytesJson(*check.bytes, false);
    json launches = json::array();
    for (const TrafficBytes& launch : check.launch_bytes) launches.push_back(bytesJson(launch, true));
    j["global_bytes"]["launches"] = launches;
  } else if (!check.bytes_unknown.empty()) {
    j["global_bytes_unknown"] = check.bytes_unknown;
  }
  if (!check.same_as_original.empty()) j["same_as_original"] = check.same_as_original;
  return j;
}

MutantSourceCheck mutantSourceCheckFromJson(const json& j) {
  MutantSourceCheck check;
  check.quantity = textOr(j, "quantity");
  check.original = integerOr<int>(j, "original", 0);
  check.mutant = integerOr<int>(j, "mutant", 0);
  if (const json* kept = member(j, "kept_global_loads"); kept != nullptr && kept->is_object()) {
    check.kept_global_loads = integerOr<int>(*kept, "kept", 0);
    check.global_loads = integerOr<int>(*kept, "of", 0);
  }
  if (const json* bytes = member(j, "global_bytes"); bytes != nullptr && bytes->is_object()) {
    check.bytes = trafficBytesFromJson(*bytes);
    if (const json* launches = member(*bytes, "launches"); launches != nullptr && launches->is_array())
      for (const json& launch : *launches)
        if (launch.is_object()) check.launch_bytes.push_back(trafficBytesFromJson(launch));
  }
  check.bytes_unknown = textOr(j, "global_bytes_unknown");
  check.same_as_original = textOr(j, "same_as_original");
  return check;
}

}  // namespace rooflab
