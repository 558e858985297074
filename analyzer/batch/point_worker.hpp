#pragma once
// The batch's side of the worker process (analyzer/batch/worker_main.cpp): kernels run in a worker so that
// a kernel that crashes, aborts, poisons its OpenCL context or hangs costs one record, never the
// batch. The worker is this binary re-executed (`rooflab __worker`, never a fork() after OpenCL was
// initialised); it keeps its context across points, and a fresh one takes over after a crash.
#include <sys/types.h>

#include <optional>
#include <string>

#include "analyzer/run/launch_timing.hpp"
#include "analyzer/support/line_pipe.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/data/worker_messages.hpp"

namespace rooflab {

class PointWorker {
 public:
  // `setup.config` is the config as run; `device_name` names the device in crash messages.
  PointWorker(WorkerSetup setup, std::string device_name);
  ~PointWorker();
  PointWorker(const PointWorker&) = delete;
  PointWorker& operator=(const PointWorker&) = delete;

  // Runs plan point `index` in the worker, starting one first if none runs. `stub` is the point's
  // record before it runs (names, params, the device and A/B side it runs for): a crash or a hang turns it into a
  // `crashed` or `timed_out` record. nullopt when the user asked to stop now (stopRequests() >= 2): the worker was
  // killed and the point has no record.
  std::optional<RunRecord> run(std::size_t index, RunRecord stub, const RepetitionProgress& progress);

  // Programs the worker builds in the background; nullopt before a worker started.
  std::optional<int> buildThreads() const { return build_threads_; }
  // Wall seconds spent starting worker processes (until each said it was ready), and how many started.
  double startSeconds() const { return start_seconds_; }
  std::size_t starts() const { return starts_; }

 private:
  enum class Wait { message, silent, closed, stop_now };
  // stop_now once stopRequests() reaches `stop_requests`: 2 while a point runs (a first Ctrl-C lets
  // it finish), 1 while the worker starts (no point is running, so nothing is lost).
  Wait nextMessage(WorkerMessage& message, double silence_limit_s, int stop_requests = 2);
  std::string start(std::size_t first_point);  // "" or why the worker could not start
  std::string stop(bool kill_it);              // how the worker ended ("" when it exited with 0)

  WorkerSetup setup_;
  std::string device_name_;
  std::string binary_;
  pid_t pid_ = -1;
  int commands_fd_ = -1;
  std::optional<LineReader> messages_;
  int messages_fd_ = -1;
  std::optional<int> build_threads_;
  double start_seconds_ = 0;
  std::size_t starts_ = 0;
};

}  // namespace rooflab
