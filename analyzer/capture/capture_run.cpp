#include "analyzer/capture/capture_run.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/preload_env.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

bool executableFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// The variable's value with the capture library added, the earlier value kept (a user's own
// layers or preloads stay).
std::string joined(const char* name, const std::string& library, bool library_first) {
  const char* earlier = std::getenv(name);
  if (earlier == nullptr || *earlier == '\0') return library;
  return library_first ? library + ":" + earlier : std::string(earlier) + ":" + library;
}

[[noreturn]] void execUnderCapture(const CaptureRunRequest& request, const fs::path& program) {
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGQUIT, SIG_DFL);
  ::setenv("ROOFLAB_CAPTURE_DIR", fs::absolute(request.folder).c_str(), 1);
  const std::string library = fs::absolute(request.library).string();
  // The loader wraps each layer in the next one listed: the capture, last, sees the program's calls
  // first. A preload comes first so that its cl* functions are the ones the program finds.
  if (request.mechanism == CaptureMechanism::layer)
    ::setenv("OPENCL_LAYERS", joined("OPENCL_LAYERS", library, false).c_str(), 1);
  else {
    ::setenv("LD_PRELOAD", joined("LD_PRELOAD", library, true).c_str(), 1);
    allowPreloadBeforeSanitizerRuntime();
  }
  std::vector<char*> argv;
  for (const std::string& word : request.command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  std::fprintf(stderr, "rooflab: capture: cannot run %s: %s\n", program.c_str(), std::strerror(errno));
  ::_exit(127);
}

}  // namespace

std::string toString(CaptureMechanism mechanism) { return mechanism == CaptureMechanism::layer ? "layer" : "preload"; }

fs::path findProgram(const std::string& program) {
  if (program.empty()) throw InputError("capture: no program to run: rooflab capture [--out DIR] -- PROGRAM ARGS...");
  if (program.find('/') != std::string::npos) {
    std::error_code ec;
    if (!fs::exists(program, ec)) throw InputError("capture: program '" + program + "' not found");
    if (!executableFile(program)) throw InputError("capture: program '" + program + "' is not an executable file");
    return program;
  }
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= folders.size()) {
    const std::size_t end = std::min(folders.find(':', at), folders.size());
    const fs::path candidate = fs::path(end == at ? "." : folders.substr(at, end - at)) / program;
    if (executableFile(candidate)) return candidate;
    at = end + 1;
  }
  throw InputError("capture: program '" + program + "' not found on PATH");
}

fs::path captureLibraryPath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return (ec ? fs::current_path() : self.parent_path()) / "librooflab_capture.so";
}

CapturedProcess runUnderCapture(const CaptureRunRequest& request) {
  const fs::path program = findProgram(request.command.at(0));
  CapturedProcess process;
  process.command = request.command;
  process.mechanism = toString(request.mechanism);
  // Ctrl-C is the program's: rooflab waits for it to end and keeps what it captured.
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const auto started = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child == 0) execUnderCapture(request, program);
  int status = 0;
  const bool forked = child > 0;
  while (forked && ::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  process.wall_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count());
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (!forked) throw IoError(std::string("capture: cannot start a process: ") + std::strerror(errno));
  if (WIFEXITED(status)) process.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) process.signal = WTERMSIG(status);
  return process;
}

}  // namespace rooflab
