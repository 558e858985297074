// A repeated launch's repetitions made one at a time: a 1500-step stencil is one entry of the plan,
// and each step's geometry and arguments are evaluated when the run enqueues it.
#include "analyzer/manifest/launch_repetitions.hpp"

#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {
namespace {

// The entry's expression parsed with the index as its variable, or null where it does not read it.
std::shared_ptr<const IndexedExpression> indexed(const ManifestExpression& e, const ParamValues& values,
                                                 const std::string& index) {
  if (!expressionUses(e.text, index)) return nullptr;
  try {
    return std::make_shared<const IndexedExpression>(e.text, values, index);
  } catch (const ExpressionError& error) {
    throw InputError(e.where.str() + ": " + e.key + ": " + error.what());
  }
}

}  // namespace

LaunchRepetitions::LaunchRepetitions(const ResolvedPoint& point, std::size_t launch)
    : spec_(&point.run_point.variant->launches.at(launch)), base_(point.launches.at(launch)) {
  if (!base_.varies) return;
  const ParamValues values = variantValues(*point.run_point.variant, point.run_point.params);
  for (const ManifestExpression& e : spec_->global) global_.push_back(indexed(e, values, spec_->index));
  for (const ManifestExpression& e : spec_->local) local_.push_back(indexed(e, values, spec_->index));
  for (const KernelArgSpec& arg : spec_->args)
    args_.push_back(arg.kind == KernelArgSpec::Kind::buffer ? nullptr : indexed(arg.value, values, spec_->index));
}

ResolvedLaunch LaunchRepetitions::at(std::uint64_t k, bool encode) const {
  ResolvedLaunch launch = base_;
  if (k % 2 == 1)
    for (ResolvedArg& arg : launch.args)
      for (const BufferSwap& swap : spec_->pingpong) {
        if (arg.buffer == swap.first) arg.buffer = swap.second;
        else if (arg.buffer == swap.second) arg.buffer = swap.first;
      }
  if (!base_.varies || k == 0) return launch;
  const double index = static_cast<double>(k);
  const std::string at_index = " (at " + spec_->index + " = " + std::to_string(k) + ")";
  auto countAt = [&](const IndexedExpression& parsed, const ManifestExpression& e, bool allow_zero) {
    try {
      return countOf(parsed.evaluate(index), e.text, allow_zero);
    } catch (const ExpressionError& error) {
      throw InputError(e.where.str() + ": " + e.key + ": " + error.what() + at_index);
    }
  };
  for (std::size_t d = 0; d < global_.size(); ++d)
    if (global_[d]) launch.geometry.global[d] = countAt(*global_[d], spec_->global[d], false);
  for (std::size_t d = 0; d < local_.size(); ++d)
    if (local_[d]) launch.geometry.local[d] = countAt(*local_[d], spec_->local[d], false);
  for (std::size_t d = 0; d < launch.geometry.local.size(); ++d)
    if (launch.geometry.global[d] % launch.geometry.local[d] != 0)
      throw InputError(spec_->global[d].where.str() + ": " + spec_->global[d].key + ": global size " +
                       std::to_string(launch.geometry.global[d]) + " is not a multiple of local size " +
                       std::to_string(launch.geometry.local[d]) + at_index);
  for (std::size_t a = 0; a < args_.size(); ++a) {
    if (!args_[a]) continue;
    const KernelArgSpec& spec = spec_->args[a];
    ResolvedArg& arg = launch.args[a];
    if (spec.kind == KernelArgSpec::Kind::local_bytes) {
      arg.local_bytes = static_cast<std::size_t>(countAt(*args_[a], spec.value, false));
      continue;
    }
    try {
      arg.scalar_value = args_[a]->evaluate(index);
    } catch (const ExpressionError& error) {
      throw InputError(spec.value.where.str() + ": " + spec.value.key + ": " + error.what() + at_index);
    }
    if (encode)
      arg.scalar_bytes = encodeScalarArgument(spec.scalar_type, arg.scalar_value, "'" + spec.text + "'" + at_index);
  }
  return launch;
}

}  // namespace rooflab
