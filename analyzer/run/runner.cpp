#include "analyzer/run/runner.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>

#include "analyzer/run/bridge_arguments.hpp"
#include "analyzer/run/end_to_end_runner.hpp"
#include "analyzer/support/cl_error.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/run/nvidia_build.hpp"
#include "analyzer/run/source_line_samples.hpp"
#include "analyzer/verify/references.hpp"
#include "analyzer/support/memory_limit.hpp"
#include "analyzer/verify/verification.hpp"
#include "mutators/occupancy_match.hpp"

namespace rooflab {
namespace {

using Clock = std::chrono::steady_clock;

// Each launch of the mutant in `prepared`, beside the same kernel of the original program. Both
// kernels' local memory is read from kernels with no argument set: CL_KERNEL_LOCAL_MEM_SIZE then
// holds what the kernel declares, without the launch's __local arguments (which it counts once they
// are set), so the two figures compare alike and the arguments are counted once, in dynamic_local_bytes.
std::vector<OccupancyLaunch> occupancyLaunches(const PreparedPoint& prepared, const cl::Program& original,
                                               const cl::Device& device) {
  std::vector<OccupancyLaunch> launches;
  for (std::size_t i = 0; i < prepared.launches.size(); ++i) {
    const LaunchGeometry& g = prepared.launches[i].geometry;
    OccupancyLaunch l;
    l.kernel = g.kernel;
    std::int64_t threads = 1;
    for (auto local : g.local) threads *= local;
    l.threads_per_group = g.local.empty() ? 0 : static_cast<std::size_t>(threads);
    for (const ResolvedArg& a : prepared.launches[i].args) l.dynamic_local_bytes += a.local_bytes;
    const cl::Kernel original_kernel(original, g.kernel.c_str());
    l.original_local_bytes = original_kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
    l.original_private_bytes = original_kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device);
    const cl::Kernel mutant_kernel(prepared.program, g.kernel.c_str());
    l.mutant_local_bytes = mutant_kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
    l.mutant_private_bytes = prepared.kernels[i].getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device);
    launches.push_back(std::move(l));
  }
  return launches;
}

// Compares the outputs a reference judges: every one, or with reference = "outputs" those with an
// `expect` file (a captured application's other outputs have no recorded contents), where a NaN or
// inf the application computed is right when the replay computes the same. Copies only then.
void compareJudged(const std::map<std::string, HostBuffer>& outputs, const std::map<std::string, HostBuffer>& expected,
                   const ReferenceSpec& reference, VerificationResult& v) {
  if (reference.kind != ReferenceSpec::Kind::outputs) return compareOutputs(outputs, expected, v);
  std::map<std::string, HostBuffer> judged, judged_expected;
  for (const auto& [name, buffer] : outputs) {
    if (!expected.count(name)) continue;
    HostBuffer& out = judged.emplace(name, buffer).first->second;
    matchNonFiniteExpected(out, judged_expected.emplace(name, expected.at(name)).first->second);
  }
  compareOutputs(judged, judged_expected, v);
}

}  // namespace

VariantRunner::VariantRunner(const SelectedDevice& device, const RunSettings& settings)
    : settings_(settings), launcher_(device), programs_(launcher_.context(), device, settings) {}

VariantRunner::~VariantRunner() = default;

std::string VariantRunner::contextProblem() const {
  try {
    const cl::CommandQueue probe(launcher_.context(), launcher_.device().device);
    const std::uint32_t value = 0;
    cl::Buffer buffer(launcher_.context(), CL_MEM_READ_WRITE, sizeof value);
    probe.enqueueWriteBuffer(buffer, CL_TRUE, 0, sizeof value, &value);
    probe.finish();
    return "";
  } catch (const cl::Error& e) {
    return describeClError(e);
  }
}

