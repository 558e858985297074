// The plan's wire format: families field by field, points with their family as an index and their
// variant, what-if and buffers by name, resolved back to pointers into the decoded families.
#include "analyzer/json/plan_json.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using json = nlohmann::json;

namespace rooflab {
namespace {

template <class Enum>
json number(Enum value) {
  return static_cast<int>(value);
}
template <class Enum>
Enum enumAt(const json& j, const char* key) {
  return static_cast<Enum>(j.at(key).get<int>());
}

json toJson(const SourceLocation& where) { return {{"file", where.file}, {"line", where.line}}; }
SourceLocation locationFrom(const json& j) { return {j.at("file").get<std::string>(), j.at("line").get<int>()}; }

json toJson(const ManifestExpression& e) { return {{"text", e.text}, {"key", e.key}, {"where", toJson(e.where)}}; }
ManifestExpression expressionFrom(const json& j) {
  return {j.at("text").get<std::string>(), j.at("key").get<std::string>(), locationFrom(j.at("where"))};
}
json toJson(const std::optional<ManifestExpression>& e) { return e ? toJson(*e) : json(nullptr); }
std::optional<ManifestExpression> optionalExpressionFrom(const json& j) {
  if (j.is_null()) return std::nullopt;
  return expressionFrom(j);
}
json toJson(const std::vector<ManifestExpression>& expressions) {
  json out = json::array();
  for (const auto& e : expressions) out.push_back(toJson(e));
  return out;
}
std::vector<ManifestExpression> expressionsFrom(const json& j) {
  std::vector<ManifestExpression> out;
  for (const json& e : j) out.push_back(expressionFrom(e));
  return out;
}

json toJson(const ElementType& type) { return {{"scalar", number(type.scalar)}, {"lanes", type.lanes}}; }
ElementType elementTypeFrom(const json& j) { return {enumAt<ScalarKind>(j, "scalar"), j.at("lanes").get<int>()}; }

json toJson(const std::optional<BufferFile>& f) {
  if (!f) return nullptr;
  return {{"path", f->path.string()}, {"written", f->written}, {"key", f->key}, {"where", toJson(f->where)}};
}
std::optional<BufferFile> bufferFileFrom(const json& j) {
  if (j.is_null()) return std::nullopt;
  return BufferFile{j.at("path").get<std::string>(), j.at("written").get<std::string>(), j.at("key").get<std::string>(),
                    locationFrom(j.at("where"))};
}

json toJson(const BufferSpec& b) {
  return {{"name", b.name},
          {"type", toJson(b.type)},
          {"count", toJson(b.count)},
          {"init", number(b.init)},
          {"access", number(b.access)},
          {"link", b.link ? number(*b.link) : json(nullptr)},
          {"init_file", toJson(b.init_file)},
          {"expect_file", toJson(b.expect_file)}};
}
BufferSpec bufferFrom(const json& j) {
  BufferSpec b;
  b.name = j.at("name").get<std::string>();
  b.type = elementTypeFrom(j.at("type"));
  b.count = expressionFrom(j.at("count"));
  b.init = enumAt<BufferInit>(j, "init");
  b.access = enumAt<BufferAccess>(j, "access");
  if (const json& link = j.at("link"); !link.is_null()) b.link = static_cast<BufferLink>(link.get<int>());
  b.init_file = bufferFileFrom(j.at("init_file"));
  b.expect_file = bufferFileFrom(j.at("expect_file"));
  return b;
}

json toJson(const LaunchSpec& launch) {
  json args = json::array();
  for (const KernelArgSpec& a : launch.args)
    args.push_back({{"kind", number(a.kind)},
                    {"buffer", a.buffer},
                    {"value", toJson(a.value)},
                    {"scalar_type", number(a.scalar_type)},
                    {"text", a.text}});
  json pingpong = json::array();
  for (const BufferSwap& swap : launch.pingpong) pingpong.push_back({swap.first, swap.second});
  return {{"kernel", launch.kernel},
          {"args", args},
          {"global", toJson(launch.global)},
          {"local", toJson(launch.local)},
          {"repeat", toJson(launch.repeat)},
          {"index", launch.index},
          {"pingpong", pingpong},
          {"where", toJson(launch.where)}};
}
LaunchSpec launchFrom(const json& j) {
  LaunchSpec launch;
  launch.kernel = j.at("kernel").get<std::string>();
  for (const json& a : j.at("args"))
    launch.args.push_back({enumAt<KernelArgSpec::Kind>(a, "kind"), a.at("buffer").get<std::string>(),
                           expressionFrom(a.at("value")), enumAt<ScalarKind>(a, "scalar_type"),
                           a.at("text").get<std::string>()});
  launch.global = expressionsFrom(j.at("global"));
  launch.local = expressionsFrom(j.at("local"));
  launch.repeat = optionalExpressionFrom(j.at("repeat"));
  launch.index = j.at("index").get<std::string>();
  for (const json& swap : j.at("pingpong"))
    launch.pingpong.push_back({swap.at(0).get<std::string>(), swap.at(1).get<std::string>()});
  launch.where = locationFrom(j.at("where"));
  return launch;
}

json toJson(const WhatIfSpec& w) {
  json expect = nullptr;
  if (w.expect)
    expect = {{"counter", w.expect->counter}, {"comparison", number(w.expect->comparison)}, {"value", w.expect->value}};
  return {{"name", w.name},   {"define", w.define},           {"description", w.description},
          {"expect", expect}, {"realised_by", w.realised_by}, {"where", toJson(w.where)}};
}
WhatIfSpec whatIfFrom(const json& j) {
  WhatIfSpec w;
  w.name = j.at("name").get<std::string>();
  w.define = j.at("define").get<std::string>();
  w.description = j.at("description").get<std::string>();
  if (const json& e = j.at("expect"); !e.is_null())
    w.expect = WhatIfExpectation{e.at("counter").get<std::string>(), enumAt<WhatIfComparison>(e, "comparison"),
                                 e.at("value").get<double>()};
  w.realised_by = j.at("realised_by").get<std::string>();
  w.where = locationFrom(j.at("where"));
  return w;
}

json pathsJson(const std::vector<std::filesystem::path>& paths) {
  json out = json::array();
  for (const auto& p : paths) out.push_back(p.string());
  return out;
}

json toJson(const VariantSpec& v) {
  json defines = json::array(), launches = json::array(), scratch = json::array(), what_ifs = json::array();
  for (const DefineSpec& d : v.defines)
    defines.push_back({{"name", d.name},
                       {"value", d.value},
                       {"is_expression", d.is_expression},
                       {"is_number", d.is_number},
                       {"key", d.key},
                       {"where", toJson(d.where)}});
  for (const LaunchSpec& l : v.launches) launches.push_back(toJson(l));
  for (const BufferSpec& b : v.scratch) scratch.push_back(toJson(b));
  for (const WhatIfSpec& w : v.what_ifs) what_ifs.push_back(toJson(w));
  return {{"name", v.name},
          {"description", v.description},
          {"source", v.source.string()},
          {"sources", pathsJson(v.sources)},
          {"include_dir", v.include_dir.string()},
          {"defines", defines},
          {"build_options", v.build_options},
          {"launches", launches},
          {"scratch", scratch},
          {"flops", toJson(v.flops)},
          {"bytes", toJson(v.bytes)},
          {"global_accesses", toJson(v.global_accesses)},
          {"global_accesses_unmeasured", v.global_accesses_unmeasured},
          {"local_accesses", toJson(v.local_accesses)},
          {"tolerance", v.tolerance ? json(*v.tolerance) : json(nullptr)},
          {"annotated", v.annotated},
          {"uses_atomics", v.uses_atomics},
          {"what_ifs", what_ifs},
          {"where", toJson(v.where)}};
}
VariantSpec variantFrom(const json& j) {
  VariantSpec v;
  v.name = j.at("name").get<std::string>();
  v.description = j.at("description").get<std::string>();
  v.source = j.at("source").get<std::string>();
  for (const json& s : j.at("sources")) v.sources.emplace_back(s.get<std::string>());
  v.include_dir = j.at("include_dir").get<std::string>();
  for (const json& d : j.at("defines"))
    v.defines.push_back({d.at("name").get<std::string>(), d.at("value").get<std::string>(),
                         d.at("is_expression").get<bool>(), d.at("is_number").get<bool>(),
                         d.at("key").get<std::string>(), locationFrom(d.at("where"))});
  v.build_options = j.at("build_options").get<std::string>();
  for (const json& l : j.at("launches")) v.launches.push_back(launchFrom(l));
  for (const json& b : j.at("scratch")) v.scratch.push_back(bufferFrom(b));
  v.flops = optionalExpressionFrom(j.at("flops"));
  v.bytes = optionalExpressionFrom(j.at("bytes"));
  v.global_accesses = optionalExpressionFrom(j.at("global_accesses"));
  v.global_accesses_unmeasured = j.at("global_accesses_unmeasured").get<bool>();
  v.local_accesses = optionalExpressionFrom(j.at("local_accesses"));
  if (const json& t = j.at("tolerance"); !t.is_null()) v.tolerance = t.get<double>();
  v.annotated = j.at("annotated").get<bool>();
  v.uses_atomics = j.at("uses_atomics").get<bool>();
  for (const json& w : j.at("what_ifs")) v.what_ifs.push_back(whatIfFrom(w));
  v.where = locationFrom(j.at("where"));
  return v;
}

json toJson(const FamilyManifest& f) {
  json buffers = json::array(), variants = json::array();
  for (const BufferSpec& b : f.buffers) buffers.push_back(toJson(b));
  for (const VariantSpec& v : f.variants) variants.push_back(toJson(v));
  return {{"name", f.name},
          {"description", f.description},
          {"path", f.path.string()},
          {"params", f.params},
          {"param_order", f.param_order},
          {"flops", toJson(f.flops)},
          {"bytes", toJson(f.bytes)},
          {"flops_unmeasured", f.flops_unmeasured},
          {"bytes_unmeasured", f.bytes_unmeasured},
          {"work_type", f.work_type ? toJson(*f.work_type) : json(nullptr)},
          {"buffers", buffers},
          {"reference", {{"kind", number(f.reference.kind)}, {"name", f.reference.name}}},
          {"tolerance", f.tolerance},
          {"variants", variants},
          {"split", f.split ? json{{"param", f.split->param},
                                   {"granule", toJson(f.split->granule)},
                                   {"where", toJson(f.split->where)}}
                            : json(nullptr)}};
}
FamilyManifest familyFrom(const json& j) {
  FamilyManifest f;
  f.name = j.at("name").get<std::string>();
  f.description = j.at("description").get<std::string>();
  f.path = j.at("path").get<std::string>();
  f.params = j.at("params").get<ParamValues>();
  f.param_order = j.at("param_order").get<std::vector<std::string>>();
  f.flops = expressionFrom(j.at("flops"));
  f.bytes = expressionFrom(j.at("bytes"));
  f.flops_unmeasured = j.at("flops_unmeasured").get<bool>();
  f.bytes_unmeasured = j.at("bytes_unmeasured").get<bool>();
  if (const json& t = j.at("work_type"); !t.is_null()) f.work_type = elementTypeFrom(t);
  for (const json& b : j.at("buffers")) f.buffers.push_back(bufferFrom(b));
  f.reference = {enumAt<ReferenceSpec::Kind>(j.at("reference"), "kind"),
                 j.at("reference").at("name").get<std::string>()};
  f.tolerance = j.at("tolerance").get<double>();
  for (const json& v : j.at("variants")) f.variants.push_back(variantFrom(v));
  if (const json& split = j.at("split"); !split.is_null())
    f.split = EndToEndSplit{split.at("param").get<std::string>(), expressionFrom(split.at("granule")),
                            locationFrom(split.at("where"))};
  return f;
}

json toJson(const WorkEstimate& w) {
  auto optional = [](const std::optional<double>& value) { return value ? json(*value) : json(nullptr); };
  return {{"flops", w.flops},
          {"bytes", w.bytes},
          {"global_accesses", optional(w.global_accesses)},
          {"local_accesses", optional(w.local_accesses)},
          {"access_element_bytes", optional(w.access_element_bytes)},
          {"arithmetic", number(w.arithmetic)},
          {"unmeasured", {w.flops_unmeasured, w.bytes_unmeasured, w.global_accesses_unmeasured}}};
}
WorkEstimate workFrom(const json& j) {
  auto optional = [&](const char* key) -> std::optional<double> {
    const json& value = j.at(key);
    return value.is_null() ? std::nullopt : std::optional<double>(value.get<double>());
  };
  WorkEstimate w;
  w.flops = j.at("flops").get<double>();
  w.bytes = j.at("bytes").get<double>();
  w.global_accesses = optional("global_accesses");
  w.local_accesses = optional("local_accesses");
  w.access_element_bytes = optional("access_element_bytes");
  w.arithmetic = enumAt<Arithmetic>(j, "arithmetic");
  const json& unmeasured = j.at("unmeasured");
  w.flops_unmeasured = unmeasured.at(0).get<bool>();
  w.bytes_unmeasured = unmeasured.at(1).get<bool>();
  w.global_accesses_unmeasured = unmeasured.at(2).get<bool>();
  return w;
}

json toJson(const ResolvedPoint& r);

json toJson(const EndToEndRequest& request) {
  json strategies = json::array(), splits = json::array();
  for (EndToEndStrategy strategy : request.strategies) strategies.push_back(number(strategy));
  for (const std::vector<ResolvedChunk>& split : request.splits) {
    json chunks = json::array();
    for (const ResolvedChunk& chunk : split)
      chunks.push_back(
          {{"elements", chunk.elements}, {"buffer_offsets", chunk.buffer_offsets}, {"point", toJson(*chunk.point)}});
    splits.push_back(chunks);
  }
  return {{"strategies", strategies}, {"splits", splits}};
}

json toJson(const ResolvedPoint& r) {
  json buffers = json::array(), launches = json::array();
  for (const ResolvedBuffer& b : r.buffers)
    buffers.push_back({{"name", b.spec->name}, {"scratch", b.scratch}, {"count", b.count}, {"bytes", b.bytes}});
  for (const ResolvedLaunch& l : r.launches) {
    json args = json::array();
    for (const ResolvedArg& a : l.args) {
      json bytes = json::array();
      for (std::byte b : a.scalar_bytes) bytes.push_back(static_cast<int>(b));
      args.push_back({{"kind", number(a.kind)},
                      {"buffer", a.buffer},
                      {"scalar_value", a.scalar_value},
                      {"scalar_bytes", bytes},
                      {"local_bytes", a.local_bytes}});
    }
    launches.push_back({{"kernel", l.geometry.kernel},
                        {"global", l.geometry.global},
                        {"local", l.geometry.local},
                        {"args", args},
                        {"repeat", l.repeat},
                        {"varies", l.varies}});
  }
  return {{"variant", r.run_point.variant->name},
          {"work", toJson(r.work)},
          {"program_options", r.program_options},
          {"tolerance", r.tolerance},
          {"buffers", buffers},
          {"launches", launches},
          {"reference_point", r.reference_point ? toJson(*r.reference_point) : json(nullptr)},
          {"reference_error", r.reference_error},
          {"end_to_end", r.end_to_end ? toJson(*r.end_to_end) : json(nullptr)}};
}

// The variant of `family` named at `key` of `j`.
const VariantSpec& variantNamed(const FamilyManifest& family, const json& j, const char* key) {
  const std::string name = j.at(key).get<std::string>();
  const VariantSpec* variant = family.findVariant(name);
  if (!variant)
    throw std::invalid_argument("the plan names variant '" + name + "', which family '" + family.name + "' lacks");
  return *variant;
}

ResolvedPoint resolvedFrom(const json& j, const RunPoint& point) {
  ResolvedPoint r;
  r.run_point = point;
  r.work = workFrom(j.at("work"));
  r.program_options = j.at("program_options").get<std::string>();
  r.tolerance = j.at("tolerance").get<double>();
  for (const json& b : j.at("buffers")) {
    const std::string name = b.at("name").get<std::string>();
    const BufferSpec* spec = point.family->findBuffer(name, point.variant);
    if (!spec) throw std::invalid_argument("the plan names buffer '" + name + "', which its family and variant lack");
    r.buffers.push_back(
        {spec, b.at("scratch").get<bool>(), b.at("count").get<std::uint64_t>(), b.at("bytes").get<std::uint64_t>()});
  }
  for (const json& l : j.at("launches")) {
    ResolvedLaunch launch;
    launch.geometry = {l.at("kernel").get<std::string>(), l.at("global").get<std::vector<std::int64_t>>(),
                       l.at("local").get<std::vector<std::int64_t>>()};
    for (const json& a : l.at("args")) {
      ResolvedArg arg;
      arg.kind = enumAt<KernelArgSpec::Kind>(a, "kind");
      arg.buffer = a.at("buffer").get<std::string>();
      arg.scalar_value = a.at("scalar_value").get<double>();
      for (const json& b : a.at("scalar_bytes")) arg.scalar_bytes.push_back(static_cast<std::byte>(b.get<int>()));
      arg.local_bytes = a.at("local_bytes").get<std::size_t>();
      launch.args.push_back(std::move(arg));
    }
    launch.repeat = l.at("repeat").get<std::uint64_t>();
    launch.varies = l.at("varies").get<bool>();
    r.launches.push_back(std::move(launch));
  }
  if (const json& ref = j.at("reference_point"); !ref.is_null()) {
    const RunPoint reference{point.family, &variantNamed(*point.family, ref, "variant"), point.params, RunMode::normal};
    r.reference_point = std::make_shared<const ResolvedPoint>(resolvedFrom(ref, reference));
  }
  r.reference_error = j.at("reference_error").get<std::string>();
  if (const json& request = j.at("end_to_end"); !request.is_null()) {
    EndToEndRequest& e = r.end_to_end.emplace();
    for (const json& strategy : request.at("strategies"))
      e.strategies.push_back(static_cast<EndToEndStrategy>(strategy.get<int>()));
    const std::string& split_param = point.family->split ? point.family->split->param : std::string();
    for (const json& split : request.at("splits")) {
      std::vector<ResolvedChunk>& chunks = e.splits.emplace_back();
      for (const json& c : split) {
        ResolvedChunk chunk;
        chunk.elements = c.at("elements").get<std::uint64_t>();
        chunk.buffer_offsets = c.at("buffer_offsets").get<std::vector<std::uint64_t>>();
        RunPoint chunk_point = point;
        chunk_point.params[split_param] = static_cast<double>(chunk.elements);
        chunk.point = std::make_shared<const ResolvedPoint>(resolvedFrom(c.at("point"), chunk_point));
        chunks.push_back(std::move(chunk));
      }
    }
  }
  return r;
}

}  // namespace

json planToJson(const BatchPlan& plan) {
  json families = json::array(), points = json::array();
  for (const FamilyManifest& f : plan.families) families.push_back(toJson(f));
  for (const PlannedPoint& p : plan.points) {
    const RunPoint& point = p.run_point;
    points.push_back({{"family", point.family - plan.families.data()},
                      {"variant", point.variant->name},
                      {"params", point.params},
                      {"mode", number(point.mode)},
                      {"what_if", point.what_if ? json(point.what_if->name) : json(nullptr)},
                      {"resolved", p.resolved ? toJson(*p.resolved) : json(nullptr)},
                      {"resolve_error", p.resolve_error},
                      {"bad_input", p.bad_input}});
  }
  return {{"families", families}, {"points", points}};
}

std::shared_ptr<const BatchPlan> planFromJson(const json& j) {
  try {
    BatchPlan plan;
    for (const json& f : j.at("families")) plan.families.push_back(familyFrom(f));
    for (const json& p : j.at("points")) {
      const std::size_t family_index = p.at("family").get<std::size_t>();
      if (family_index >= plan.families.size()) throw std::invalid_argument("the plan names a family it lacks");
      const FamilyManifest& family = plan.families[family_index];
      PlannedPoint planned;
      RunPoint& point = planned.run_point;
      point.family = &family;
      point.variant = &variantNamed(family, p, "variant");
      point.params = p.at("params").get<ParamValues>();
      point.mode = enumAt<RunMode>(p, "mode");
      if (const json& w = p.at("what_if"); !w.is_null()) {
        for (const WhatIfSpec& spec : point.variant->what_ifs)
          if (spec.name == w.get<std::string>()) point.what_if = &spec;
        if (!point.what_if)
          throw std::invalid_argument("the plan names what-if '" + w.get<std::string>() + "', which the variant lacks");
      }
      if (const json& r = p.at("resolved"); !r.is_null()) planned.resolved = resolvedFrom(r, point);
      planned.resolve_error = p.at("resolve_error").get<std::string>();
      planned.bad_input = p.at("bad_input").get<bool>();
      plan.points.push_back(std::move(planned));
    }
    return std::make_shared<const BatchPlan>(std::move(plan));
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("not a batch plan: ") + e.what());
  }
}

std::shared_ptr<const BatchPlan> planOfPoints(const std::vector<const BatchPlan*>& plans,
                                              const std::vector<PlanPointRef>& points) {
  json families = json::array(), merged_points = json::array();
  std::vector<json> encoded;
  std::vector<std::size_t> family_offset;
  for (const BatchPlan* plan : plans) {
    family_offset.push_back(families.size());
    encoded.push_back(planToJson(*plan));
    for (json& family : encoded.back().at("families")) families.push_back(std::move(family));
  }
  for (const PlanPointRef& ref : points) {
    json point = encoded.at(ref.plan).at("points").at(ref.point);
    point["family"] = point.at("family").get<std::size_t>() + family_offset.at(ref.plan);
    merged_points.push_back(std::move(point));
  }
  return planFromJson({{"families", families}, {"points", merged_points}});
}

}  // namespace rooflab
