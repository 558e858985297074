#pragma once
// OpenCL compilers build one program at a time on one CPU core (about 0.3 s per nbody or matmul
// program on NVIDIA), and a batch builds every variant in every mode. ProgramBuilds compiles them on
// background threads, in the order the batch will need them, while the device runs the records
// before them.
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "analyzer/support/cl.hpp"

namespace rooflab {

struct ProgramBuild {
  cl::Program program;
  bool ok = false;
  // When !ok: what follows "OpenCL build of <file> failed", and the compiler's log.
  std::string failure;
  std::string log;
  double seconds = 0;  // the build's own wall time, on whichever thread built it
};

// Builds `source` for `device` now, on the calling thread. Never throws: failures are in the result.
ProgramBuild buildProgramNow(const cl::Context& context, const cl::Device& device, const std::string& source,
                             const std::string& options);

class ProgramBuilds {
 public:
  // threads = 0: nothing runs in the background; take() then always answers nullopt.
  ProgramBuilds(cl::Context context, cl::Device device, int threads);
  ~ProgramBuilds();  // drops the builds not started, waits for the running ones
  ProgramBuilds(const ProgramBuilds&) = delete;
  ProgramBuilds& operator=(const ProgramBuilds&) = delete;

  int threads() const { return static_cast<int>(workers_.size()); }
  // Queues a build unless `key` was queued before.
  void enqueue(const std::string& key, std::string source, std::string options);
  // The build queued under `key`, once it is done; nullopt when none was queued (or it was taken).
  std::optional<ProgramBuild> take(const std::string& key);
  // No build queued or running in the background.
  bool idle();

 private:
  struct Job {
    std::string key, source, options;
  };
  void work();

  cl::Context context_;
  cl::Device device_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  std::map<std::string, std::optional<ProgramBuild>> builds_;  // empty optional: queued or building
  bool stopping_ = false;
  int running_ = 0;  // background builds under way
  std::vector<std::thread> workers_;
};

// Threads for background builds: `requested` when set (ROOFLAB_BUILD_THREADS; 0 turns them off), else
// for GPUs two fewer than the host's cores (the worker's thread and the PTX bridge's JIT compiles need
// one), at most 3. NVIDIA's OpenCL compiler gains little from more builds at once: on the H100's host
// the default config's 59 programs took 56 s of compiler time on 3 threads, 105 s on 6 and 215 s on
// 14, and with 14 the first records waited 14 s for programs that 3 threads built in 1-2 s. CPU
// devices build lazily on the batch's thread, so that no compile competes with the kernels being
// timed on the same cores.
int backgroundBuildThreads(bool device_is_cpu, std::optional<int> requested);

// ROOFLAB_BUILD_THREADS's value as a thread count, at most 64; nullopt unless a whole number >= 0.
std::optional<int> parseBuildThreads(std::string_view text);

}  // namespace rooflab