const std::map<std::string, HostBuffer>& VariantRunner::hostInputs(const ResolvedPoint& point) {
  const std::string key = point.inputsKey();
  if (key == inputs_key_) {
    startDataAhead();
    return inputs_;
  }
  inputs_.clear();
  references_.clear();
  inputs_key_.clear();
  if (std::optional<PointData> made = ahead_.take(key)) {
    inputs_ = std::move(made->inputs);
    references_ = std::move(made->references);
  } else {
    inputs_ = makeHostInputs(point, settings_.seed);
  }
  inputs_key_ = key;
  startDataAhead();
  return inputs_;
}

// Only once the background builds are over: beside them, on the H100's 16 cores, the next sets'
// references (n-body's 87 core-seconds) delayed the builds the first records wait for, and the
// default took 71 s instead of 57 s.
void VariantRunner::startDataAhead() {
  if (!inputs_key_.empty() && programs_.backgroundIdle()) ahead_.startAfter(inputs_key_);
}

void VariantRunner::prepareDataAhead(const std::vector<const PlannedPoint*>& points, std::optional<bool> enabled) {
  // On a CPU device the host's cores run the kernels: a reference beside them would be timed too.
  bool on = enabled.value_or(device().type != "CPU");
  std::vector<const ResolvedPoint*> order;
  for (const PlannedPoint* p : points) {
    if (!p->resolved) continue;
    // End-to-end runs time the host's copies: nothing beside them.
    if (p->resolved->end_to_end && !enabled) on = false;
    order.push_back(&*p->resolved);
  }
  if (!on) return;
  ahead_ = DataAhead(std::move(order), settings_.seed);
}

// A mutant must keep its original's parallelism: the policy (mutators/occupancy_match)
// decides the pads; here the original is built, the driver asked, and the padded mutant rebuilt.
OccupancyMatch VariantRunner::padForOccupancy(PreparedPoint& prepared, RunRecord& record) {
  const RunPoint& point = prepared.resolved->run_point;
  const DeviceInfo& dev = device();
  RunPoint original_point = point;
  original_point.mode = RunMode::normal;
  RunRecord scratch;  // the original's build must not overwrite the mutant's build record
  const cl::Program original = timedBuild(record, [&] {
    return programs_.build(original_point, programs_.options(*prepared.resolved, RunMode::normal), scratch);
  });
  const std::vector<OccupancyLaunch> launches = occupancyLaunches(prepared, original, launcher_.device().device);

  OccupancyOracle original_oracle, mutant_oracle;
  if (nvidia::occupancyThroughBridge(dev)) {
    original_oracle = [&](const std::vector<counters::OccupancyQuery>& queries) {
      std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(original()));
      for (const auto& q : queries)
        key += "|" + q.kernel + ":" + std::to_string(q.threads_per_block) + ":" + std::to_string(q.dynamic_local_bytes);
      auto it = original_occupancy_.find(key);
      if (it == original_occupancy_.end())
        it = original_occupancy_
                 .emplace(key, counters::bridgedOccupancy(nvidia::programPtx(original), queries,
                                                          {dev.name, dev.pci_location}))
                 .first;
      return it->second;
    };
    // Reads prepared.program when called: the mutant, then the padded mutant.
    mutant_oracle = [&](const std::vector<counters::OccupancyQuery>& queries) {
      return counters::bridgedOccupancy(nvidia::programPtx(prepared.program), queries, {dev.name, dev.pci_location});
    };
  }
  OccupancyPadPlan plan = matchOccupancy(launches, dev.local_mem_bytes, original_oracle, mutant_oracle);
  if (plan.padded()) {
    prepared.program = timedBuild(
        record, [&] { return programs_.build(*prepared.resolved, record.build_options, record, plan.pad_kernels); });
    launcher_.setUpLaunches(prepared, record.geometry, plan.pad_bytes);
    confirmPaddedOccupancy(plan, launches, mutant_oracle);
  }
  return plan.match;
}

