#include "mutators/opencl_preprocess.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

extern char** environ;

namespace rooflab {
namespace {

namespace fs = std::filesystem;

#ifdef ROOFLAB_CLANG_EXECUTABLE
constexpr const char* kClang = ROOFLAB_CLANG_EXECUTABLE;
#else
constexpr const char* kClang = "";
#endif

std::string readWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A folder of its own under the temp folder, removed when the preprocessing is done.
struct ScratchFolder {
  fs::path path;
  ScratchFolder() {
    std::string pattern = (fs::temp_directory_path() / "rooflab-cpp-XXXXXX").string();
    if (::mkdtemp(pattern.data())) path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// "CL2.0" -> 200: what __OPENCL_VERSION__ stands for in the program's #if lines.
std::string versionNumber(const std::string& standard) {
  std::smatch m;
  static const std::regex pattern(R"(CL(\d)\.(\d))");
  if (!std::regex_match(standard, m, pattern)) return "120";
  return m[1].str() + m[2].str() + "0";
}

std::vector<std::string> clangArguments(const PreprocessRequest& r, const fs::path& input, const fs::path& output) {
  const std::string standard = openclStandard(r.build_options);
  std::vector<std::string> args = {kClang, "-cc1", "-E", "-x", "cl", "-cl-std=" + standard,
                                   // A target without a host's macros (__x86_64__): what a device sees.
                                   "-triple", "spir64-unknown-unknown",
                                   "-D__OPENCL_VERSION__=" + versionNumber(standard)};
  if (!r.device_extensions.empty()) {
    std::string list = "-cl-ext=-all";
    for (const std::string& e : r.device_extensions)
      if (e.rfind("cl_", 0) == 0) list += ",+" + e;
    args.push_back(list);
  }
  const fs::path folder = fs::path(r.source_path).parent_path();
  if (!folder.empty()) args.push_back("-I" + folder.string());
  const std::vector<std::string>& o = r.build_options;
  for (std::size_t i = 0; i < o.size(); ++i) {
    const std::string& w = o[i];
    if ((w == "-D" || w == "-I" || w == "-U") && i + 1 < o.size()) {
      args.push_back(w + o[++i]);
    } else if (w.rfind("-D", 0) == 0 || w.rfind("-I", 0) == 0 || w.rfind("-U", 0) == 0) {
      args.push_back(w);
    }
  }
  args.push_back("-o");
  args.push_back(output.string());
  args.push_back(input.string());
  return args;
}

// The first error clang wrote, else its first line: what the user needs to see.
std::string firstError(const std::string& diagnostics) {
  std::istringstream lines(diagnostics);
  std::string first;
  for (std::string line; std::getline(lines, line);) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error:") != std::string::npos) return line;
  }
  return first.empty() ? "no message" : first;
}

}  // namespace

std::string openclStandard(const std::vector<std::string>& build_options) {
  for (const std::string& o : build_options)
    if (o.rfind("-cl-std=", 0) == 0) return o.substr(8);
  return "CL1.2";
}

bool openclPreprocessorAvailable() { return openclPreprocessorOffReason().empty(); }

std::string openclPreprocessorOffReason() {
  if (std::strlen(kClang) == 0)
    return "automatic mutants off: built without clang's preprocessor (Debian: clang-14), which expands a kernel's "
           "macros before it is rewritten";
  if (::access(kClang, X_OK) != 0)
    return std::string("automatic mutants off: clang's preprocessor ") + kClang + " cannot be run (" +
           std::strerror(errno) + ")";
  return "";
}

std::string lineMarkersAsLineDirectives(const std::string& preprocessed, const std::string& scratch_input,
                                        const std::string& shown_name) {
  static const std::regex marker(R"(^#\s+(\d+)\s+("(?:[^"\\]|\\.)*")((?:\s+\d+)*)\s*$)");
  std::istringstream lines(preprocessed);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!line.empty() && line[0] == '#' && std::regex_match(line, m, marker)) {
      const std::string file = m[2].str();
      if (file == "\"<built-in>\"" || file == "\"<command line>\"") continue;  // clang's own pseudo-files
      // The scratch copy clang read stands for the user's file (blank lines come out as markers too).
      const std::string shown =
          !scratch_input.empty() && file == "\"" + scratch_input + "\"" ? "\"" + shown_name + "\"" : file;
      out += "#line " + m[1].str() + " " + shown + "\n";
      continue;
    }
    out += line;
    out += '\n';
  }
  return out;
}

PreprocessedSource preprocessOpenclSource(const PreprocessRequest& request) {
  PreprocessedSource result;
  if (const std::string off = openclPreprocessorOffReason(); !off.empty()) {
    result.error = off;
    return result;
  }
  ScratchFolder scratch;
  if (scratch.path.empty()) {
    result.error = std::string("no scratch folder for the preprocessor: ") + std::strerror(errno);
    return result;
  }
  const std::string name = fs::path(request.source_path).filename().string();
  const fs::path input = scratch.path / (name.empty() ? "program.cl" : name);
  const fs::path output = scratch.path / "expanded.cl", diagnostics = scratch.path / "clang.log";
  {
    std::ofstream file(input, std::ios::binary);
    file << request.source_text;
    if (!file) {
      result.error = "cannot write the program for the preprocessor to " + input.string();
      return result;
    }
  }
  const std::vector<std::string> args = clangArguments(request, input, output);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, diagnostics.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, kClang, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.error = std::string("cannot run clang's preprocessor ") + kClang + ": " + std::strerror(spawned);
    return result;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.error = "clang's preprocessor failed: " + firstError(readWhole(diagnostics));
    return result;
  }
  result.text = lineMarkersAsLineDirectives(readWhole(output), input.string(), request.source_path);
  return result;
}

}  // namespace rooflab
