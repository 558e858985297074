// Reading a variant's tuning space: its dimensions (params, defines, or names of its own), their
// values and its constraints, each checked against a placeholder device so that a typo is found when
// the manifest is read.
#include "analyzer/manifest/tuning_space.hpp"

#include <algorithm>

#include "analyzer/manifest/manifest_fields.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// The most configurations a space may hold. `rooflab tune` checks every configuration as a point
// and hands the worker every valid one before the first runs: on a loaded 2-core host, 1000 took
// about 6 s more than a space of six.
constexpr double kMostConfigurations = 2048;

TuningDimensionSpec parseDimension(const TomlReader& pr, const std::string& name, const toml::node& node,
                                   const FamilyManifest& family, const VariantSpec& variant) {
  TuningDimensionSpec d;
  d.name = name;
  d.key = pr.keyPath(name);
  d.where = pr.where(name);
  if (!isIdentifier(name)) pr.fail(name, "'" + name + "' is not a valid param or macro name");
  const auto define = std::find_if(variant.defines.begin(), variant.defines.end(),
                                   [&](const DefineSpec& spec) { return spec.name == name; });
  if (define != variant.defines.end()) {
    if (!define->is_expression && !define->is_number)
      pr.fail(name, "define " + name +
                        " is written as raw text or a boolean: a tuned define must be a number or an expression");
    d.kind = TuningDimensionSpec::Kind::define;
  } else {
    d.kind = family.params.count(name) ? TuningDimensionSpec::Kind::param : TuningDimensionSpec::Kind::new_define;
  }
  const toml::array* values = node.as_array();
  if (values == nullptr)
    pr.fail(name, "must be an array of the values to try (numbers, or expressions over device_* limits)");
  if (values->empty()) pr.fail(name, "is an empty array: give at least one value to try");
  for (const toml::node& value : *values) {
    const std::optional<std::string> text = nodeAsText(value);
    if (!text || value.is_boolean()) pr.fail(name, "values must be numbers or expression strings");
    try {
      evaluateExpression(*text, tuningValues(variant, family.params, placeholderDeviceValues()));
    } catch (const ExpressionError& e) {
      pr.fail(name, e.what());
    }
    d.values.push_back(*text);
  }
  return d;
}

// The dimensions' first values over the family's defaults: what a constraint is checked with.
ParamValues sampleValues(const TuningSpaceSpec& space, const FamilyManifest& family, const VariantSpec& variant) {
  ParamValues params = family.params;
  for (const TuningDimensionSpec& d : space.dimensions)
    if (d.kind == TuningDimensionSpec::Kind::param)
      params[d.name] = evaluateExpression(d.values.front(), placeholderDeviceValues());
  ParamValues values = tuningValues(variant, params, placeholderDeviceValues());
  for (const TuningDimensionSpec& d : space.dimensions)
    values[d.name] = evaluateExpression(d.values.front(), placeholderDeviceValues());
  return values;
}

}  // namespace

ParamValues tuningDeviceValues(const DeviceInfo& device) {
  ParamValues values{{"device_compute_units", device.compute_units},
                     {"device_max_work_group_size", static_cast<double>(device.max_work_group_size)},
                     {"device_local_mem_bytes", static_cast<double>(device.local_mem_bytes)},
                     {"device_max_alloc_bytes", static_cast<double>(device.max_alloc_bytes)},
                     {"device_global_mem_bytes", static_cast<double>(device.global_mem_bytes)}};
  for (std::size_t i = 0; i < 3; ++i)
    values["device_max_work_item_size_" + std::to_string(i)] =
        i < device.max_work_item_sizes.size() ? static_cast<double>(device.max_work_item_sizes[i]) : 1.0;
  return values;
}

ParamValues placeholderDeviceValues() {
  DeviceInfo device;
  device.compute_units = 64;
  device.max_work_group_size = 1024;
  device.local_mem_bytes = 49152;
  device.max_alloc_bytes = 4ull << 30;
  device.global_mem_bytes = 16ull << 30;
  device.max_work_item_sizes = {1024, 1024, 64};
  return tuningDeviceValues(device);
}

ParamValues tuningValues(const VariantSpec& variant, const ParamValues& params, const ParamValues& device) {
  ParamValues values = variantValues(variant, params);
  for (const auto& [name, value] : device) values[name] = value;
  return values;
}

std::optional<TuningSpaceSpec> parseTuningSpace(const TomlReader& r, const FamilyManifest& family,
                                                const VariantSpec& variant, InputErrorList& errors) {
  const toml::table* table = nullptr;
  if (!errors.attempt([&] { table = r.optionalTable("tune"); }) || table == nullptr) return std::nullopt;
  const TomlReader tr = r.sub(*table, r.keyPath("tune"));
  TuningSpaceSpec space;
  space.where = tr.where();
  const std::size_t errors_before = errors.size();
  errors.attempt([&] { tr.rejectUnknownKeys({"params", "constraints"}); });
  const toml::table* params = nullptr;
  errors.attempt([&] {
    params = tr.optionalTable("params");
    if (params == nullptr || params->empty())
      tr.fail("params", "missing: a tuning space names at least one param or define and the values to try");
  });
  double configurations = 1;
  if (params != nullptr) {
    const TomlReader pr = tr.sub(*params, tr.keyPath("params"));
    // In the order written (a TOML table is read back sorted by key): the space's order of enumeration.
    std::vector<std::pair<std::string, const toml::node*>> written;
    for (const auto& [key, node] : *params) written.emplace_back(std::string(key.str()), &node);
    std::stable_sort(written.begin(), written.end(), [](const auto& a, const auto& b) {
      const auto& sa = a.second->source().begin;
      const auto& sb = b.second->source().begin;
      return sa.line != sb.line ? sa.line < sb.line : sa.column < sb.column;
    });
    std::string product;  // "UNR 10 x WPT 100"
    for (const auto& dimension : written)
      errors.attempt([&] {
        const auto& [name, node] = dimension;
        space.dimensions.push_back(parseDimension(pr, name, *node, family, variant));
        configurations *= static_cast<double>(space.dimensions.back().values.size());
        product += (product.empty() ? "" : " x ") + name + " " + std::to_string(space.dimensions.back().values.size());
      });
    if (configurations > kMostConfigurations)
      errors.add(tr.error("params", "the space has " + formatNumber(configurations) + " configurations (" + product +
                                        " values), more than the " + formatNumber(kMostConfigurations) +
                                        " a search may hold: try fewer values, or tune fewer names at once"));
  }
  std::optional<std::vector<std::string>> constraints;
  errors.attempt([&] { constraints = tr.optionalTextArray("constraints"); });
  for (std::size_t i = 0; constraints && i < constraints->size(); ++i)
    space.constraints.push_back(ManifestExpression{
        (*constraints)[i], tr.keyPath("constraints") + "[" + std::to_string(i) + "]", tr.where("constraints")});
  if (errors.size() != errors_before) return std::nullopt;
  for (const ManifestExpression& constraint : space.constraints)
    errors.attempt([&] { constraint.evaluate(sampleValues(space, family, variant)); });
  if (errors.size() != errors_before) return std::nullopt;
  return space;
}

}  // namespace rooflab
