#include "analyzer/batch/point_worker.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "analyzer/support/format.hpp"
#include "analyzer/support/memory_limit.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/written_files.hpp"

extern char** environ;

namespace rooflab {
namespace {

constexpr int kCommandsFd = 3, kMessagesFd = 4;
constexpr double kStartLimitS = 120;  // opening the device and planning, before the first point

std::string describeExit(int status) {
  if (WIFSIGNALED(status)) {
    const int number = WTERMSIG(status);
    const char* name = sigabbrev_np(number);
    return "signal " + std::to_string(number) + " (" + (name ? std::string("SIG") + name : "unknown") + ": " +
           strsignal(number) + ")";
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

// What a point was doing when its limit ran out, from the last phase the worker reported.
// `first_launch`: no launch of the point had ended yet; `kernel_started`: the driver had reported the
// first launch's kernel running.
std::string silentDuring(const std::string& phase, bool first_launch, bool kernel_started, double limit_s) {
  const std::string limit = "variant_time_limit_s = " + formatNumber(limit_s) + " s";
  if (phase == "build")
    return "its program was still being compiled after " + limit +
           " (the compiler, not the kernel: a very large or complex source; the limit restarts once the build ends)";
  if (phase == "inputs")
    return "generating and uploading its input buffers did not end within " + limit + addressSpaceLimitNote();
  if (first_launch && !kernel_started && (phase == "warmup" || phase == "timed"))
    return "its kernel had not started running after " + limit +
           " of its first launch: it was still being compiled for the device (some OpenCL drivers, PoCL among them, "
           "compile a kernel at its first launch; the compiler, not the kernel: a very large or complex source)";
  if (first_launch && (phase == "warmup" || phase == "timed"))
    return "its first launch was running and gave no result within " + limit + ": the kernel hangs or is far too slow";
  if (phase == "verify") return "verifying its outputs (the reference) did not end within " + limit;
  if (phase == "counters") return "reading its counters did not end within " + limit;
  if (phase == "end-to-end") return "one of its end-to-end runs gave no result within " + limit;
  return "no result within " + limit + ": the kernel hangs or is far too slow";
}

// Why a worker died, in the user's words: a signal from outside, or memory.
std::string deathCause(const std::string& ended, const std::string& worker_said) {
  if (!worker_said.empty()) return ended + ": " + worker_said;
  if (ended.find("SIGKILL") != std::string::npos) {
    const std::string memory = addressSpaceLimitNote();
    return ended + (memory.empty()
                        ? "; sent from outside the batch (the system's out-of-memory killer ends processes so)"
                        : memory);
  }
  return ended + addressSpaceLimitNote();
}

}  // namespace

PointWorker::PointWorker(WorkerSetup setup, std::string device_name)
    : setup_(std::move(setup)), device_name_(std::move(device_name)) {
  // A worker that dies while the batch writes to it must not take the batch with it.
  ::signal(SIGPIPE, SIG_IGN);
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  // A program that links the analyzer and drives runBatch itself (rooflab_tests) has no __worker
  // command: its workers are the rooflab built beside it.
  const std::filesystem::path beside = self.parent_path() / "rooflab";
  binary_ = (self.filename() != "rooflab" && std::filesystem::exists(beside) ? beside : self).string();
}

PointWorker::~PointWorker() { stop(true); }

std::string PointWorker::start(std::size_t first_point) {
  int commands[2], messages[2];
  if (::pipe2(commands, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (::pipe2(messages, O_CLOEXEC) != 0) {
    ::close(commands[0]);
    ::close(commands[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, commands[0], kCommandsFd);
  posix_spawn_file_actions_adddup2(&actions, messages[1], kMessagesFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group: a Ctrl-C at the terminal reaches the batch, which decides.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::string name = "rooflab", command = "__worker";
  char* argv[] = {name.data(), command.data(), nullptr};
  const int spawned = ::posix_spawn(&pid_, binary_.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(commands[0]);
  ::close(messages[1]);
  commands_fd_ = commands[1];
  messages_fd_ = messages[0];
  messages_.emplace(messages_fd_);
  if (spawned != 0) {
    pid_ = -1;
    stop(false);
    return std::string("starting ") + binary_ + ": " + std::strerror(spawned);
  }
  WorkerSetup setup = setup_;
  setup.first_point = first_point;
  writeLine(commands_fd_, encodeWorkerSetup(setup));
  WorkerMessage message;
  const Wait wait = nextMessage(message, kStartLimitS, 1);
  if (wait == Wait::message && message.kind == WorkerMessage::Kind::ready) {
    build_threads_ = message.build_threads;
    return "";
  }
  const std::string why = wait == Wait::message ? message.reason : "";
  const std::string ended = stop(true);
  return why.empty() ? "the worker ended (" + ended + ") before it was ready" : why;
}

std::string PointWorker::stop(bool kill_it) {
  if (commands_fd_ >= 0) ::close(commands_fd_);
  commands_fd_ = -1;
  std::string ended;
  if (pid_ > 0) {
    if (kill_it) ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) ended = describeExit(status);
  }
  pid_ = -1;
  if (messages_fd_ >= 0) ::close(messages_fd_);
  messages_fd_ = -1;
  messages_.reset();
  return ended;
}

PointWorker::Wait PointWorker::nextMessage(WorkerMessage& message, double silence_limit_s, int stop_requests) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(silence_limit_s);
  std::string line;
  for (;;) {
    if (stopRequests() >= stop_requests) return Wait::stop_now;
    if (Clock::now() >= deadline) return Wait::silent;
    switch (messages_->next(line, 100)) {
      case LineReader::Result::timeout: continue;
      case LineReader::Result::closed: return Wait::closed;
      case LineReader::Result::line: break;
    }
    try {
      message = decodeWorkerMessage(line);
      return Wait::message;
    } catch (const std::exception&) {
      continue;  // not ours: a line a driver printed on the worker's descriptor
    }
  }
}

std::optional<RunRecord> PointWorker::run(std::size_t index, RunRecord stub, const RepetitionProgress& progress) {
  const std::string where = stub.label() + " on " + device_name_ + ": ";
  if (pid_ < 0) {
    // Starting a worker (its plan handed over: seconds for a large tuning space) measures nothing, so
    // any stop asked for before the point is sent ends it at once.
    if (stopRequests() >= 1) return std::nullopt;
    const auto starting = std::chrono::steady_clock::now();
    const std::string why = start(index);
    start_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - starting).count();
    ++starts_;
    if (stopRequests() >= 1) return std::nullopt;  // asked while it started
    if (!why.empty()) {
      stub.status = RecordStatus::crashed;
      stub.status_reason = where + "the worker process could not start: " + why;
      return stub;
    }
  }
  writeLine(commands_fd_, "run " + std::to_string(index));
  const double limit_s = setup_.config.run.variant_time_limit_s;
  std::string phase;
  int launches_begun = 0;       // warm-up and timed launches the worker said it started
  bool kernel_started = false;  // the driver reported the first launch's kernel running
  for (;;) {
    WorkerMessage message;
    const Wait wait = nextMessage(message, limit_s);
    if (wait == Wait::message && message.kind == WorkerMessage::Kind::progress) {
      if (message.phase == "started") {
        kernel_started = true;
        continue;
      }
      phase = message.phase;
      if (phase == "warmup" || phase == "timed") ++launches_begun;
      if (progress) progress(message.phase.c_str(), message.index, message.count);
      continue;
    }
    if (wait == Wait::message && message.kind == WorkerMessage::Kind::record) {
      for (const std::string& file : message.written_files) recordWrittenFile(file);
      if (message.record->status == RecordStatus::crashed) stop(false);  // it exits: its context broke
      // The worker runs the batch's own plan; still, a reply about another point must never be filed
      // under this one.
      if (message.record->label() != stub.label()) {
        stop(true);
        stub.status = RecordStatus::crashed;
        stub.status_reason = where + "the worker answered for another point (" + message.record->label() +
                             "): its plan of the batch differs from the batch's; a fresh worker runs the next point";
        return stub;
      }
      // Where it ran, which the worker process does not know: a device of several, an A/B run's side.
      message.record->device = stub.device;
      message.record->ab_side = stub.ab_side;
      return std::move(*message.record);
    }
    if (wait == Wait::stop_now) {
      stop(true);
      return std::nullopt;
    }
    if (wait == Wait::silent) {
      const std::optional<unsigned long long> used = processVirtualBytes(pid_);
      const bool out_of_memory = nearAddressSpaceLimit(used);
      stop(true);
      stub.status = RecordStatus::timed_out;
      stub.status_reason =
          where +
          (out_of_memory ? "it ran out of memory: its worker process used " + std::to_string(*used >> 20) + " MiB" +
                               addressSpaceLimitNote() +
                               ", and stalled until variant_time_limit_s = " + formatNumber(limit_s) + " s"
                         : silentDuring(phase, launches_begun <= 1, kernel_started, limit_s)) +
          "; its worker process was killed and a fresh one runs the next point";
      return stub;
    }
    const std::string ended = stop(wait != Wait::closed);
    stub.status = RecordStatus::crashed;
    stub.status_reason =
        where + "the worker process running it died (" +
        deathCause(ended.empty() ? "exit status 0" : ended, wait == Wait::message ? message.reason : "") +
        "); a fresh worker runs the next point";
    return stub;
  }
}

}  // namespace rooflab
