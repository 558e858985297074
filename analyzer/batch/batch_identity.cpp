#include "analyzer/batch/batch_identity.hpp"

#include <cstdint>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "analyzer/json/plan_json.hpp"

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

}  // namespace

std::string batchIdentity(const BatchPlan& plan, const RunSettings& run) {
  const nlohmann::json settings = {{"repetitions", run.repetitions},
                                   {"warmup", run.warmup},
                                   {"max_noise", run.max_noise},
                                   {"min_time", run.min_time_s},
                                   {"max_time", run.max_time_s},
                                   {"counters", toString(run.counters)},
                                   {"ceilings", toString(run.ceilings)},
                                   {"reference_model", run.reference_model},
                                   {"variant_time_limit_s", run.variant_time_limit_s},
                                   {"seed", run.seed}};
  const std::uint64_t hash = fnv1a(settings.dump(), fnv1a(planToJson(plan).dump()));
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace rooflab
