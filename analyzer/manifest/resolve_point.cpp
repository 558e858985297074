#include "analyzer/manifest/resolve_point.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>

#include "analyzer/manifest/launch_repetitions.hpp"

#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/input_errors.hpp"

namespace rooflab {
namespace {

template <class T>
std::vector<std::byte> bytesOf(T value) {
  std::vector<std::byte> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

// What a check of a point does with an input error: throw it (planning a point: its first error is
// its error), or, when checking a manifest, keep it and go on (errors != nullptr).
void report(InputErrorList* errors, const std::string& message) {
  if (errors == nullptr) throw InputError(message);
  errors->add(message);
}

// step(), or, when checking a manifest and step throws an InputError, nothing (the error kept).
template <class Step>
auto attempt(InputErrorList* errors, Step&& step) -> std::optional<decltype(step())> {
  if (errors == nullptr) return step();
  std::optional<decltype(step())> value;
  errors->attempt([&] { value = step(); });
  return value;
}

}  // namespace

std::vector<std::byte> encodeScalarArgument(ScalarKind kind, double value, const std::string& what) {
  auto checkRange = [&](double lo, double hi) {
    if (value < lo || value > hi || value != std::trunc(value))
      throw VariantError("argument " + what + " = " + formatNumber(value) + " does not fit its integer type");
  };
  switch (kind) {
    case ScalarKind::i32: checkRange(INT32_MIN, INT32_MAX); return bytesOf<std::int32_t>(std::int32_t(value));
    case ScalarKind::u32: checkRange(0, UINT32_MAX); return bytesOf<std::uint32_t>(std::uint32_t(value));
    case ScalarKind::i64: checkRange(-9.2e18, 9.2e18); return bytesOf<std::int64_t>(std::int64_t(value));
    case ScalarKind::u64: checkRange(0, 1.8e19); return bytesOf<std::uint64_t>(std::uint64_t(value));
    case ScalarKind::f32:
      if (std::fabs(value) > std::numeric_limits<float>::max())
        throw VariantError("argument " + what + " = " + formatNumber(value) + " does not fit a float");
      return bytesOf<float>(float(value));
    case ScalarKind::f64: return bytesOf<double>(value);
    default: throw VariantError("argument " + what + ": unsupported scalar type");
  }
}

namespace {

ResolvedBuffer resolveBuffer(const BufferSpec& spec, bool scratch, const ParamValues& params) {
  ResolvedBuffer b;
  b.spec = &spec;
  b.scratch = scratch;
  b.count = static_cast<std::uint64_t>(spec.count.count(params));
  const std::uint64_t element = spec.type.bytes();
  b.bytes = b.count > std::numeric_limits<std::uint64_t>::max() / element ? std::numeric_limits<std::uint64_t>::max()
                                                                          : b.count * element;
  return b;
}

// Scalar arguments are evaluated here and encoded in their types afterwards (encodeScalarArguments).
ResolvedLaunch resolveLaunch(const LaunchSpec& launch, const ParamValues& params, InputErrorList* errors) {
  ResolvedLaunch r;
  r.geometry.kernel = launch.kernel;
  for (std::size_t i = 0; i < launch.global.size(); ++i) {
    const std::optional<std::int64_t> global = attempt(errors, [&] { return launch.global[i].count(params); });
    const std::int64_t g = global.value_or(1);
    r.geometry.global.push_back(g);
    if (launch.local.size() <= i) continue;  // the manifest gives local as many dimensions as global, or none
    const std::optional<std::int64_t> local = attempt(errors, [&] { return launch.local[i].count(params); });
    const std::int64_t l = local.value_or(1);
    r.geometry.local.push_back(l);
    // A size that did not evaluate has its own error: its stand-in 1 must not add a second one.
    if (global && local && g % l != 0)
      report(errors, launch.global[i].where.str() + ": " + launch.global[i].key + ": global size " + std::to_string(g) +
                         " is not a multiple of local size " + std::to_string(l));
  }
  for (const KernelArgSpec& spec : launch.args) {
    ResolvedArg arg;
    arg.kind = spec.kind;
    switch (spec.kind) {
      case KernelArgSpec::Kind::buffer: arg.buffer = spec.buffer; break;
      case KernelArgSpec::Kind::local_bytes:
        arg.local_bytes =
            static_cast<std::size_t>(attempt(errors, [&] { return spec.value.count(params); }).value_or(0));
        break;
      case KernelArgSpec::Kind::scalar:
        arg.scalar_value = attempt(errors, [&] { return spec.value.evaluate(params); }).value_or(0);
        break;
    }
    r.args.push_back(std::move(arg));
  }
  return r;
}

// Parameters are finite, and whole where they size a buffer, a launch or local memory: a fraction
// there would be rounded somewhere and silently change what runs.
void checkParamValues(const FamilyManifest& family, const VariantSpec& v, const ParamValues& params,
                      InputErrorList* errors) {
  std::vector<const ManifestExpression*> sizes;
  for (const BufferSpec& b : family.buffers) sizes.push_back(&b.count);
  for (const BufferSpec& b : v.scratch) sizes.push_back(&b.count);
  for (const LaunchSpec& launch : v.launches) {
    for (const ManifestExpression& e : launch.global) sizes.push_back(&e);
    for (const ManifestExpression& e : launch.local) sizes.push_back(&e);
    for (const KernelArgSpec& arg : launch.args)
      if (arg.kind == KernelArgSpec::Kind::local_bytes) sizes.push_back(&arg.value);
  }
  for (const auto& [name, value] : params) {
    if (!std::isfinite(value)) {
      report(errors, family.path.string() + ": variant '" + v.name + "': parameter " + name + " = " +
                         formatNumber(value) + " is not a finite number");
      continue;
    }
    if (value == std::trunc(value)) continue;
    for (const ManifestExpression* e : sizes)
      if (expressionUses(e->text, name))
        report(errors, e->where.str() + ": " + e->key + ": parameter " + name + " = " + formatNumber(value) +
                           " must be a whole number: it sizes '" + e->text + "' (variant '" + v.name + "')");
  }
}

// The compute roof of a family's work: its [work] type, else double when the first buffer (the
// one global_accesses count) holds doubles; integer work only when declared, since an index or
// count buffer first says nothing of what the flops compute in.
Arithmetic workArithmetic(const FamilyManifest& family) {
  if (family.work_type) {
    if (family.work_type->scalar == ScalarKind::f32) return Arithmetic::fp32;
    return family.work_type->scalar == ScalarKind::f64 ? Arithmetic::fp64 : Arithmetic::int32;
  }
  if (!family.buffers.empty() && family.buffers.front().type.scalar == ScalarKind::f64) return Arithmetic::fp64;
  return Arithmetic::fp32;
}

// A buffer's `init` or `expect` file holds exactly the buffer's bytes at this point: a capture's data
// for another size would be read as garbage.
void checkBufferFiles(const ResolvedPoint& r, InputErrorList* errors) {
  for (const ResolvedBuffer& b : r.buffers)
    for (const std::optional<BufferFile>* file : {&b.spec->init_file, &b.spec->expect_file}) {
      if (!*file) continue;
      const BufferFile& f = **file;
      std::error_code ec;
      const std::uintmax_t size = std::filesystem::file_size(f.path, ec);
      if (ec) {
        report(errors, f.where.str() + ": " + f.key + ": cannot read '" + f.path.string() + "' (" + ec.message() + ")");
      } else if (size != b.bytes) {
        report(errors, f.where.str() + ": " + f.key + ": '" + f.written + "' (" + f.path.string() + ") holds " +
                           std::to_string(size) + " bytes, but buffer '" + b.spec->name + "' needs " +
                           std::to_string(b.bytes) + " (" + std::to_string(b.count) + " x " + b.spec->type.name() +
                           ") at " + paramsLabel(r.run_point.params, r.run_point.family->param_order));
      }
    }
}

// "variants[0].launches[2].pingpong": beside the entry's repeat, which a pingpong needs.
std::string pingpongKey(const LaunchSpec& launch) {
  const std::string& repeat = launch.repeat->key;
  return repeat.substr(0, repeat.rfind('.')) + ".pingpong";
}

// The buffers a pingpong exchanges must be of one size at this point, as they are of one type.
void checkPingpongSizes(const ResolvedPoint& r, const LaunchSpec& launch, InputErrorList* errors) {
  for (const BufferSwap& swap : launch.pingpong) {
    const ResolvedBuffer* first = r.findBuffer(swap.first);
    const ResolvedBuffer* second = r.findBuffer(swap.second);
    if (first && second && first->count != second->count)
      report(errors, launch.where.str() + ": " + pingpongKey(launch) + ": '" + swap.first + "' holds " +
                         std::to_string(first->count) + " elements but '" + swap.second + "' " +
                         std::to_string(second->count) + ": buffers exchanged must be of one size");
  }
}

// Each entry at its first repetition (its index at 0), its repeat counted and, where it reads its
// index, every repetition checked, one error each at most: a repeat is never stored one by one.
void resolveLaunches(ResolvedPoint& r, const ParamValues& params, InputErrorList* errors) {
  const VariantSpec& v = *r.run_point.variant;
  std::uint64_t total = 0;
  for (std::size_t l = 0; l < v.launches.size(); ++l) {
    const LaunchSpec& launch = v.launches[l];
    ParamValues entry = params;
    std::uint64_t repeat = 1;
    bool varies = false;
    if (launch.repeat) {
      entry[launch.index] = 0;
      repeat = static_cast<std::uint64_t>(attempt(errors, [&] { return launch.repeat->count(params); }).value_or(1));
      auto reads = [&](const ManifestExpression& e) { return expressionUses(e.text, launch.index); };
      varies = std::any_of(launch.global.begin(), launch.global.end(), reads) ||
               std::any_of(launch.local.begin(), launch.local.end(), reads) ||
               std::any_of(launch.args.begin(), launch.args.end(), [&](const KernelArgSpec& a) {
                 return a.kind != KernelArgSpec::Kind::buffer && reads(a.value);
               });
      checkPingpongSizes(r, launch, errors);
    }
    ResolvedLaunch resolved = resolveLaunch(launch, entry, errors);
    resolved.repeat = repeat;
    resolved.varies = varies;
    r.launches.push_back(std::move(resolved));
    total += repeat;
    if (launch.repeat && total > kMaxLaunchesPerRun)
      report(errors, launch.repeat->where.str() + ": " + launch.repeat->key + ": '" + launch.repeat->text + "' makes " +
                         std::to_string(total) + " launches in one run of variant '" + v.name + "'; at most " +
                         std::to_string(kMaxLaunchesPerRun) + " are allowed");
  }
  if (total > kMaxLaunchesPerRun) return;
  for (std::size_t l = 0; l < r.launches.size(); ++l) {
    if (!r.launches[l].varies) continue;
    attempt(errors, [&] {
      const LaunchRepetitions repetitions(r, l);
      for (std::uint64_t k = 1; k < repetitions.count(); ++k) repetitions.at(k, false);
      return true;
    });
  }
}

// Every expression, in the order a manifest's checks report them. With `errors`, every error of the
// point is kept there (an expression in error stands in as 0 or 1); without, the first is thrown.
ResolvedPoint evaluatePoint(const RunPoint& point, InputErrorList* errors) {
  const FamilyManifest& family = *point.family;
  const VariantSpec& v = *point.variant;
  const ParamValues& family_params = point.params;
  const ParamValues params = variantValues(v, family_params, errors);
  checkParamValues(family, v, params, errors);
  ResolvedPoint r;
  r.run_point = point;
  const double family_flops = attempt(errors, [&] { return family.flops.evaluate(family_params); }).value_or(0);
  const double family_bytes = attempt(errors, [&] { return family.bytes.evaluate(family_params); }).value_or(0);
  for (const BufferSpec& b : family.buffers)
    if (auto buffer = attempt(errors, [&] { return resolveBuffer(b, false, family_params); }))
      r.buffers.push_back(*buffer);
  for (const BufferSpec& b : v.scratch)
    if (auto buffer = attempt(errors, [&] { return resolveBuffer(b, true, params); })) r.buffers.push_back(*buffer);
  auto optionalValue = [&](const std::optional<ManifestExpression>& e) -> std::optional<double> {
    if (!e) return std::nullopt;
    return attempt(errors, [&] { return e->evaluate(params); });
  };
  const std::optional<double> flops = optionalValue(v.flops), bytes = optionalValue(v.bytes);
  r.work.flops = flops.value_or(family_flops);
  r.work.bytes = bytes.value_or(family_bytes);
  // A variant's own number wins over the family's "unmeasured".
  r.work.flops_unmeasured = !flops && family.flops_unmeasured;
  r.work.bytes_unmeasured = !bytes && family.bytes_unmeasured;
  r.work.global_accesses_unmeasured = v.global_accesses_unmeasured;
  r.work.global_accesses = optionalValue(v.global_accesses);
  r.work.local_accesses = optionalValue(v.local_accesses);
  if (!family.buffers.empty()) r.work.access_element_bytes = static_cast<double>(family.buffers.front().type.bytes());
  r.work.arithmetic = workArithmetic(family);
  for (const DefineSpec& d : v.defines) {
    const std::string value = d.is_expression ? formatNumber(params.at(d.name)) : d.value;
    r.program_options += " -D " + d.name + "=" + value;
  }
  if (point.what_if) r.program_options += " -D " + point.what_if->define + "=1";
  if (!v.build_options.empty()) r.program_options += " " + v.build_options;
  r.tolerance = v.tolerance.value_or(family.tolerance);
  checkBufferFiles(r, errors);
  resolveLaunches(r, params, errors);
  return r;
}

void encodeScalarArguments(ResolvedPoint& r) {
  const std::vector<LaunchSpec>& launches = r.run_point.variant->launches;
  for (std::size_t l = 0; l < launches.size(); ++l)
    for (std::size_t a = 0; a < launches[l].args.size(); ++a) {
      const KernelArgSpec& spec = launches[l].args[a];
      ResolvedArg& arg = r.launches[l].args[a];
      if (spec.kind == KernelArgSpec::Kind::scalar)
        arg.scalar_bytes = encodeScalarArgument(spec.scalar_type, arg.scalar_value, "'" + spec.text + "'");
    }
}

}  // namespace

ParamValues variantValues(const VariantSpec& variant, const ParamValues& params, InputErrorList* errors) {
  ParamValues values = params;
  for (const DefineSpec& d : variant.defines)
    if (d.is_expression || d.is_number)
      values[d.name] = attempt(errors, [&] {
                         return ManifestExpression{d.value, d.key, d.where}.evaluate(params);
                       }).value_or(1);
  return values;
}

RunRecord recordFor(const RunPoint& point) {
  RunRecord record;
  record.family = point.family->name;
  record.variant = point.variant->name;
  record.mode = point.mode;
  record.params = point.params;
  record.param_order = point.family->param_order;
  if (point.what_if) {
    WhatIfRun& w = record.what_if.emplace();
    w.name = point.what_if->name;
    w.define = point.what_if->define;
    w.expectation = point.what_if->expect;
    w.realised_by = point.what_if->realised_by;
  }
  return record;
}

ResolvedPoint resolvePoint(const RunPoint& point) {
  ResolvedPoint r = evaluatePoint(point, nullptr);
  encodeScalarArguments(r);
  const ReferenceSpec& reference = point.family->reference;
  if (point.mode != RunMode::normal || reference.kind != ReferenceSpec::Kind::variant ||
      reference.isVariant(point.variant->name))
    return r;
  RunPoint reference_point{point.family, point.family->findVariant(reference.name), point.params, RunMode::normal};
  try {
    r.reference_point = std::make_shared<const ResolvedPoint>(resolvePoint(reference_point));
  } catch (const InputError& e) {
    throw InputError("reference variant '" + reference.name + "': " + e.what());
  } catch (const std::exception& e) {
    r.reference_error = "reference variant '" + reference.name + "' failed: " + e.what();
  }
  return r;
}

void validateForParams(const FamilyManifest& family, const VariantSpec& variant, const ParamValues& params) {
  InputErrorList errors;
  evaluatePoint(RunPoint{&family, &variant, params, RunMode::normal}, &errors);
  errors.throwIfAny();
}

PlannedPoint planPoint(RunPoint point) {
  PlannedPoint planned;
  try {
    planned.resolved = resolvePoint(point);
  } catch (const InputError& e) {
    planned.resolve_error = e.what();
    planned.bad_input = true;
  } catch (const std::exception& e) {
    planned.resolve_error = e.what();
  }
  planned.run_point = std::move(point);
  return planned;
}

}  // namespace rooflab