std::unique_ptr<PreparedPoint> VariantRunner::prepare(const ResolvedPoint& point, RunRecord& record,
                                                      const RepetitionProgress& progress) {
  auto prepared = std::make_unique<PreparedPoint>();
  prepared->resolved = &point;
  record.build_options = programs_.options(point, point.run_point.mode);
  launcher_.checkBuffersFit(point);
  prepared->program = timedBuild(record, [&] { return programs_.build(point, record.build_options, record); });
  // Large inputs take seconds to generate and upload: a limit running out now is not the compiler's.
  if (progress) progress("inputs", 0, 1);
  prepared->inputs = &hostInputs(point);
  launcher_.createBuffers(*prepared, inputs_key_);  // hostInputs just made it the point's
  launcher_.setUpLaunches(*prepared, record.geometry);
  if (isMutantMode(point.run_point.mode)) record.occupancy_padding = padForOccupancy(*prepared, record);
  return prepared;
}

const std::map<std::string, HostBuffer>& VariantRunner::referenceOutputs(const ResolvedPoint& point) {
  const ReferenceSpec& reference = point.run_point.family->reference;
  // The same inputs, but a reference may read any param: one per reference and params.
  const auto& inputs = hostInputs(point);
  const std::string key = referenceKey(point);
  if (auto it = references_.find(key); it != references_.end()) return it->second;
  Buffers outputs;
  if (reference.kind == ReferenceSpec::Kind::outputs) {
    for (const ResolvedBuffer& b : point.buffers) {
      if (!b.spec->expect_file) continue;
      HostBuffer expected(b.spec->name, b.spec->type, static_cast<std::size_t>(b.count));
      try {
        readBufferFile(expected, b.spec->expect_file->path.string());
      } catch (const std::runtime_error& e) {
        throw VariantError(b.spec->expect_file->key + ": " + e.what());
      }
      outputs.emplace(b.spec->name, std::move(expected));
    }
  } else if (reference.kind == ReferenceSpec::Kind::cpu) {
    outputs = cpuReferenceOutputs(point, inputs);
  } else {
    if (!point.reference_point) throw VariantError(point.reference_error);
    RunRecord scratch_record;
    try {
      auto prepared = prepare(*point.reference_point, scratch_record);
      launcher_.runOnce(*prepared);
      outputs = launcher_.readOutputs(*prepared);
    } catch (const std::exception& e) {
      throw VariantError("reference variant '" + reference.name + "' failed: " + e.what());
    }
  }
  return references_.emplace(key, std::move(outputs)).first->second;
}

void VariantRunner::verify(const ResolvedPoint& point, const Buffers& outputs, RunRecord& record) {
  VerificationResult& v = record.verification;
  const ReferenceSpec& reference = point.run_point.family->reference;
  v.reference = reference.text();
  v.tolerance = point.tolerance;
  if (point.run_point.mode != RunMode::normal) {
    v.status = VerificationStatus::skipped;
    v.detail = point.run_point.mode == RunMode::what_if
                   ? "a what-if mutation is deliberately incorrect: its outputs are not results"
                   : "a mutant's outputs are not results";
    return;
  }
  if (reference.kind == ReferenceSpec::Kind::none) {
    v.status = VerificationStatus::not_checked;
    v.detail = "the family declares no reference";
    return;
  }
  if (reference.isVariant(point.run_point.variant->name)) {
    checkReferenceOutputs(outputs, v);
    return;
  }
  try {
    compareJudged(outputs, referenceOutputs(point), reference, v);
    noteNondeterminism(point.run_point.variant->uses_atomics, v);
  } catch (const std::exception& e) {
    v.status = VerificationStatus::not_checked;
    v.detail = e.what();
  }
}

