#include "analyzer/run/program_builds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "analyzer/support/cl_error.hpp"

namespace rooflab {

ProgramBuild buildProgramNow(const cl::Context& context, const cl::Device& device, const std::string& source,
                             const std::string& options) {
  ProgramBuild built;
  const auto start = std::chrono::steady_clock::now();
  try {
    built.program = cl::Program(context, source);
    built.program.build({device}, options.c_str());
    built.ok = true;
  } catch (const cl::BuildError& e) {
    for (const auto& [dev, text] : e.getBuildLog()) built.log += text;
    built.failure = " (" + options + "):\n" + built.log;
  } catch (const cl::Error& e) {
    try {
      built.log = built.program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
    }
    built.failure = ": " + describeClError(e) + (built.log.empty() ? "" : "\n" + built.log);
  }
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

ProgramBuilds::ProgramBuilds(cl::Context context, cl::Device device, int threads)
    : context_(std::move(context)), device_(std::move(device)) {
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ProgramBuilds::~ProgramBuilds() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  for (auto& w : workers_) w.join();
}

void ProgramBuilds::enqueue(const std::string& key, std::string source, std::string options) {
  if (workers_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!builds_.emplace(key, std::nullopt).second) return;
    queue_.push_back({key, std::move(source), std::move(options)});
  }
  changed_.notify_one();
}

std::optional<ProgramBuild> ProgramBuilds::take(const std::string& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = builds_.find(key);
  if (it == builds_.end()) return std::nullopt;
  // Not started yet: build it here rather than wait behind the queue.
  auto queued = std::find_if(queue_.begin(), queue_.end(), [&](const Job& j) { return j.key == key; });
  if (queued != queue_.end()) {
    Job job = std::move(*queued);
    queue_.erase(queued);
    builds_.erase(it);
    lock.unlock();
    return buildProgramNow(context_, device_, job.source, job.options);
  }
  changed_.wait(lock, [&] { return it->second.has_value(); });
  std::optional<ProgramBuild> done = std::move(it->second);
  builds_.erase(it);
  return done;
}

bool ProgramBuilds::idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.empty() && running_ == 0;
}

void ProgramBuilds::work() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    ProgramBuild built = buildProgramNow(context_, device_, job.source, job.options);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --running_;
      auto it = builds_.find(job.key);
      if (it != builds_.end()) it->second = std::move(built);
    }
    changed_.notify_all();
  }
}

std::optional<int> parseBuildThreads(std::string_view text) {
  const std::string value(text);
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (end == value.c_str() || *end != '\0' || n < 0) return std::nullopt;
  return static_cast<int>(std::min(n, 64L));
}

int backgroundBuildThreads(bool device_is_cpu, std::optional<int> requested) {
  if (requested) return *requested;
  if (device_is_cpu) return 0;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores - 2, 1, 3);
}

}  // namespace rooflab
