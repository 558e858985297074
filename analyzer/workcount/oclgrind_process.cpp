// A program run under `oclgrind --inst-counts`, its output captured, killed past its time.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "analyzer/support/preload_env.hpp"
#include "analyzer/workcount/oclgrind_counts.hpp"

namespace rooflab {
namespace {

// The child: its stdout and stderr into the pipe, then oclgrind in its place.
[[noreturn]] void execUnderOclgrind(const std::string& oclgrind, const std::vector<std::string>& command, int out_fd) {
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(out_fd, STDERR_FILENO);
  ::close(out_fd);
  allowPreloadBeforeSanitizerRuntime();  // oclgrind preloads its runtime into the command
  std::vector<std::string> words{oclgrind, "--inst-counts"};
  words.insert(words.end(), command.begin(), command.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execv(oclgrind.c_str(), argv.data());
  ::_exit(127);
}

}  // namespace

OclgrindRun runUnderOclgrind(const std::vector<std::string>& command, double timeout_s) {
  const std::optional<std::string> oclgrind = findOclgrind();
  if (!oclgrind) throw std::runtime_error("oclgrind is not installed (Debian: apt-get install oclgrind)");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("oclgrind: cannot make a pipe");
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("oclgrind: cannot start a process");
  if (child == 0) execUnderOclgrind(*oclgrind, command, fds[1]);
  ::close(fds[1]);
  OclgrindRun run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  char buffer[65536];
  for (;;) {
    pollfd fd{fds[0], POLLIN, 0};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      ::kill(child, SIGKILL);
      break;
    }
    if (::poll(&fd, 1, int(std::min<long long>(left.count(), 1000))) <= 0) continue;
    const ssize_t read = ::read(fds[0], buffer, sizeof buffer);
    if (read <= 0) break;
    run.output.append(buffer, std::size_t(read));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return run;
}

}  // namespace rooflab
