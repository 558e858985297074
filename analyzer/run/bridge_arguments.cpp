#include "analyzer/run/bridge_arguments.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analyzer/manifest/launch_repetitions.hpp"
#include "analyzer/verify/verification.hpp"

namespace rooflab::counters {

std::vector<BridgeLaunch> bridgeLaunches(const std::vector<ResolvedLaunch>& launches) {
  std::vector<BridgeLaunch> bridged;
  for (const ResolvedLaunch& launch : launches) {
    if (launch.geometry.local.empty())
      throw std::invalid_argument("launch of " + launch.geometry.kernel +
                                  " has no local size in the manifest; the CUDA bridge needs one");
    BridgeLaunch b;
    b.kernel = launch.geometry.kernel;
    for (auto g : launch.geometry.global) b.global.push_back(static_cast<std::size_t>(g));
    for (auto l : launch.geometry.local) b.local.push_back(static_cast<std::size_t>(l));
    for (const ResolvedArg& arg : launch.args) {
      switch (arg.kind) {
        case KernelArgSpec::Kind::buffer: b.args.push_back(BridgeArg::buffer(arg.buffer)); break;
        case KernelArgSpec::Kind::scalar: b.args.push_back(BridgeArg::scalar(arg.scalar_bytes)); break;
        case KernelArgSpec::Kind::local_bytes: b.args.push_back(BridgeArg::local(arg.local_bytes)); break;
      }
    }
    bridged.push_back(std::move(b));
  }
  return bridged;
}

std::vector<ResolvedLaunch> everyRepetition(const ResolvedPoint& point, const std::vector<ResolvedLaunch>& launches) {
  std::vector<ResolvedLaunch> expanded;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const LaunchRepetitions repetitions(point, i);
    const std::size_t own_args = point.run_point.variant->launches[i].args.size();
    for (std::uint64_t k = 0; k < launches[i].repeat; ++k) {
      if (!repetitions.changes()) {
        expanded.push_back(launches[i]);
        continue;
      }
      ResolvedLaunch launch = repetitions.at(k);
      // rooflab's own arguments (the mutant's key, the pad) follow the manifest's, as set up.
      launch.args.insert(launch.args.end(), launches[i].args.begin() + static_cast<std::ptrdiff_t>(own_args),
                         launches[i].args.end());
      expanded.push_back(std::move(launch));
    }
  }
  return expanded;
}

std::map<std::string, HostBuffer> bridgeBuffers(const ResolvedPoint& point,
                                                const std::map<std::string, HostBuffer>& inputs) {
  std::map<std::string, HostBuffer> buffers;
  for (const ResolvedBuffer& b : point.buffers) {
    const std::string& name = b.spec->name;
    const auto in = inputs.find(name);
    if (in != inputs.end() && !b.writtenByLaunches()) continue;
    if (in != inputs.end()) {
      buffers.emplace(name, in->second);
    } else {
      HostBuffer poisoned(name, b.spec->type, static_cast<std::size_t>(b.count));
      poisonBuffer(poisoned);
      buffers.emplace(name, std::move(poisoned));
    }
  }
  return buffers;
}

CounterNeed counterNeedOf(RunMode mode) {
  // A what-if is measured as an original is: its expectation may name any counter of the table.
  return mode == RunMode::normal || mode == RunMode::what_if ? CounterNeed::full_table : CounterNeed::mutant_validation;
}

namespace {

// The bridge's options for a point, as measurePointCounters and its prefetch both need them.
BridgeOptions bridgeOptionsFor(const ResolvedPoint& point, const MetricSelection& selection,
                               const PointCounterOptions& options) {
  BridgeOptions bridge;
  bridge.device = options.device;
  const bool original = counterNeedOf(point.run_point.mode) == CounterNeed::full_table;
  // Only the original's bridged time is compared with its OpenCL time, so only its compile is matched
  // to OpenCL's (up to three JIT compiles); a mutant's counters come from one compile, made as its
  // original's was when the runner knows it, else whole-program.
  if (original && options.opencl_registers) bridge.opencl_registers = *options.opencl_registers;
  if (!original) bridge.jit_mode = options.original_jit_mode;
  bridge.metrics = selection.metrics;
  bridge.read_back = selection.read_back;
  if (!selection.timing) bridge.warmup_runs = 0;
  for (const ResolvedBuffer& b : point.buffers)
    if (b.writtenByLaunches()) bridge.written_buffers.push_back(b.spec->name);
  return bridge;
}

}  // namespace

void prefetchPointCounters(const std::string& ptx, const ResolvedPoint& point,
                           const std::vector<ResolvedLaunch>& launches, const PointCounterOptions& options) {
  try {
    const MetricSelection selection = selectMetrics(counterNeedOf(point.run_point.mode), options.extra_metrics);
    prefetchBridged(ptx, bridgeLaunches(everyRepetition(point, launches)), bridgeOptionsFor(point, selection, options));
  } catch (...) {
    // measurePointCounters says why.
  }
}

CounterSet measurePointCounters(const std::string& ptx, const ResolvedPoint& point,
                                const std::vector<ResolvedLaunch>& launches,
                                const std::map<std::string, HostBuffer>& inputs,
                                const std::map<std::string, HostBuffer>& opencl_outputs,
                                const std::optional<EventTimings>& opencl_timings, const PointCounterOptions& options) {
  std::vector<BridgeLaunch> bridged;
  try {
    bridged = bridgeLaunches(everyRepetition(point, launches));
  } catch (const std::invalid_argument& e) {
    return CounterSet::notAttempted(std::string("counters unavailable: ") + e.what());
  }
  // The bridged run starts from the same inputs as the OpenCL run; outputs start poisoned.
  std::map<std::string, HostBuffer> buffers = bridgeBuffers(point, inputs);
  const bool original = counterNeedOf(point.run_point.mode) == CounterNeed::full_table;
  const MetricSelection selection = selectMetrics(counterNeedOf(point.run_point.mode), options.extra_metrics);
  BridgeOptions bridge = bridgeOptionsFor(point, selection, options);
  bridge.read_only_inputs = &inputs;
  bridge.read_only_inputs_key = options.inputs_key;
  bridge.keep_profiler_enabled = options.keep_profiler_enabled;
  bridge.line_samples = options.line_samples;
  CounterSet out =
      measureBridged(ptx, buffers, bridged, selection.timing ? std::max(3, options.timing_repetitions) : 0, bridge);
  out.metric_set = selection.description;

  // Consistency checks: the bridged kernel must compute what the OpenCL one did, in about its time.
  if (out.buffers_read_back && original) {
    double worst = 0;
    std::size_t non_finite = 0;
    for (const auto& [name, opencl] : opencl_outputs) {
      const BufferComparison c = compareBuffers(buffers.at(name), opencl, 0.0);
      worst = std::max(worst, c.rel_l2_error);
      non_finite += c.non_finite;
    }
    out.bridged_vs_opencl =
        BridgeAgreement{std::isfinite(worst) ? std::optional<double>(worst) : std::nullopt, non_finite};
  }
  if (out.bridged_kernel_ns && opencl_timings && opencl_timings->kernel_ns.median > 0)
    out.bridged_to_opencl_time_ratio = static_cast<double>(*out.bridged_kernel_ns) / opencl_timings->kernel_ns.median;
  return out;
}

}  // namespace rooflab::counters
