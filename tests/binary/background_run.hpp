// The rooflab binary started in the background, for the tests of the output folder and of recovery
// (tests/binary/test_output_folder.cpp, test_recovery.cpp): a run to interrupt, to kill outright, or
// to hold a folder while another command tries it.
#pragma once
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

extern char** environ;

namespace rooflab::testing {

using Clock = std::chrono::steady_clock;

// The processes whose parent is `pid` (the batch's point worker runs in a process group of its own,
// so a kill of the batch's group would miss it).
inline std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> children;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return children;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string name = entry->d_name;
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat("/proc/" + name + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 1));
    std::string state;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parent == pid) children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  ::closedir(proc);
  return children;
}

// `command` run by /bin/sh in `cwd`, its stdout and stderr in `log`.
class BackgroundRun {
 public:
  BackgroundRun(const std::string& command, const std::filesystem::path& cwd, std::filesystem::path log)
      : log_(std::move(log)) {
    const std::string script = "cd '" + cwd.string() + "' && exec " + command;
    std::vector<std::string> argv_text{"/bin/sh", "-c", script};
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const int spawned = posix_spawn(&pid_, "/bin/sh", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    EXPECT_EQ(spawned, 0) << command;
  }
  ~BackgroundRun() {
    if (!ended_) killOutright();
  }
  BackgroundRun(const BackgroundRun&) = delete;
  BackgroundRun& operator=(const BackgroundRun&) = delete;

  pid_t pid() const { return pid_; }
  std::string text() const { return fileText(log_); }

  // Waits until the log holds `needle`; false when the run ended or `limit_s` passed first.
  bool waitForOutput(const std::string& needle, double limit_s = 120) {
    return waitUntil([&] { return contains(text(), needle); }, limit_s);
  }
  template <class Condition>
  bool waitUntil(Condition ready, double limit_s = 120) {
    const auto start = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - start).count() < limit_s) {
      if (ready()) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        ended_ = true;
        exit_code_ = exitCodeOf(status);
        return ready();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  void signal(int number) const { ::kill(pid_, number); }

  // SIGKILL, as a power cut or the OOM killer would: nothing of rooflab runs after it. Its point
  // worker is killed too, so that no test leaves a kernel spinning.
  void killOutright() {
    const std::vector<pid_t> workers = childrenOf(pid_);
    ::kill(pid_, SIGKILL);
    for (pid_t worker : workers) ::kill(worker, SIGKILL);
    wait(30);
  }

  // The exit code, or -1 when it did not end within `limit_s` (then it is killed).
  int wait(double limit_s) {
    if (ended_) return exit_code_;
    int status = 0;
    const auto start = Clock::now();
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::duration<double>(Clock::now() - start).count() > limit_s) {
        for (pid_t worker : childrenOf(pid_)) ::kill(worker, SIGKILL);
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        ended_ = true;
        return exit_code_ = -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ended_ = true;
    return exit_code_ = exitCodeOf(status);
  }

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
  bool ended_ = false;
  int exit_code_ = -1;
};

// `rooflab` as a shell word, quoted.
inline std::string rooflabCommand() { return "'" + std::string(ROOFLAB_BINARY) + "'"; }

// Record lines of a journal (every line but its header).
inline std::size_t journalRecordLines(const std::filesystem::path& journal) {
  std::ifstream in(journal);
  std::string line;
  std::size_t records = 0;
  while (std::getline(in, line))
    if (line.rfind("{\"index\"", 0) == 0) ++records;
  return records;
}

}  // namespace rooflab::testing
