#include "analyzer/batch/worker_main.hpp"

#include <execinfo.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/cupti_choice.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/support/line_pipe.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/run/runner.hpp"
#include "analyzer/support/written_files.hpp"

namespace rooflab {
namespace {

int g_messages_fd = -1;

// Appends `text` to `out` (at most `room` bytes in all), keeping only characters a JSON string takes
// as they are. Async-signal-safe.
std::size_t appendPlain(char* out, std::size_t used, std::size_t room, const char* text) {
  for (; *text && used + 1 < room; ++text)
    if ((*text >= 'a' && *text <= 'z') || (*text >= 'A' && *text <= 'Z') || (*text >= '0' && *text <= '9') ||
        *text == ' ' || *text == '-' || *text == '_' || *text == '.' || *text == '(' || *text == ')' || *text == ',' ||
        *text == ':' || *text == '/')
      out[used++] = *text;
  return used;
}

std::size_t appendRaw(char* out, std::size_t used, std::size_t room, const char* text) {
  for (; *text && used + 1 < room; ++text) out[used++] = *text;
  return used;
}

std::size_t appendNumber(char* out, std::size_t used, std::size_t room, long value) {
  char digits[24];
  int n = 0;
  do digits[n++] = static_cast<char>('0' + value % 10);
  while ((value /= 10) > 0 && n < 23);
  while (n > 0 && used + 1 < room) out[used++] = digits[--n];
  return used;
}

// A terminating signal from outside (kill, a job scheduler, a closed terminal) is not the kernel's
// fault: the batch is told who sent it before the worker ends, so the record says so. Uses only
// async-signal-safe calls.
void onOutsideSignal(int number, siginfo_t* info, void*) {
  char line[512];
  std::size_t used = 0;
  used = appendRaw(line, used, sizeof line, "{\"kind\": \"fatal\", \"reason\": \"");
  used = appendPlain(line, used, sizeof line, number == SIGTERM ? "SIGTERM" : "SIGHUP");
  used = appendPlain(line, used, sizeof line, " sent from outside the batch");
  if (info != nullptr && info->si_pid > 0) {
    used = appendPlain(line, used, sizeof line, " by process ");
    used = appendNumber(line, used, sizeof line, info->si_pid);
    char path[64] = "/proc/";
    std::size_t at = appendNumber(path, 6, sizeof path, info->si_pid);
    at = appendRaw(path, at, sizeof path, "/comm");
    path[at] = '\0';
    char comm[32] = {};
    const int fd = ::open(path, O_RDONLY);
    if (fd >= 0) {
      const ssize_t got = ::read(fd, comm, sizeof comm - 1);
      ::close(fd);
      if (got > 0) {
        comm[got - 1] = '\0';  // its newline
        used = appendPlain(line, used, sizeof line, " (");
        used = appendPlain(line, used, sizeof line, comm);
        used = appendPlain(line, used, sizeof line, ")");
      }
    }
  }
  used = appendPlain(line, used, sizeof line, ", not a fault of the kernel");
  used = appendRaw(line, used, sizeof line, "\"}\n");
  if (g_messages_fd >= 0 && ::write(g_messages_fd, line, used) < 0) {
    // Nothing more can be done in a signal handler: the batch then sees the exit status alone.
  }
  ::_exit(128 + number);
}

void reportOutsideSignals(int messages_fd) {
  g_messages_fd = messages_fd;
  struct sigaction action {};
  action.sa_sigaction = onOutsideSignal;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGHUP, &action, nullptr);
}

// A fault in the worker (in rooflab, a driver or the profiler) kills it and the batch names the signal;
// the stack it died on, written to stderr (the batch's), says where, for a bug report. Only
// async-signal-safe calls; the signal is raised again with its default action, so the batch sees it.
// Sanitizer builds keep their own reports.
void onFatalSignal(int number) {
  constexpr char kHeader[] = "rooflab worker: fatal signal; the stack it died on:\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kHeader, sizeof(kHeader) - 1);
  void* frames[64];
  ::backtrace_symbols_fd(frames, ::backtrace(frames, 64), STDERR_FILENO);
  ::signal(number, SIG_DFL);
  ::raise(number);
}

void reportFatalSignals() {
#if !defined(__SANITIZE_ADDRESS__)
  void* warm[1];
  ::backtrace(warm, 1);  // loads libgcc's unwinder now: not from inside the handler
  for (int number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(number, onFatalSignal);
#endif
}

bool send(int fd, const WorkerMessage& message) { return writeLine(fd, encodeWorkerMessage(message)); }

bool sendFatal(int fd, const std::string& reason) {
  WorkerMessage fatal;
  fatal.reason = reason;
  return send(fd, fatal);
}

// Runs the points the batch asks for until it closes the pipe; false when the context broke.
bool servePoints(const BatchPlan& plan, VariantRunner& runner, LineReader& commands, int messages_fd) {
  std::string line;
  while (commands.next(line, -1) == LineReader::Result::line) {
    if (line.rfind("run ", 0) != 0) continue;
    const std::size_t index = std::stoul(line.substr(4));
    if (index >= plan.points.size()) return sendFatal(messages_fd, "no point " + line.substr(4) + " in the plan");
    RunRecord record = runner.run(plan.points[index], [&](const char* phase, int i, int count) {
      WorkerMessage progress;
      progress.kind = WorkerMessage::Kind::progress;
      progress.phase = phase;
      progress.index = i;
      progress.count = count;
      send(messages_fd, progress);
    });
    bool context_broken = false;
    if (record.status == RecordStatus::error) {
      // A driver error can poison the context (an illegal address on NVIDIA): every later point would
      // fail for it. Such a point counts as a crash and a fresh worker takes the next.
      const std::string problem = runner.contextProblem();
      if (!problem.empty()) {
        record.status = RecordStatus::crashed;
        record.status_reason += "; the OpenCL context no longer works after it (" + problem + ")";
        context_broken = true;
      }
    }
    WorkerMessage reply;
    reply.kind = WorkerMessage::Kind::record;
    reply.record = std::move(record);
    for (const std::filesystem::path& file : takeWrittenFiles()) reply.written_files.push_back(file.string());
    if (!send(messages_fd, reply) || context_broken) return !context_broken;
  }
  return true;
}

// The points this worker will run from its first on, in order (the plan's own): their programs are
// built, and their data made, in the background while earlier points run.
std::vector<const PlannedPoint*> pointsAhead(const BatchPlan& plan, const WorkerSetup& setup) {
  std::vector<const PlannedPoint*> points;
  if (setup.points.empty()) {
    for (std::size_t i = setup.first_point; i < plan.points.size(); ++i) points.push_back(&plan.points[i]);
    return points;
  }
  const auto first = std::find(setup.points.begin(), setup.points.end(), setup.first_point);
  for (auto index = first; index != setup.points.end(); ++index)
    if (*index < plan.points.size()) points.push_back(&plan.points[*index]);
  return points;
}

}  // namespace

int runPointWorker(int commands_fd, int messages_fd) {
  // Ctrl-C is the batch's to answer (it lets the current point finish); the batch's death is ours.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  reportOutsideSignals(messages_fd);
  reportFatalSignals();
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 1;
  LineReader commands(commands_fd);
  std::string line;
  if (commands.next(line, -1) != LineReader::Result::line) return 1;
  try {
    const WorkerSetup setup = decodeWorkerSetup(line);
    counters::chooseCuptiLibrary(setup.config.run.environment.cupti_library);
    if (!setup.plan) return sendFatal(messages_fd, "the batch sent no plan"), 3;
    const BatchPlan& plan = *setup.plan;
    const SelectedDevice device = selectDevice(setup.config.run.device);
    VariantRunner runner(device, setup.config.run);
    runner.prepareDriftControl();
    const std::vector<const PlannedPoint*> ahead = pointsAhead(plan, setup);
    runner.queueBuilds(ahead);
    runner.prepareDataAhead(ahead);
    WorkerMessage ready;
    ready.kind = WorkerMessage::Kind::ready;
    ready.build_threads = runner.buildThreads();
    if (!send(messages_fd, ready)) return 1;
    const bool served = servePoints(plan, runner, commands, messages_fd);
    counters::releaseKeptBridge();
    return served ? 0 : 1;
  } catch (const std::exception& e) {
    sendFatal(messages_fd, e.what());
    return 3;
  }
}

}  // namespace rooflab
