#include "analyzer/run/end_to_end_runner.hpp"

#include <chrono>
#include <cstring>

#include "analyzer/run/end_to_end_buffers.hpp"
#include "analyzer/stats/stats.hpp"
#include "analyzer/support/aligned_bytes.hpp"
#include "analyzer/support/cl_error.hpp"
#include "analyzer/support/stop_flag.hpp"

namespace rooflab {
namespace {

using namespace end_to_end;
using Clock = std::chrono::steady_clock;

cl_mem_flags flagsOf(EndToEndStrategy strategy) {
  switch (strategy) {
    case EndToEndStrategy::alloc_host_ptr: return CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR;
    case EndToEndStrategy::use_host_ptr: return CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
    default: return CL_MEM_READ_WRITE;
  }
}

// One blocking strategy's buffers, kernels and host arrays. The application's arrays are the point's
// inputs and output arrays of this run; with use-host-ptr they are page-aligned arrays the buffers
// are made over (the application keeps its data there).
class BlockingRun {
 public:
  BlockingRun(EndToEndStrategy strategy, const PointLauncher& launcher, cl::CommandQueue& queue,
              const PreparedPoint& prepared, const std::map<std::string, HostBuffer>& inputs)
      : strategy_(strategy), queue_(queue), inputs_(inputs) {
    point_.resolved = prepared.resolved;
    point_.inputs = &inputs;
    point_.program = prepared.program;
    for (const ResolvedBuffer& b : prepared.resolved->buffers) makeBuffer(launcher.context(), b);
    std::vector<LaunchGeometry> geometry;
    launcher.setUpLaunches(point_, geometry);
  }

  // Resets outputs and starting contents, untimed, then runs once: uploads, kernels, downloads.
  EndToEndParts once(std::uint64_t& host_copy_bytes) {
    reset();
    std::vector<TimedCommand> commands;
    host_copy_bytes = 0;
    for (const ResolvedBuffer& b : point_.resolved->buffers)
      if (!b.scratch && goesUp(b.spec->crossing())) transfer(b, true, commands, host_copy_bytes);
    std::vector<cl::Event> kernels;
    enqueueLaunches(queue_, point_, kernels);
    queue_.finish();
    for (const cl::Event& event : kernels) commands.push_back(timed(event, CommandPart::kernel, 0));
    for (const ResolvedBuffer& b : point_.resolved->buffers)
      if (!b.scratch && comesDown(b.spec->crossing())) transfer(b, false, commands, host_copy_bytes);
    return partsOf(commands);
  }

  // The application's output arrays after the last run; outputs that do not come down read back
  // untimed (they are still checked).
  std::map<std::string, HostBuffer> outputs() {
    std::map<std::string, HostBuffer> out;
    for (const ResolvedBuffer& b : point_.resolved->buffers) {
      if (b.scratch || !b.spec->isOutput()) continue;
      HostBuffer host(b.spec->name, b.spec->type, static_cast<std::size_t>(b.count));
      if (!comesDown(b.spec->crossing()))
        queue_.enqueueReadBuffer(point_.buffers.at(b.spec->name), CL_TRUE, 0, b.bytes, host.bytes.data());
      else std::memcpy(host.bytes.data(), applicationArray(b, false), b.bytes);
      out.emplace(b.spec->name, std::move(host));
    }
    return out;
  }

  int launches() const { return static_cast<int>(point_.launchCount()); }

 private:
  void makeBuffer(const cl::Context& context, const ResolvedBuffer& b) {
    const std::string& name = b.spec->name;
    const bool crosses = !b.scratch && b.spec->crossing() != BufferLink::none;
    cl_mem_flags flags = crosses ? flagsOf(strategy_) : CL_MEM_READ_WRITE;
    void* host = nullptr;
    if (flags & CL_MEM_USE_HOST_PTR) {
      AlignedBytes& array = arrays_.emplace(name, AlignedBytes(b.bytes)).first->second;
      if (hasInput(*b.spec)) std::memcpy(array.data(), inputs_.at(name).bytes.data(), b.bytes);
      host = array.data();
    }
    point_.buffers.emplace(name, cl::Buffer(context, flags, b.bytes, host));
    if (!b.scratch && b.spec->isOutput()) {
      poisoned_.emplace(name, poisonedHost(b));
      if (!host) outputs_.emplace(name, poisonedHost(b));
    }
    // Inputs that do not cross are resident: uploaded once, untimed.
    if (!b.scratch && !crosses && b.spec->access == BufferAccess::read)
      queue_.enqueueWriteBuffer(point_.buffers.at(name), CL_TRUE, 0, b.bytes, inputs_.at(name).bytes.data());
  }

