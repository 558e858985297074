// A tuning space expanded into configurations, each checked as the plan checks any point and by the
// device's limits, and the valid ones planned as points of their own.
#include "analyzer/tune/tuning_plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/manifest/tuning_space.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/stop_flag.hpp"

namespace rooflab {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::string dimensionKind(TuningDimensionSpec::Kind kind) {
  switch (kind) {
    case TuningDimensionSpec::Kind::param: return "param";
    case TuningDimensionSpec::Kind::define: return "define";
    case TuningDimensionSpec::Kind::new_define: return "new define";
  }
  return "";
}

// Each dimension's values on this device (expressions over device_* and the point's params).
std::vector<TuningDimension> evaluateDimensions(const TuningSpaceSpec& space, const VariantSpec& variant,
                                                const ParamValues& params, const ParamValues& device) {
  std::vector<TuningDimension> dimensions;
  const ParamValues values = tuningValues(variant, params, device);
  for (const TuningDimensionSpec& spec : space.dimensions) {
    TuningDimension d{spec.name, dimensionKind(spec.kind), {}};
    for (const std::string& text : spec.values) {
      double value = 0;
      try {
        value = evaluateExpression(text, values);
      } catch (const ExpressionError& e) {
        throw InputError(spec.where.str() + ": " + spec.key + ": " + e.what());
      }
      if (std::find(d.values.begin(), d.values.end(), value) == d.values.end()) d.values.push_back(value);
    }
    dimensions.push_back(std::move(d));
  }
  return dimensions;
}

// The configuration's variant: the base with its defines set, named after the configuration.
VariantSpec configurationVariant(const VariantSpec& base, const TuningSpaceSpec& space,
                                 const std::vector<double>& values) {
  VariantSpec v = base;
  v.tune.reset();
  v.what_ifs.clear();
  std::string name;
  for (std::size_t d = 0; d < space.dimensions.size(); ++d) {
    const TuningDimensionSpec& spec = space.dimensions[d];
    name += (name.empty() ? "" : ",") + spec.name + "=" + formatNumber(values[d]);
    if (spec.kind == TuningDimensionSpec::Kind::param) continue;
    auto define =
        std::find_if(v.defines.begin(), v.defines.end(), [&](const DefineSpec& s) { return s.name == spec.name; });
    if (define == v.defines.end())
      define = v.defines.insert(v.defines.end(), DefineSpec{spec.name, "", false, true, spec.key, spec.where});
    define->value = formatNumber(values[d]);
    define->is_expression = false;
    define->is_number = true;
  }
  v.name = base.name + "[" + name + "]";
  return v;
}

// A dimension named after a family param sets it too (a define of that name may write its value as
// the param, `BLOCK = "BLOCK"`): the record's params then say what ran.
ParamValues configurationParams(ParamValues params, const TuningSpaceSpec& space, const std::vector<double>& values) {
  for (std::size_t d = 0; d < space.dimensions.size(); ++d)
    if (space.dimensions[d].kind == TuningDimensionSpec::Kind::param || params.count(space.dimensions[d].name))
      params[space.dimensions[d].name] = values[d];
  return params;
}

// Why the device cannot run the point as resolved ("" when it can): a work-group larger than it
// takes, more local memory than it has, a buffer over its allocation limit.
std::string deviceRefusal(const ResolvedPoint& point, const DeviceInfo& device) {
  for (const ResolvedLaunch& launch : point.launches) {
    double items = 1;
    for (std::size_t i = 0; i < launch.geometry.local.size(); ++i) {
      items *= static_cast<double>(launch.geometry.local[i]);
      if (i < device.max_work_item_sizes.size() &&
          launch.geometry.local[i] > static_cast<std::int64_t>(device.max_work_item_sizes[i]))
        return "local size " + std::to_string(launch.geometry.local[i]) + " in dimension " + std::to_string(i) +
               " exceeds the device's " + std::to_string(device.max_work_item_sizes[i]);
    }
    if (device.max_work_group_size > 0 && items > static_cast<double>(device.max_work_group_size))
      return "a work-group of " + formatNumber(items) + " work items exceeds the device's " +
             std::to_string(device.max_work_group_size) + " (" + launch.geometry.kernel + ")";
    std::size_t local_bytes = 0;
    for (const ResolvedArg& arg : launch.args) local_bytes += arg.local_bytes;
    if (device.local_mem_bytes > 0 && local_bytes > device.local_mem_bytes)
      return std::to_string(local_bytes) + " bytes of local arguments exceed the device's " +
             std::to_string(device.local_mem_bytes) + " (" + launch.geometry.kernel + ")";
  }
  for (const ResolvedBuffer& buffer : point.buffers)
    if (device.max_alloc_bytes > 0 && buffer.bytes > device.max_alloc_bytes)
      return "buffer " + buffer.spec->name + " of " + std::to_string(buffer.bytes) +
             " bytes exceeds the device's allocation limit";
  return "";
}

// Why a configuration cannot run ("" when it can): a constraint, the plan's checks, the device.
std::string refusal(const FamilyManifest& family, const VariantSpec& variant, const ParamValues& params,
                    const TuningSpaceSpec& space, const ParamValues& device_values, const DeviceInfo& device) {
  ParamValues values;
  try {
    values = tuningValues(variant, params, device_values);
  } catch (const std::exception& e) {
    return e.what();
  }
  for (const ManifestExpression& constraint : space.constraints) {
    try {
      if (constraint.evaluate(values) == 0) return "constraint '" + constraint.text + "' is false";
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  const PlannedPoint planned = planPoint(RunPoint{&family, &variant, params, RunMode::normal});
  if (!planned.resolved) return planned.resolve_error;
  return deviceRefusal(*planned.resolved, device);
}

// The configuration that is the variant as its manifest writes it, when the space holds it.
std::optional<std::size_t> baselineOf(const TuningSearch& search, const VariantSpec& base, const ParamValues& params) {
  const ParamValues own = variantValues(base, params);
  for (std::size_t c = 0; c < search.result.configurations.size(); ++c) {
    bool same = true;
    for (std::size_t d = 0; same && d < search.result.dimensions.size(); ++d) {
      const auto value = own.find(search.result.dimensions[d].name);
      same = value != own.end() && value->second == search.result.configurations[c].values[d];
    }
    if (same) return c;
  }
  return std::nullopt;
}

// Every combination of the dimensions' values, the last dimension varying fastest.
std::vector<std::vector<double>> combinations(const std::vector<TuningDimension>& dimensions) {
  std::vector<std::vector<double>> all{{}};
  for (const TuningDimension& d : dimensions) {
    std::vector<std::vector<double>> next;
    for (const std::vector<double>& prefix : all)
      for (double value : d.values) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    all = std::move(next);
  }
  return all;
}

struct PendingSearch {
  TuningSearch search;
  std::vector<VariantSpec> variants;  // per valid configuration
  std::vector<ParamValues> params;    // per valid configuration
};

PendingSearch expandSearch(const FamilyManifest& family, const VariantSpec& base, const ParamValues& params,
                           const DeviceInfo& device) {
  const TuningSpaceSpec& space = *base.tune;
  const ParamValues device_values = tuningDeviceValues(device);
  PendingSearch pending;
  TuningSearch& s = pending.search;
  s.variant = base.name;
  s.params = params;
  TuningResult& r = s.result;
  r.family = family.name;
  r.variant = base.name;
  r.params = params;
  r.param_order = family.param_order;
  r.dimensions = evaluateDimensions(space, base, params, device_values);
  for (const ManifestExpression& constraint : space.constraints) r.constraints.push_back(constraint.text);
  for (std::vector<double>& values : combinations(r.dimensions)) {
    // Each configuration is resolved as a point: a large space takes seconds, which Ctrl-C cuts short.
    throwIfStopRequested("checking the tuning space of " + family.name + "/" + base.name);
    TunedConfiguration c;
    c.values = std::move(values);
    ParamValues named;
    for (std::size_t d = 0; d < r.dimensions.size(); ++d) named[r.dimensions[d].name] = c.values[d];
    VariantSpec variant = configurationVariant(base, space, c.values);
    const ParamValues point_params = configurationParams(params, space, c.values);
    c.reason = refusal(family, variant, point_params, space, device_values, device);
    if (!c.reason.empty()) {
      c.outcome = ConfigurationOutcome::invalid;
      s.point_of.push_back(kNone);
    } else {
      s.point_of.push_back(pending.variants.size());  // an index into `variants` until the plan is made
      s.valid.push_back(r.configurations.size());
      pending.variants.push_back(std::move(variant));
      pending.params.push_back(point_params);
    }
    s.named.push_back(std::move(named));
    r.configurations.push_back(std::move(c));
  }
  r.valid = s.valid.size();
  r.baseline = baselineOf(s, base, params);
  return pending;
}

}  // namespace

TuningPlan planTuning(const BatchPlan& sized, const DeviceInfo& device) {
  TuningPlan tuning;
  tuning.plan = std::make_shared<BatchPlan>();
  BatchPlan& plan = *tuning.plan;
  plan.families = sized.families;
  plan.warnings = sized.warnings;
  auto familyIndex = [&](const FamilyManifest* family) {
    return static_cast<std::size_t>(family - sized.families.data());
  };
  std::vector<PendingSearch> pending;
  std::vector<std::pair<std::size_t, PlannedPoint>> ladder;  // family index, point (pointers into `sized`)
  for (const PlannedPoint& point : sized.points) {
    if (point.run_point.mode != RunMode::normal) continue;
    const VariantSpec& variant = *point.run_point.variant;
    if (variant.tune) {
      pending.push_back(expandSearch(*point.run_point.family, variant, point.run_point.params, device));
      pending.back().search.family_index = familyIndex(point.run_point.family);
      if (pending.back().search.result.baseline) continue;
    }
    ladder.emplace_back(familyIndex(point.run_point.family), PlannedPoint{point.run_point, {}, "", false});
  }
  // Every configuration's variant joins its family before any point takes its address.
  std::vector<std::size_t> first_variant;
  for (PendingSearch& p : pending) {
    std::vector<VariantSpec>& variants = plan.families[p.search.family_index].variants;
    first_variant.push_back(variants.size());
    for (VariantSpec& v : p.variants) variants.push_back(std::move(v));
  }
  for (auto& [family_index, point] : ladder) {
    const FamilyManifest& family = plan.families[family_index];
    plan.points.push_back(planPoint(
        RunPoint{&family, family.findVariant(point.run_point.variant->name), point.run_point.params, RunMode::normal}));
  }
  tuning.ladder_points = plan.points.size();
  for (std::size_t i = 0; i < pending.size(); ++i) {
    TuningSearch& s = pending[i].search;
    const FamilyManifest& family = plan.families[s.family_index];
    for (std::size_t& point : s.point_of) {
      if (point == kNone) continue;
      const std::size_t at = point;
      point = plan.points.size();
      plan.points.push_back(planPoint(
          RunPoint{&family, &family.variants[first_variant[i] + at], pending[i].params[at], RunMode::normal}));
    }
    tuning.searches.push_back(std::move(s));
  }
  return tuning;
}

void orderConfigurationPoints(TuningPlan& tuning, std::size_t search, const std::vector<std::size_t>& order) {
  TuningSearch& s = tuning.searches.at(search);
  if (s.valid.empty()) return;
  std::size_t first = static_cast<std::size_t>(-1);
  for (std::size_t c : s.valid) first = std::min(first, s.point_of[c]);
  std::vector<std::size_t> sequence = order;
  std::vector<bool> in_sequence(s.point_of.size(), false);  // a search on a vector would be quadratic
  for (std::size_t c : sequence) in_sequence.at(c) = true;
  for (std::size_t c : s.valid)
    if (!in_sequence[c]) sequence.push_back(c);
  std::vector<PlannedPoint>& points = tuning.plan->points;
  std::vector<PlannedPoint> reordered;
  for (std::size_t c : sequence) reordered.push_back(std::move(points[s.point_of[c]]));
  for (std::size_t k = 0; k < sequence.size(); ++k) {
    points[first + k] = std::move(reordered[k]);
    s.point_of[sequence[k]] = first + k;
  }
}

}  // namespace rooflab
