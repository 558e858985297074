#include "analyzer/run/launch_timing.hpp"

#include <algorithm>
#include <thread>

#include "analyzer/support/cl_error.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/stats/stopping_rule.hpp"
#include "mutators/mutant_key.hpp"

namespace rooflab {
namespace {

// Sets the launch's arguments on `kernel`; returns the bytes of its __local arguments.
std::size_t setArguments(cl::Kernel& kernel, const ResolvedLaunch& launch, const LaunchSpec& spec,
                         const std::map<std::string, cl::Buffer>& buffers, const std::string& where) {
  std::size_t local_arg_bytes = 0;
  for (std::size_t i = 0; i < launch.args.size(); ++i) {
    const ResolvedArg& arg = launch.args[i];
    const auto index = static_cast<cl_uint>(i);
    try {
      switch (arg.kind) {
        case KernelArgSpec::Kind::buffer: kernel.setArg(index, buffers.at(arg.buffer)); break;
        case KernelArgSpec::Kind::local_bytes:
          local_arg_bytes += arg.local_bytes;
          kernel.setArg(index, cl::Local(arg.local_bytes));
          break;
        case KernelArgSpec::Kind::scalar: kernel.setArg(index, arg.scalar_bytes.size(), arg.scalar_bytes.data()); break;
      }
    } catch (const cl::Error& e) {
      throw VariantError(where + ": argument " + std::to_string(i) + " ('" + spec.args[i].text +
                         "'): " + describeClError(e) + " (does the kernel parameter's type match?)");
    }
  }
  return local_arg_bytes;
}

// A compute-only mutant's key (mutators/mutant_key.hpp), as a scalar argument.
ResolvedArg mutantKeyArgument() {
  ResolvedArg key;
  key.kind = KernelArgSpec::Kind::scalar;
  key.scalar_value = kMutantKeyValue;
  const cl_uint value = kMutantKeyValue;
  const auto* bytes = reinterpret_cast<const std::byte*>(&value);
  key.scalar_bytes.assign(bytes, bytes + sizeof value);
  return key;
}

// Queue and event times are relative to the first timed repetition's queued time.
void summarizeTimings(EventTimings& timings) {
  const std::int64_t origin = timings.repetitions.front().queued_ns;
  std::vector<double> kernel_ns, overhead_ns;
  for (auto& rep : timings.repetitions) {
    rep.queued_ns -= origin;
    rep.submit_ns -= origin;
    rep.start_ns -= origin;
    rep.end_ns -= origin;
    kernel_ns.push_back(static_cast<double>(rep.kernel_ns));
    overhead_ns.push_back(static_cast<double>(rep.launch_overhead_ns));
  }
  timings.kernel_ns = summarize(kernel_ns);
  timings.launch_overhead_ns = summarize(overhead_ns);
}

}  // namespace

cl::NDRange toNDRange(const std::vector<std::int64_t>& dims) {
  switch (dims.size()) {
    case 1: return cl::NDRange(dims[0]);
    case 2: return cl::NDRange(dims[0], dims[1]);
    case 3: return cl::NDRange(dims[0], dims[1], dims[2]);
    default: return cl::NullRange;
  }
}

// The run's noise target for one point. Very short kernels would reach the time budget only after
// thousands of repetitions, every one of which the results keep: kMaxRepetitions caps them.
constexpr std::size_t kMaxRepetitions = 1000;

NoiseTarget pointNoiseTarget(const RunSettings& settings) {
  NoiseTarget target;
  target.min_repetitions = static_cast<std::size_t>(std::max(1, settings.repetitions));
  target.max_repetitions = std::max(kMaxRepetitions, target.min_repetitions);
  target.max_noise = settings.max_noise;
  target.min_time_s = settings.min_time_s;
  target.max_time_s = settings.max_time_s;
  return target;
}

PointLauncher::PointLauncher(const SelectedDevice& device) : device_(device) {
  try {
    context_ = cl::Context(device_.device);
    queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw DeviceError("cannot open " + device_.info.name + ": " + describeClError(e));
  }
}

void PointLauncher::checkBuffersFit(const ResolvedPoint& point) const {
  const DeviceInfo& dev = device_.info;
  for (const ResolvedBuffer& b : point.buffers)
    if (b.count > dev.max_alloc_bytes / b.spec->type.bytes())
      throw VariantError("buffer '" + b.spec->name + "' needs " +
                         formatNumber(double(b.count) * double(b.spec->type.bytes())) + " bytes; " + dev.name +
                         " allows at most " + std::to_string(dev.max_alloc_bytes) + " per allocation");
}

void PointLauncher::createBuffers(PreparedPoint& prepared, const std::string& inputs_key) {
  if (inputs_key != kept_inputs_key_) {
    kept_inputs_.clear();  // freed before the new point's buffers are allocated
    kept_inputs_key_ = inputs_key;
  }
  for (const ResolvedBuffer& b : prepared.resolved->buffers) {
    const BufferSpec& spec = *b.spec;
    const bool read_only = spec.access == BufferAccess::read;
    if (read_only) {
      const auto kept = kept_inputs_.find(spec.name);
      if (kept != kept_inputs_.end() && kept->second.getInfo<CL_MEM_SIZE>() == b.bytes) {
        prepared.buffers.emplace(spec.name, kept->second);
        continue;
      }
    }
    const cl_mem_flags flags = read_only ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    try {
      prepared.buffers.emplace(spec.name, cl::Buffer(context_, flags, b.bytes));
    } catch (const cl::Error& e) {
      throw VariantError("allocating buffer '" + spec.name + "' (" + std::to_string(b.bytes) +
                         " bytes): " + describeClError(e));
    }
    if (read_only) {
      const HostBuffer& host = prepared.inputs->at(spec.name);
      queue_.enqueueWriteBuffer(prepared.buffers.at(spec.name), CL_TRUE, 0, host.sizeBytes(), host.bytes.data());
      kept_inputs_[spec.name] = prepared.buffers.at(spec.name);
    }
  }
}

void PointLauncher::setUpLaunches(PreparedPoint& prepared, std::vector<LaunchGeometry>& geometry,
                                  const std::vector<std::size_t>& pad_bytes) const {
  const ResolvedPoint& point = *prepared.resolved;
  const DeviceInfo& dev = device_.info;
  prepared.kernels.clear();
  prepared.launches.clear();
  prepared.repetitions.clear();
  geometry.clear();
  for (std::size_t index = 0; index < point.launches.size(); ++index) {
    const std::size_t pad = index < pad_bytes.size() ? pad_bytes[index] : 0;
    ResolvedLaunch launch = point.launches[index];
    const LaunchSpec& spec = point.run_point.variant->launches[index];
    const std::string where = "launch " + std::to_string(index) + " (" + spec.kernel + ")";

    cl::Kernel kernel;
    try {
      kernel = cl::Kernel(prepared.program, spec.kernel.c_str());
    } catch (const cl::Error& e) {
      throw VariantError(where + ": creating the kernel: " + describeClError(e));
    }
    // Read before any argument is set: CL_KERNEL_LOCAL_MEM_SIZE counts the __local arguments set on
    // the kernel (clGetKernelWorkGroupInfo; an unset one counts 0), so read after them it would hold
    // them once, and adding them again would refuse launches that fit.
    const std::uint64_t declared_local = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_.device);
    // rooflab's own arguments follow the manifest's: a compute-only mutant's key, then the pad.
    const bool keyed = takesMutantKey(point.run_point.mode);
    const cl_uint declared = kernel.getInfo<CL_KERNEL_NUM_ARGS>() - (pad > 0 ? 1 : 0) - (keyed ? 1 : 0);
    if (declared != spec.args.size())
      throw VariantError(where + ": the kernel takes " + std::to_string(declared) +
                         " arguments but the manifest gives " + std::to_string(spec.args.size()));
    std::size_t local_arg_bytes = setArguments(kernel, launch, spec, prepared.buffers, where);
    if (keyed) {
      // Passed as every argument is, so that the PTX bridge launches the mutant with it too.
      launch.args.push_back(mutantKeyArgument());
      kernel.setArg(static_cast<cl_uint>(launch.args.size() - 1), launch.args.back().scalar_bytes.size(),
                    launch.args.back().scalar_bytes.data());
    }
    if (pad > 0) {
      ResolvedArg arg;
      arg.kind = KernelArgSpec::Kind::local_bytes;
      arg.local_bytes = pad;
      local_arg_bytes += pad;
      kernel.setArg(static_cast<cl_uint>(launch.args.size()), cl::Local(pad));
      launch.args.push_back(std::move(arg));
    }

    // CL_KERNEL_WORK_GROUP_SIZE is not checked here: NVIDIA reports 256 for kernels that launch
    // fine with 1024 work items (seen on an H100, driver 580). A launch that really exceeds the
    // kernel's limit fails with CL_INVALID_WORK_GROUP_SIZE, and runOnce() explains it. That global
    // sizes are multiples of local ones, resolvePoint checked.
    const std::vector<std::int64_t>& local = launch.geometry.local;
    for (std::size_t d = 0; d < local.size(); ++d)
      if (d < dev.max_work_item_sizes.size() && local[d] > static_cast<std::int64_t>(dev.max_work_item_sizes[d]))
        throw VariantError(where + ": local size " + std::to_string(local[d]) + " in dimension " + std::to_string(d) +
                           " exceeds the device's " + std::to_string(dev.max_work_item_sizes[d]));
    if (local_arg_bytes + declared_local > dev.local_mem_bytes)
      throw VariantError(where + ": needs " + std::to_string(local_arg_bytes + declared_local) +
                         " bytes of local memory (" + std::to_string(declared_local) + " declared in the kernel, " +
                         std::to_string(local_arg_bytes) + " in its local arguments); the device has " +
                         std::to_string(dev.local_mem_bytes));
    geometry.push_back(launch.geometry);
    prepared.kernels.push_back(kernel);
    prepared.launches.push_back(std::move(launch));
    auto repetitions = std::make_shared<const LaunchRepetitions>(point, index);
    prepared.repetitions.push_back(repetitions->changes() ? std::move(repetitions) : nullptr);
  }
}