VariantRunner::CounterPlan VariantRunner::counterPlan(const PreparedPoint& prepared, const RunRecord& record) {
  CounterPlan plan;
  if (settings_.counters == CountersSetting::off) {
    plan.not_attempted = "counters are off (--no-counters or [run] counters = \"off\")";
    return plan;
  }
  const std::string why = counters::countersUnavailableReason(device());
  if (!why.empty()) {
    plan.not_attempted = "counters unavailable: " + why;
    return plan;
  }
  try {
    plan.ptx = nvidia::programPtx(prepared.program);
  } catch (const cl::Error& e) {
    plan.not_attempted = "counters unavailable: reading the program binary: " + describeClError(e);
    return plan;
  }
  if (plan.ptx.empty()) {
    plan.not_attempted = "counters unavailable: the OpenCL driver returned no PTX";
    return plan;
  }
  plan.options.device = {device().name, device().pci_location};
  plan.options.timing_repetitions = settings_.repetitions;
  plan.options.opencl_registers = programs_.openclRegisters(plan.ptx);
  plan.options.extra_metrics = settings_.environment.extra_metrics;
  plan.options.inputs_key = inputs_key_;  // the point's, since its prepare
  plan.options.keep_profiler_enabled = settings_.environment.keep_profiler_enabled;
  const std::string group = record.family + "/" + record.variant + " " + paramsLabel(record.params, record.param_order);
  if (isMutantMode(record.mode))
    if (const auto it = original_jit_modes_.find(group); it != original_jit_modes_.end())
      plan.options.original_jit_mode = it->second;
  return plan;
}

counters::CounterSet VariantRunner::measureCounters(const PreparedPoint& prepared, const Buffers& opencl_outputs,
                                                    const RunRecord& record, counters::PcSampling* line_samples) {
  CounterPlan plan = counterPlan(prepared, record);
  if (!plan.not_attempted.empty()) return counters::CounterSet::notAttempted(plan.not_attempted);
  plan.options.line_samples = line_samples;
  counters::CounterSet measured = counters::measurePointCounters(
      plan.ptx, *prepared.resolved, prepared.launches, *prepared.inputs, opencl_outputs, record.timings, plan.options);
  if (record.mode == RunMode::normal && !measured.jit_mode.empty())
    original_jit_modes_[record.family + "/" + record.variant + " " + paramsLabel(record.params, record.param_order)] =
        measured.jit_mode;
  return measured;
}

