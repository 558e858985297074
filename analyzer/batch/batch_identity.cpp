#include "analyzer/batch/batch_identity.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyzer/json/plan_json.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// FNV-1a: stable across compilers and machines, as std::hash is not; an identity, not a secret.
std::uint64_t fnv1a(const std::string& text, std::uint64_t hash = 14695981039346656037ull) {
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string hex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : "unreadable: " + path.string();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> measurementSettings(const RunSettings& run) {
  return {{"repetitions", std::to_string(run.repetitions)},
          {"warmup", std::to_string(run.warmup)},
          {"max_noise", formatNumber(run.max_noise)},
          {"min_time", formatNumber(run.min_time_s)},
          {"max_time", formatNumber(run.max_time_s)},
          {"counters", toString(run.counters)},
          {"ceilings", toString(run.ceilings)},
          {"reference_model", run.reference_model},
          {"variant_time_limit_s", formatNumber(run.variant_time_limit_s)},
          {"seed", std::to_string(run.seed)}};
}

std::string sourcesHash(const VariantSpec& variant) {
  std::string text;
  try {
    text = sourceTextWithIncludes(variant.sources, variant.include_dir);
  } catch (const InputError& e) {
    text = e.what();  // a file gone since the plan read it: its own identity, never another's
  }
  return hex(fnv1a(text));
}

std::string pointHash(const BatchPlan& plan, std::size_t point) {
  nlohmann::json encoded = planToJson(*planOfPoints({&plan}, {PlanPointRef{0, point}})).at("points").at(0);
  encoded.erase("family");  // an index into the plan's families, which other studies shift
  return hex(fnv1a(encoded.dump()));
}

std::string fileHash(const fs::path& file) { return hex(fnv1a(fileBytes(file))); }

BatchIdentity identifyBatch(const BatchPlan& plan, const RunSettings& run) {
  std::uint64_t sources = fnv1a(""), manifests = fnv1a("");
  std::set<const VariantSpec*> variants;
  std::set<const FamilyManifest*> families;
  for (const PlannedPoint& point : plan.points) {
    if (variants.insert(point.run_point.variant).second)
      sources = fnv1a(sourcesHash(*point.run_point.variant), sources);
    if (families.insert(point.run_point.family).second)
      manifests = fnv1a(fileBytes(point.run_point.family->path), manifests);
  }
  std::string settings;
  for (const auto& [name, value] : measurementSettings(run)) settings += name + "=" + value + "\n";
  BatchIdentity identity;
  identity.components = {{"plan", hex(fnv1a(planToJson(plan).dump()))},
                         {"sources", hex(sources)},
                         {"manifests", hex(manifests)},
                         {"settings", hex(fnv1a(settings))}};
  identity.id = idOfComponents(identity.components);
  identity.points = plan.points.size();
  return identity;
}

std::string idOfComponents(const std::map<std::string, std::string>& components) {
  std::uint64_t hash = fnv1a("rooflab batch");
  for (const auto& [name, value] : components) hash = fnv1a(name + "=" + value + "\n", hash);
  return hex(hash);
}

std::string componentMeaning(const std::string& component) {
  if (component == "sources") return "kernel sources (the source files or the headers they include)";
  if (component == "manifests") return "family manifests (family.toml)";
  if (component == "settings") return "measurement settings";
  if (component == "plan") return "planned points (studies, sizes, geometry, build options)";
  return component;
}

}  // namespace rooflab