// Every run starts from the same state: inputs as initialised, outputs and scratch poisoned, so an
// element the kernel did not write fails verification instead of passing on stale data.
void PointLauncher::resetBuffers(PreparedPoint& prepared) {
  for (const ResolvedBuffer& b : prepared.resolved->buffers) {
    const BufferSpec& spec = *b.spec;
    cl::Buffer& buffer = prepared.buffers.at(spec.name);
    if (spec.access == BufferAccess::read) continue;
    if (spec.access == BufferAccess::read_write && prepared.inputs->count(spec.name)) {
      const HostBuffer& host = prepared.inputs->at(spec.name);
      queue_.enqueueWriteBuffer(buffer, CL_FALSE, 0, host.sizeBytes(), host.bytes.data());
    } else if (spec.type.scalar == ScalarKind::f32) {
      queue_.enqueueFillBuffer<cl_uint>(buffer, 0x7fc00000u, 0, b.bytes);
    } else if (spec.type.scalar == ScalarKind::f64) {
      queue_.enqueueFillBuffer<cl_ulong>(buffer, 0x7ff8000000000000ull, 0, b.bytes);
    } else {
      queue_.enqueueFillBuffer<cl_uchar>(buffer, 0xA5, 0, b.bytes);
    }
  }
  // Wait for the resets so that a kernel's queued-to-start time is its launch overhead alone, not
  // the fill or upload queued before it.
  try {
    queue_.finish();
  } catch (const cl::Error& e) {
    throw VariantError("resetting buffers: " + describeClError(e));
  }
}