  // Where the application keeps buffer b: its input (for an upload) or output array.
  std::byte* applicationArray(const ResolvedBuffer& b, bool for_upload) {
    const std::string& name = b.spec->name;
    if (auto array = arrays_.find(name); array != arrays_.end()) return array->second.data();
    if (for_upload) return const_cast<std::byte*>(inputs_.at(name).bytes.data());
    return outputs_.at(name).bytes.data();
  }

  void reset() {
    for (const ResolvedBuffer& b : point_.resolved->buffers)
      if (b.scratch || b.spec->isOutput())
        poisonDevice(queue_, point_.buffers.at(b.spec->name), b.spec->type, 0, b.bytes);
    queue_.finish();
    for (const ResolvedBuffer& b : point_.resolved->buffers) {
      if (b.scratch || !b.spec->isOutput()) continue;
      const std::string& name = b.spec->name;
      const bool restore = hasInput(*b.spec);
      if (auto array = arrays_.find(name); array != arrays_.end())
        std::memcpy(array->second.data(), (restore ? inputs_.at(name) : poisoned_.at(name)).bytes.data(), b.bytes);
      else outputs_.at(name).bytes = poisoned_.at(name).bytes;
      if (restore && !goesUp(b.spec->crossing()))
        queue_.enqueueWriteBuffer(point_.buffers.at(name), CL_TRUE, 0, b.bytes, inputs_.at(name).bytes.data());
    }
    queue_.finish();
  }

  // Buffer b between the device and the application's array, blocking: a copy, or a map (invalidating
  // for an upload, for reading for a download), the host's copy to or from the mapped pointer when it
  // is not the array itself, and the unmap.
  void transfer(const ResolvedBuffer& b, bool up, std::vector<TimedCommand>& commands, std::uint64_t& host_copy_bytes) {
    cl::Buffer& buffer = point_.buffers.at(b.spec->name);
    std::byte* array = applicationArray(b, up);
    const CommandPart part = up ? CommandPart::upload : CommandPart::download;
    cl::Event event;
    if (strategy_ == EndToEndStrategy::copy) {
      if (up) queue_.enqueueWriteBuffer(buffer, CL_TRUE, 0, b.bytes, array, nullptr, &event);
      else queue_.enqueueReadBuffer(buffer, CL_TRUE, 0, b.bytes, array, nullptr, &event);
      commands.push_back(timed(event, part, 0));
      return;
    }
    void* mapped = queue_.enqueueMapBuffer(buffer, CL_TRUE, up ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, 0,
                                           b.bytes, nullptr, &event);
    if (mapped != array) {
      if (up) std::memcpy(mapped, array, b.bytes);
      else std::memcpy(array, mapped, b.bytes);
      host_copy_bytes += b.bytes;
    }
    cl::Event unmapped;
    queue_.enqueueUnmapMemObject(buffer, mapped, nullptr, &unmapped);
    unmapped.wait();
    commands.push_back(timed(event, part, 0));
    commands.push_back(timed(unmapped, part, 0));
  }

