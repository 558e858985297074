// The log, the data files and the clock of the capture library (docs/capture.md, "Log format").
#include "capture/capture_state.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rooflab_capture {
namespace {

const char* g_mechanism = "layer";
int g_log_fd = -1;
std::string g_folder;
bool g_started = false;
std::atomic<std::uint64_t> g_temp_counter{0};

// The log's format version, in step with analyzer/json/capture_log_json.cpp.
constexpr int kLogFormat = 1;

bool writeAll(int fd, const char* data, std::size_t bytes) {
  while (bytes > 0) {
    const ssize_t wrote = ::write(fd, data, bytes);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    data += wrote;
    bytes -= static_cast<std::size_t>(wrote);
  }
  return true;
}

// 128 bits from two independent 64-bit hashes: names the same bytes the same, and a different
// content differently with overwhelming odds (not a defence against a forger).
std::string contentHash(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t fnv = 0xcbf29ce484222325ULL, mix = 0x9e3779b97f4a7c15ULL ^ bytes;
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    for (int b = 0; b < 8; ++b) fnv = (fnv ^ p[i + b]) * 0x100000001b3ULL;
    mix = (mix ^ (word * 0xff51afd7ed558ccdULL)) * 0xc4ceb9fe1a85ec53ULL;
    mix ^= mix >> 29;
  }
  for (; i < bytes; ++i) {
    fnv = (fnv ^ p[i]) * 0x100000001b3ULL;
    mix = (mix ^ p[i]) * 0xc4ceb9fe1a85ec53ULL;
    mix ^= mix >> 31;
  }
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(fnv),
                static_cast<unsigned long long>(mix));
  return name;
}

void writeExitLine() {
  std::lock_guard<std::mutex> lock(state().mutex);
  // Commands still running at exit keep no times; the complete ones are read now.
  collectEventTimes(false);
  writeLine(JsonLine("exit").number("calls", state().calls).number("host_ns", nowNs()).finish());
}

}  // namespace

cl_icd_dispatch next{};

void setMechanism(const char* mechanism) { g_mechanism = mechanism; }

State& state() {
  static State* the_state = new State();  // never destroyed: calls may come during exit
  return *the_state;
}

std::uint64_t nowNs() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

void countCall() {
  ++state().calls;
  if (g_started) return;
  g_started = true;
  const char* folder = std::getenv("ROOFLAB_CAPTURE_DIR");
  if (folder == nullptr || *folder == '\0') return;
  g_folder = folder;
  ::mkdir((g_folder + "/data").c_str(), 0755);
  // The program's first process writes log.jsonl; another process it starts (which loads the
  // capture afresh, its ids starting over) writes a log of its own beside it.
  g_log_fd = ::open((g_folder + "/log.jsonl").c_str(), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (g_log_fd < 0 && errno == EEXIST)
    g_log_fd = ::open((g_folder + "/log-" + std::to_string(::getpid()) + ".jsonl").c_str(),
                      O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (g_log_fd < 0) {
    std::fprintf(stderr, "rooflab capture: cannot write %s/log.jsonl: %s\n", folder, std::strerror(errno));
    return;
  }
  writeLine(JsonLine("start")
                .integer("format", kLogFormat)
                .text("version", ROOFLAB_VERSION)
                .text("mechanism", g_mechanism)
                .integer("pid", ::getpid())
                .number("host_ns", nowNs())
                .finish());
  std::atexit(writeExitLine);
}

void writeLine(const std::string& line) {
  if (g_log_fd >= 0) writeAll(g_log_fd, line.data(), line.size());
}

std::string saveBlob(const void* data, std::size_t bytes) {
  if (g_folder.empty()) return "";
  const std::string name = contentHash(data, bytes);
  const std::string path = g_folder + "/data/" + name;
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0 && static_cast<std::size_t>(existing.st_size) == bytes) return name;
  const std::string temp =
      g_folder + "/data/.tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++g_temp_counter);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "";
  const bool wrote = writeAll(fd, static_cast<const char*>(data), bytes);
  ::close(fd);
  if (!wrote || ::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return "";
  }
  return name;
}

void noteUnsupported(const char* feature, const char* call) {
  writeLine(JsonLine("unsupported").text("feature", feature).text("call", call).finish());
}

void collectEventTimes(bool all_done) {
  auto& pending = state().pending;
  std::size_t kept = 0;
  for (PendingEvent& item : pending) {
    cl_int status = CL_COMPLETE;
    if (next.clGetEventInfo(item.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
        CL_SUCCESS)
      status = -1;
    if (status > CL_COMPLETE && !all_done) {
      pending[kept++] = item;
      continue;
    }
    cl_ulong t[4] = {0, 0, 0, 0};
    const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    bool read = status == CL_COMPLETE;
    for (int i = 0; read && i < 4; ++i)
      read = next.clGetEventProfilingInfo(item.event, names[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS;
    JsonLine line("times");
    line.number("seq", item.sequence);
    if (read) line.number("queued_ns", t[0]).number("submit_ns", t[1]).number("start_ns", t[2]).number("end_ns", t[3]);
    else line.integer("status", status);
    writeLine(line.finish());
    next.clReleaseEvent(item.event);
  }
  pending.resize(kept);
}

JsonLine::JsonLine(const char* type) : line_("{\"t\":\"") {
  line_ += type;
  line_ += '"';
}

JsonLine& JsonLine::number(const char* key, std::uint64_t value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::integer(const char* key, std::int64_t value) { return raw(key, std::to_string(value)); }
JsonLine& JsonLine::text(const char* key, std::string_view value) { return raw(key, jsonQuoted(value)); }
JsonLine& JsonLine::flag(const char* key, bool value) { return raw(key, value ? "true" : "false"); }
JsonLine& JsonLine::raw(const char* key, const std::string& json) {
  line_ += ",\"";
  line_ += key;
  line_ += "\":";
  line_ += json;
  return *this;
}
std::string JsonLine::finish() { return line_ + "}\n"; }

std::string jsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u >= 0x7f) {  // bytes above ASCII as code points: the line stays valid JSON
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string jsonNumbers(const std::size_t* values, std::size_t count) {
  std::string out = "[";
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out + "]";
}

std::string hexBytes(const void* data, std::size_t bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  for (std::size_t i = 0; i < bytes; ++i) {
    const auto b = static_cast<const unsigned char*>(data)[i];
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace rooflab_capture