namespace {

// Waits until the driver reports `event` running, done or failed (a failure is thrown by the wait
// that follows). Polls: a callback on CL_RUNNING would run on a driver thread.
void awaitRunning(const cl::Event& event) {
  for (;;) {
    cl_int status = CL_COMPLETE;
    if (clGetEventInfo(event(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS ||
        status <= CL_RUNNING)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The drivers known to compile a kernel for the device when it is first launched.
bool compilesAtFirstLaunch(const DeviceInfo& device) {
  return device.platform.find("Portable Computing Language") != std::string::npos;
}

}  // namespace

std::uint64_t PreparedPoint::launchCount() const {
  std::uint64_t count = 0;
  for (const ResolvedLaunch& launch : launches) count += launch.repeat;
  return count;
}

void enqueueLaunches(const cl::CommandQueue& queue, PreparedPoint& prepared, std::vector<cl::Event>& events,
                     const cl::Device* device) {
  events.assign(static_cast<std::size_t>(prepared.launchCount()), cl::Event());
  std::size_t next = 0;
  for (std::size_t i = 0; i < prepared.kernels.size(); ++i) {
    const LaunchSpec& spec = prepared.resolved->run_point.variant->launches[i];
    const LaunchRepetitions* repetitions = i < prepared.repetitions.size() ? prepared.repetitions[i].get() : nullptr;
    for (std::uint64_t k = 0; k < prepared.launches[i].repeat; ++k) {
      const std::string where = "launch " + std::to_string(i) + " (" + spec.kernel + ")" +
                                (k > 0 ? " at " + spec.index + " = " + std::to_string(k) : "");
      // Repetition 0 is set up as prepared; a later one that differs sets its own arguments, and
      // the next run's first repetition sets them back.
      ResolvedLaunch changed;
      if (repetitions) {
        changed = repetitions->at(k);
        setArguments(prepared.kernels[i], changed, spec, prepared.buffers, where);
      }
      const LaunchGeometry& g = repetitions ? changed.geometry : prepared.launches[i].geometry;
      try {
        queue.enqueueNDRangeKernel(prepared.kernels[i], cl::NullRange, toNDRange(g.global),
                                   g.local.empty() ? cl::NullRange : toNDRange(g.local), nullptr, &events[next++]);
      } catch (const cl::Error& e) {
        std::string hint;
        if (device && e.err() == CL_INVALID_WORK_GROUP_SIZE && !g.local.empty()) {
          const std::size_t limit = prepared.kernels[i].getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(*device);
          hint = " (the driver allows at most " + std::to_string(limit) + " work items per group for this kernel)";
        }
        throw VariantError(where + ": " + describeClError(e) + hint);
      }
    }
  }
}

RepetitionTiming PointLauncher::runOnce(PreparedPoint& prepared, const std::function<void()>& on_started) {
  resetBuffers(prepared);
  std::vector<cl::Event> events;
  enqueueLaunches(queue_, prepared, events, &device_.device);
  try {
    if (on_started && !events.empty()) {
      queue_.flush();
      // PoCL compiles a kernel for the device at its first launch and reports it running only after;
      // NVIDIA's driver compiled it when the program was built, and reports a running kernel as
      // submitted until it ends, so its launch counts as started once it is sent.
      if (compilesAtFirstLaunch(device_.info)) awaitRunning(events.front());
      on_started();
    }
    queue_.finish();
  } catch (const cl::Error& e) {
    throw VariantError("waiting for the kernels: " + describeClError(e));
  }
  RepetitionTiming t;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto queued = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>());
    const auto submit = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>());
    const auto start = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_START>());
    const auto end = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_END>());
    if (i == 0) {
      t.queued_ns = queued;
      t.submit_ns = submit;
      t.start_ns = start;
      t.launch_overhead_ns = start - queued;
    }
    t.end_ns = end;
    t.kernel_ns += end - start;
  }
  t.span_ns = t.end_ns - t.start_ns;
  return t;
}

