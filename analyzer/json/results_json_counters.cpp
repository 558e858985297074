// The JSON edge of a record's counters (docs/results-schema.md, "Counters").
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab::counters {

using namespace json_fields;

json toJson(const CounterSet& c) {
  json j;
  j["available"] = c.available;
  j["reason"] = c.available ? json(nullptr) : json(c.reason);
  if (c.not_attempted) return j;
  json values = json::object();
  for (const auto& [name, value] : c.values) values[name] = countOrReal(value);
  j["values"] = values;
  json missing = json::object();
  for (const auto& [name, why] : c.missing) missing[name] = why;
  j["missing"] = missing;
  json derived = json::object();
  for (const auto& [name, value] : c.derived) derived[name] = value ? countOrReal(*value) : json(nullptr);
  j["derived"] = derived;
  json reasons = json::object();
  for (const auto& [name, why] : c.derived_reasons) reasons[name] = why;
  j["derived_reasons"] = reasons;
  j["bridged_kernel_ns"] = c.bridged_kernel_ns ? json(*c.bridged_kernel_ns) : json(nullptr);
  j["profiler_passes"] = c.profiler_passes;
  if (!c.jit_mode.empty()) j["jit_mode"] = c.jit_mode;
  if (!c.opencl_registers.empty()) j["opencl_registers"] = c.opencl_registers;
  j["l2_flushed_before_profiling"] = c.l2_flushed_before_profiling;
  if (!c.l2_flush_error.empty()) j["l2_flush_error"] = c.l2_flush_error;
  json kernels = json::object();
  for (const auto& [name, k] : c.kernels) {
    kernels[name] = {{"registers_per_thread", k.registers_per_thread},
                     {"local_bytes_per_thread", k.local_bytes_per_thread},
                     {"static_shared_bytes", k.static_shared_bytes},
                     {"dynamic_shared_bytes", k.dynamic_shared_bytes},
                     {"max_threads_per_block", k.max_threads_per_block}};
  }
  j["kernels"] = kernels;
  if (!c.metric_set.empty()) j["metric_set"] = c.metric_set;
  if (c.cost) j["cost"] = toJson(*c.cost);
  // A plain double: a ratio is never a count, even when it happens to be whole.
  if (c.bridged_to_opencl_time_ratio) j["bridged_to_opencl_time_ratio"] = *c.bridged_to_opencl_time_ratio;
  if (c.bridged_vs_opencl) {
    j["bridged_vs_opencl_rel_l2_error"] = finiteOrNull(c.bridged_vs_opencl->rel_l2_error);
    j["bridged_non_finite"] = c.bridged_vs_opencl->non_finite;
  }
  return j;
}

CounterSet counterSetFromJson(const json& j) {
  CounterSet c;
  c.available = boolOr(j, "available", false);
  c.reason = textOr(j, "reason");
  // The short form, {available, reason}, is what a record gets when the bridge was never asked.
  c.not_attempted = !j.contains("values") && !j.contains("derived") && !j.contains("profiler_passes");
  for (const auto& [name, value] : objectOrEmpty(j, "values").items())
    c.values[name] = value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
  c.missing = textMap(j, "missing");
  for (const auto& [name, value] : objectOrEmpty(j, "derived").items())
    c.derived[name] = value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
  c.derived_reasons = textMap(j, "derived_reasons");
  c.bridged_kernel_ns = optionalInteger<std::int64_t>(j, "bridged_kernel_ns");
  c.profiler_passes = integerOr<int>(j, "profiler_passes", 0);
  c.jit_mode = textOr(j, "jit_mode");
  for (const auto& [name, value] : objectOrEmpty(j, "opencl_registers").items())
    if (value.is_number()) c.opencl_registers[name] = value.get<int>();
  c.l2_flushed_before_profiling = boolOr(j, "l2_flushed_before_profiling", false);
  c.l2_flush_error = textOr(j, "l2_flush_error");
  for (const auto& [name, k] : objectOrEmpty(j, "kernels").items()) {
    BridgedKernelResources& resources = c.kernels[name];
    resources.registers_per_thread = integerOr<int>(k, "registers_per_thread", 0);
    resources.local_bytes_per_thread = integerOr<std::int64_t>(k, "local_bytes_per_thread", 0);
    resources.static_shared_bytes = integerOr<std::int64_t>(k, "static_shared_bytes", 0);
    resources.dynamic_shared_bytes = integerOr<std::int64_t>(k, "dynamic_shared_bytes", 0);
    resources.max_threads_per_block = integerOr<int>(k, "max_threads_per_block", 0);
  }
  c.metric_set = textOr(j, "metric_set");
  if (const json* cost = member(j, "cost"); cost != nullptr && cost->is_object()) c.cost = countersCostFromJson(*cost);
  c.bridged_to_opencl_time_ratio = optionalNumber(j, "bridged_to_opencl_time_ratio");
  if (j.contains("bridged_vs_opencl_rel_l2_error") || j.contains("bridged_non_finite"))
    c.bridged_vs_opencl = BridgeAgreement{optionalNumber(j, "bridged_vs_opencl_rel_l2_error"),
                                          integerOr<std::size_t>(j, "bridged_non_finite", 0)};
  return c;
}

}  // namespace rooflab::counters