void VariantRunner::measure(const ResolvedPoint& point, RunRecord& record, Clock::time_point started,
                            const RepetitionProgress& progress) {
  auto phase_started = Clock::now();
  // A phase's wall time, less the builds it waited for: those are the "build" phase (timedBuild).
  double builds_before = 0;
  auto endPhase = [&](const char* phase) {
    const auto now = Clock::now();
    const double builds = record.phase_seconds.count("build") ? record.phase_seconds.at("build") : 0;
    record.phase_seconds[phase] +=
        std::chrono::duration<double>(now - phase_started).count() - (builds - builds_before);
    builds_before = builds;
    phase_started = now;
  };
  // The batch's time limit restarts with each phase it hears of: a long compile is named as one, not
  // taken for a hanging kernel.
  if (progress) progress("build", 0, 1);
  std::unique_ptr<PreparedPoint> prepared = prepare(point, record, progress);
  // The bridge's JIT compiles (host work) start now, to run beside the OpenCL runs (device work).
  if (const CounterPlan plan = counterPlan(*prepared, record); plan.not_attempted.empty())
    counters::prefetchPointCounters(plan.ptx, point, prepared->launches, plan.options);
  endPhase("prepare");
  // The control kernel right after each timed run: its time is the "drift_control" phase's.
  DriftControlSample control;
  bool control_failed = false;
  double control_seconds = 0;
  // Beside the first `repetitions` timed runs only: a point the noise target repeats a hundred times
  // needs no hundred controls.
  // The warm-up launches apart from the timed ones: a driver that compiles a program at its first
  // launch (NVIDIA's JIT to the device's code) spends seconds there, not in the repetitions.
  std::optional<Clock::time_point> timed_from;
  const RepetitionProgress timed_progress = [&](const char* phase, int index, int count) {
    if (!timed_from && std::strcmp(phase, "timed") == 0) timed_from = Clock::now();
    if (progress) progress(phase, index, count);
  };
  const Clock::time_point warmup_from = phase_started;
  record.timings = launcher_.timeRepetitions(*prepared, settings_, started, timed_progress, [&] {
    // Below 4 repetitions a side, diff's test can never be significant: no control is worth its time.
    if (settings_.repetitions < 4 || control.repetitions_ns.size() >= static_cast<std::size_t>(settings_.repetitions))
      return;
    const auto control_started = Clock::now();
    if (const std::optional<double> ns = control_failed ? std::nullopt : timeDriftControl())
      control.repetitions_ns.push_back(*ns);
    else control_failed = true;
    control_seconds += std::chrono::duration<double>(Clock::now() - control_started).count();
  });
  endPhase("run");
  record.phase_seconds["run"] -= control_seconds;
  record.phase_seconds["drift_control"] = control_seconds;
  if (timed_from) {
    const double warmup_seconds = std::chrono::duration<double>(*timed_from - warmup_from).count();
    record.phase_seconds["run"] = std::max(0.0, record.phase_seconds["run"] - warmup_seconds);
    record.phase_seconds["warmup"] = warmup_seconds;
  }
  if (!control_failed && !control.repetitions_ns.empty()) {
    control.median_ns = summarize(control.repetitions_ns).median;
    record.drift_control = std::move(control);
  }
  // A mutant's outputs are no results: nothing compares them, so they stay on the device (the
  // default's vecadd mutants spent 0.2-0.4 s each reading 235 MB back for nothing).
  const bool outputs_needed = !isMutantMode(point.run_point.mode) || point.end_to_end;
  Buffers outputs = outputs_needed ? launcher_.readOutputs(*prepared) : Buffers{};
  if (progress) progress("verify", 0, 1);
  verify(point, outputs, record);
  endPhase("verify");
  if (progress) progress("counters", 0, 1);
  const bool sampled = linesSampled(settings_.line_sampling, record.mode);
  counters::PcSampling line_samples;
  record.counters = measureCounters(*prepared, outputs, record, sampled ? &line_samples : nullptr);
  endPhase("counters");
  sourceView(*point.run_point.variant, prepared->program, sampled ? &line_samples : nullptr, record);
  if (point.end_to_end) {
    if (progress) progress("end-to-end", 0, 1);
    record.end_to_end = runEndToEnd(*prepared, outputs, progress);
    endPhase("end-to-end");
  }
  // Device buffers, host copies and kernels go now, timed: freeing hundreds of megabytes is not free.
  prepared.reset();
  outputs.clear();
  endPhase("release");
}

void VariantRunner::sourceView(const VariantSpec& variant, const cl::Program& program,
                               const counters::PcSampling* sampled, RunRecord& record) const {
  if (record.mode == RunMode::normal) record.source_files = variantSourceFiles(variant);
  if (!sampled) return;
  const counters::PcSampling& line_samples = *sampled;
  if (record.counters.not_attempted) {
    record.line_sampling = lineSamplingUnavailable(
        "per-line sampling needs an NVIDIA GPU with counters on (the PTX bridge and CUPTI); here: " +
        record.counters.reason);
    return;
  }
  if (!line_samples.available && line_samples.reason.empty()) {
    record.line_sampling = lineSamplingUnavailable("not sampled: the bridge stopped first: " + record.counters.reason);
    return;
  }
  std::string program_text;
  try {
    program_text = program.getInfo<CL_PROGRAM_SOURCE>();
  } catch (const cl::Error&) {
  }
  // A mutant's samples land on the original's files: those are what the user reads.
  record.line_sampling = lineSamplingFrom(
      line_samples, record.source_files.empty() ? variantSourceFiles(variant) : record.source_files, program_text);
  // The sampling pass ran inside the counters phase: the phase table shows it apart.
  record.phase_seconds["counters"] = std::max(0.0, record.phase_seconds["counters"] - line_samples.seconds);
  record.phase_seconds["line_sampling"] = line_samples.seconds;
}