  EndToEndStrategy strategy_;
  cl::CommandQueue& queue_;
  const std::map<std::string, HostBuffer>& inputs_;
  PreparedPoint point_;
  std::map<std::string, AlignedBytes> arrays_;
  std::map<std::string, HostBuffer> outputs_;
  std::map<std::string, HostBuffer> poisoned_;
};

double medianOf(const std::vector<EndToEndParts>& runs, double EndToEndParts::*part) {
  std::vector<double> values;
  for (const EndToEndParts& parts : runs) values.push_back(parts.*part);
  return summarize(values).median;
}

}  // namespace

EndToEndRunner::EndToEndRunner(const PointLauncher& launcher, const RunSettings& settings)
    : launcher_(launcher), settings_(settings) {
  for (cl::CommandQueue& queue : queues_)
    queue = cl::CommandQueue(launcher.context(), launcher.device().device, CL_QUEUE_PROFILING_ENABLE);
}

void EndToEndRunner::repeat(EndToEndRun& run, const std::function<EndToEndParts()>& once,
                            const RepetitionProgress& progress) {
  run.warmup = settings_.warmup;
  for (int i = 0; i < settings_.warmup; ++i) {
    if (progress) progress("end-to-end", i, settings_.warmup);
    once();
  }
  const NoiseTarget target = pointNoiseTarget(settings_);
  std::vector<double> totals;
  StopCheck check;
  const Clock::time_point started = Clock::now();
  while (check.decision == StopDecision::keep_going) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    if (!totals.empty() && (stopFlag() || elapsed > settings_.variant_time_limit_s)) break;
    if (progress)
      progress("end-to-end", static_cast<int>(totals.size()),
               std::max<int>(settings_.repetitions, int(totals.size()) + 1));
    run.repetitions.push_back(once());
    totals.push_back(run.repetitions.back().total_ns);
    check = checkStop(totals, std::chrono::duration<double>(Clock::now() - started).count(), target);
  }
  for (double EndToEndParts::*part : {&EndToEndParts::upload_ns, &EndToEndParts::launch_ns, &EndToEndParts::kernel_ns,
                                      &EndToEndParts::download_ns, &EndToEndParts::gaps_ns, &EndToEndParts::total_ns})
    run.median.*part = medianOf(run.repetitions, part);
  run.total_noise = medianNoise(medianInterval(totals, target.confidence));
  run.converged = check.decision == StopDecision::converged;
}

EndToEndRun EndToEndRunner::runBlocking(EndToEndStrategy strategy, const PreparedPoint& prepared, const Buffers& inputs,
                                        const OutputCheck& check, const RepetitionProgress& progress) {
  EndToEndRun run;
  run.strategy = strategy;
  countCrossings(*prepared.resolved, run);
  BlockingRun blocking(strategy, launcher_, queues_[0], prepared, inputs);
  run.launches = blocking.launches();
  repeat(
      run, [&] { return blocking.once(run.host_copy_bytes); }, progress);
  run.verification = check(blocking.outputs());
  return run;
}

EndToEndResult EndToEndRunner::run(const PreparedPoint& prepared, const Buffers& inputs, const OutputCheck& check,
                                   const RepetitionProgress& progress) {
  EndToEndResult result;
  const EndToEndRequest& request = *prepared.resolved->end_to_end;
  const std::string device = launcher_.device().info.name;
  auto guarded = [&](EndToEndRun failed, auto&& body) {
    try {
      result.runs.push_back(body());
      return;
    } catch (const cl::Error& e) {
      failed.error = describeClError(e, {"", device});
    } catch (const std::exception& e) {
      failed.error = e.what();
    }
    for (cl::CommandQueue& queue : queues_) try {
        queue.finish();
      } catch (const cl::Error&) {
      }
    result.runs.push_back(std::move(failed));
  };
  for (EndToEndStrategy strategy : request.strategies) {
    EndToEndRun failed;
    failed.strategy = strategy;
    if (strategy != EndToEndStrategy::overlap) {
      guarded(failed, [&] { return runBlocking(strategy, prepared, inputs, check, progress); });
      continue;
    }
    for (const std::vector<ResolvedChunk>& split : request.splits) {
      failed.chunks = static_cast<int>(split.size());
      failed.queues = split.size() > 1 ? 2 : 1;
      guarded(failed, [&] { return runOverlapped(split, prepared, inputs, check, progress); });
    }
  }
  return result;
}

}  // namespace rooflab
