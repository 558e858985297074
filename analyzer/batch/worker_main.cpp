#include "analyzer/batch/worker_main.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/device/device.hpp"
#include "analyzer/support/line_pipe.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/run/runner.hpp"
#include "analyzer/support/written_files.hpp"

namespace rooflab {
namespace {

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

}  // namespace

int runPointWorker(int commands_fd, int messages_fd) {
  // Ctrl-C is the batch's to answer (it lets the current point finish); the batch's death is ours.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 1;
  LineReader commands(commands_fd);
  std::string line;
  if (commands.next(line, -1) != LineReader::Result::line) return 1;
  try {
    const WorkerSetup setup = decodeWorkerSetup(line);
    if (!setup.plan) return sendFatal(messages_fd, "the batch sent no plan"), 3;
    const BatchPlan& plan = *setup.plan;
    const SelectedDevice device = selectDevice(setup.config.run.device);
    VariantRunner runner(device, setup.config.run);
    if (setup.first_point < plan.points.size())
      runner.queueBuilds(std::vector<PlannedPoint>(plan.points.begin() + static_cast<long>(setup.first_point),
                                                   plan.points.end()));
    WorkerMessage ready;
    ready.kind = WorkerMessage::Kind::ready;
    ready.build_threads = runner.buildThreads();
    if (!send(messages_fd, ready)) return 1;
    return servePoints(plan, runner, commands, messages_fd) ? 0 : 1;
  } catch (const std::exception& e) {
    sendFatal(messages_fd, e.what());
    return 3;
  }
}

}  // namespace rooflab