EndToEndResult VariantRunner::runEndToEnd(const PreparedPoint& prepared, const Buffers& kernel_outputs,
                                          const RepetitionProgress& progress) {
  const ResolvedPoint& point = *prepared.resolved;
  const ReferenceSpec& reference = point.run_point.family->reference;
  // Each run's host arrays are judged as the kernel run is: against the reference's outputs, or,
  // where the variant is the reference or the family has none, against the kernel run's own outputs.
  const OutputCheck check = [&](const Buffers& outputs) {
    VerificationResult v;
    v.tolerance = point.tolerance;
    try {
      if (reference.kind == ReferenceSpec::Kind::none || reference.isVariant(point.run_point.variant->name)) {
        v.reference = "the kernel run's own outputs";
        compareOutputs(outputs, kernel_outputs, v);
      } else {
        v.reference = reference.text();
        compareJudged(outputs, referenceOutputs(point), reference, v);
      }
      noteNondeterminism(point.run_point.variant->uses_atomics, v);
    } catch (const std::exception& e) {
      v.status = VerificationStatus::not_checked;
      v.detail = e.what();
    }
    return v;
  };
  return EndToEndRunner(launcher_, settings_).run(prepared, *prepared.inputs, check, progress);
}

cl::Program VariantRunner::timedBuild(RunRecord& record, const std::function<cl::Program()>& build) {
  const auto started = Clock::now();
  cl::Program program = build();
  record.phase_seconds["build"] += std::chrono::duration<double>(Clock::now() - started).count();
  return program;
}

std::optional<double> VariantRunner::timeDriftControl() {
  if (!drift_control_ && !drift_control_failed_) {
    try {
      drift_control_ = std::make_unique<DriftControl>(launcher_.context(), launcher_.device().device, device());
    } catch (const cl::Error&) {
      drift_control_failed_ = true;  // the records then have no control; diff says their drift is unknown
    }
  }
  return drift_control_ ? drift_control_->timeOnce() : std::nullopt;
}

void VariantRunner::launchOnce(const ResolvedPoint& point) {
  RunRecord record = recordFor(point.run_point);
  std::unique_ptr<PreparedPoint> prepared = prepare(point, record);
  launcher_.runOnce(*prepared);
}

RunRecord VariantRunner::run(const PlannedPoint& planned, const RepetitionProgress& progress) {
  RunRecord record = recordFor(planned.run_point);
  const auto started = Clock::now();
  try {
    if (!planned.resolved) throw VariantError(planned.resolve_error);
    const ResolvedPoint& point = *planned.resolved;
    record.work = point.work.recorded();
    if (isMutantMode(point.run_point.mode))
      record.mutant_origin = point.run_point.variant->annotated ? MutantOrigin::annotated : MutantOrigin::automatic;
    measure(point, record, started, progress);
  } catch (const MutantUnavailable& e) {
    // No fault: the kernel runs in normal mode only, and the verdict says why it has none.
    record.status = RecordStatus::skipped;
    record.status_reason = e.what();
    record.verification.status = VerificationStatus::skipped;
    return record;
  } catch (const cl::Error& e) {
    record.status = RecordStatus::error;
    record.status_reason = record.label() + " on " + device().name + ": " + describeClError(e);
  } catch (const std::bad_alloc&) {
    record.status = RecordStatus::error;
    record.status_reason = record.label() + " on " + device().name + ": the host ran out of memory (std::bad_alloc)" +
                           addressSpaceLimitNote();
  } catch (const std::exception& e) {
    record.status = RecordStatus::error;
    record.status_reason = record.label() + " on " + device().name + ": " + e.what();
  }
  // A failed launch can leave commands queued; drain so the next variant starts clean.
  if (record.status == RecordStatus::error) launcher_.drain();
  return record;
}

}  // namespace rooflab