EventTimings PointLauncher::timeRepetitions(PreparedPoint& prepared, const RunSettings& settings,
                                            Clock::time_point started, const RepetitionProgress& progress,
                                            const std::function<void()>& after_each) {
  EventTimings timings;
  timings.warmup = settings.warmup;
  // The point's first launch tells its worker when the kernel starts running (see runOnce).
  bool first_launch = true;
  const std::function<void()> kernel_started = [&] {
    if (progress) progress("started", 0, 1);
  };
  for (int i = 0; i < settings.warmup; ++i) {
    if (progress) progress("warmup", i, settings.warmup);
    runOnce(prepared, first_launch ? kernel_started : std::function<void()>{});
    first_launch = false;
  }
  const NoiseTarget target = pointNoiseTarget(settings);
  std::vector<double> kernel_ns;
  StopCheck check;
  const Clock::time_point timed_from = Clock::now();
  double beside_s = 0;  // after_each's time, left out of the budget
  while (check.decision == StopDecision::keep_going) {
    const int index = static_cast<int>(kernel_ns.size());
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    if (index > 0 && (stopFlag() || elapsed > settings.variant_time_limit_s)) {
      timings.cut_short = true;
      break;
    }
    if (progress) progress("timed", index, std::max(settings.repetitions, index + 1));
    timings.repetitions.push_back(runOnce(prepared, first_launch ? kernel_started : std::function<void()>{}));
    first_launch = false;
    kernel_ns.push_back(static_cast<double>(timings.repetitions.back().kernel_ns));
    if (after_each) {
      const Clock::time_point beside_from = Clock::now();
      after_each();
      beside_s += std::chrono::duration<double>(Clock::now() - beside_from).count();
    }
    check = checkStop(kernel_ns, std::chrono::duration<double>(Clock::now() - timed_from).count() - beside_s, target);
  }
  summarizeTimings(timings);
  const MedianInterval interval = medianInterval(kernel_ns, target.confidence);
  KernelTimeInterval& known = timings.kernel_ns_interval.emplace();
  known.lower_ns = interval.lower;
  known.upper_ns = interval.upper;
  known.confidence = target.confidence;
  known.noise = medianNoise(interval);
  known.converged = check.decision == StopDecision::converged;
  return timings;
}

std::map<std::string, HostBuffer> PointLauncher::readOutputs(const PreparedPoint& prepared) {
  std::map<std::string, HostBuffer> outputs;
  for (const ResolvedBuffer& b : prepared.resolved->buffers) {
    if (b.scratch || !b.spec->isOutput()) continue;
    HostBuffer host(b.spec->name, b.spec->type, static_cast<std::size_t>(b.count));
    queue_.enqueueReadBuffer(prepared.buffers.at(b.spec->name), CL_TRUE, 0, host.sizeBytes(), host.bytes.data());
    outputs.emplace(b.spec->name, std::move(host));
  }
  return outputs;
}

void PointLauncher::drain() noexcept {
  try {
    queue_.finish();
  } catch (const cl::Error&) {
  }
}

}  // namespace rooflab
