// The capture folder's log and seal (docs/capture.md, "Log format"): each log line is one JSON
// object whose "t" names its kind; the reader turns them into a CaptureLog.
#include "analyzer/json/capture_log_json.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyzer/json/json_file_io.hpp"
#include "analyzer/support/errors.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rooflab {
namespace {

constexpr int kLogFormat = 1;  // in step with capture/capture_state.cpp
constexpr const char* kLogName = "log.jsonl";
constexpr const char* kSealName = "seal.json";

std::string readBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string fnv1aHex(const std::string& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

json processJson(const CapturedProcess& p) {
  json out{{"command", p.command}, {"wall_ns", p.wall_ns}, {"mechanism", p.mechanism}};
  out["exit_code"] = p.exit_code ? json(*p.exit_code) : json(nullptr);
  out["signal"] = p.signal ? json(*p.signal) : json(nullptr);
  return out;
}

CapturedProcess processFrom(const json& j) {
  CapturedProcess p;
  p.command = j.at("command").get<std::vector<std::string>>();
  p.wall_ns = j.at("wall_ns").get<std::uint64_t>();
  p.mechanism = j.at("mechanism").get<std::string>();
  if (!j.at("exit_code").is_null()) p.exit_code = j.at("exit_code").get<int>();
  if (!j.at("signal").is_null()) p.signal = j.at("signal").get<int>();
  return p;
}

CaptureSeal readSeal(const fs::path& dir) {
  const fs::path file = dir / kSealName;
  if (!fs::exists(file))
    throw InputError(file.string() +
                     ": missing: the capture did not finish (rooflab capture itself was stopped); capture again");
  const json j = readJsonFile(file);
  CaptureSeal seal;
  try {
    seal.rooflab_version = j.at("rooflab_version").get<std::string>();
    if (seal.rooflab_version != ROOFLAB_VERSION)
      throw InputError(file.string() + ": a capture of rooflab " + seal.rooflab_version + ", this is rooflab " +
                       ROOFLAB_VERSION + "; capture again with this version");
    seal.log_bytes = j.at("log_bytes").get<std::uint64_t>();
    seal.log_hash = j.at("log_hash").get<std::string>();
    seal.complete = j.at("complete").get<bool>();
    seal.incomplete_reason = j.value("incomplete_reason", "");
    seal.process = processFrom(j.at("process"));
  } catch (const json::exception& e) {
    throw InputError(file.string() + ": not a capture seal: " + e.what());
  }
  return seal;
}

// The log's lines, read into the log one kind at a time.
class LogLines {
 public:
  LogLines(const fs::path& file, CaptureLog& log) : file_(file), log_(log) {}
  void read(const json& line, std::uint64_t number);
  void finish();

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(file_.string() + ":" + std::to_string(number_) + ": " + why);
  }
  CapturedLaunch& launch(std::uint64_t id) {
    const auto found = launch_index_.find(id);
    if (found == launch_index_.end()) fail("names launch " + std::to_string(id) + ", which no earlier line made");
    return log_.launches[found->second];
  }
  void start(const json& j);
  void program(const json& j);
  void build(const json& j);
  void kernel(const json& j);
  void newLaunch(const json& j);
  void saved(const json& j);
  void command(const json& j);
  void times(const json& j);
  void unsupported(const json& j);

  fs::path file_;
  CaptureLog& log_;
  std::uint64_t number_ = 0;
  std::map<std::uint64_t, std::size_t> launch_index_, command_index_, program_index_;
  std::map<std::uint64_t, json> kernel_args_;  // a kernel's argument info, by its id
  bool exit_seen_ = false;
  std::uint64_t lines_ = 0;
};

void LogLines::read(const json& j, std::uint64_t number) {
  number_ = number;
  ++lines_;
  const std::string type = j.at("t").get<std::string>();
  if (type == "start") return start(j);
  if (type == "device") {
    log_.platform_name = j.at("platform").get<std::string>();
    log_.device_name = j.at("name").get<std::string>();
  } else if (type == "program") {
    program(j);
  } else if (type == "build") {
    build(j);
  } else if (type == "kernel") {
    kernel(j);
  } else if (type == "buffer") {
    CapturedBuffer b{j.at("id").get<std::uint64_t>(), j.at("bytes").get<std::uint64_t>(),
                     j.at("flags").get<std::uint64_t>(), j.at("host_ptr").get<bool>(), std::nullopt};
    if (j.contains("parent")) b.parent_id = j.at("parent").get<std::uint64_t>();
    log_.buffers.push_back(b);
  } else if (type == "queue") {
    log_.queues.push_back(
        {j.at("id").get<std::uint64_t>(), j.at("properties").get<std::uint64_t>(), j.at("out_of_order").get<bool>()});
  } else if (type == "launch") {
    newLaunch(j);
  } else if (type == "saved") {
    saved(j);
  } else if (type == "command") {
    command(j);
  } else if (type == "times") {
    times(j);
  } else if (type == "unsupported") {
    unsupported(j);
  } else if (type == "exit") {
    exit_seen_ = true;
    log_.calls_seen = j.at("calls").get<std::uint64_t>();
  } else if (type != "context" && type != "wait") {
    fail("unknown line kind \"" + type + "\"");
  }
}

void LogLines::start(const json& j) {
  if (j.at("format").get<int>() != kLogFormat)
    fail("log format " + std::to_string(j.at("format").get<int>()) + ", this rooflab reads format " +
         std::to_string(kLogFormat));
  const std::string version = j.at("version").get<std::string>();
  if (version != ROOFLAB_VERSION)
    fail("written by the capture library of rooflab " + version + ", this is rooflab " + ROOFLAB_VERSION);
}

void LogLines::program(const json& j) {
  CapturedProgram p;
  p.id = j.at("id").get<std::uint64_t>();
  const auto kind = parseCapturedProgramKind(j.at("kind").get<std::string>());
  if (!kind) fail("unknown program kind " + j.at("kind").dump());
  p.kind = *kind;
  if (j.contains("source"))
    p.source =
        CaptureBlob{j.at("source").at("name").get<std::string>(), j.at("source").at("bytes").get<std::uint64_t>()};
  program_index_[p.id] = log_.programs.size();
  log_.programs.push_back(p);
}

void LogLines::build(const json& j) {
  const auto found = program_index_.find(j.at("program").get<std::uint64_t>());
  if (found == program_index_.end()) fail("a build of a program no earlier line made");
  CapturedProgram& p = log_.programs[found->second];
  p.build_options = j.at("options").get<std::string>();
  p.build_log = j.at("log").get<std::string>();
  p.built = j.at("built").get<bool>();
}

void LogLines::kernel(const json& j) {
  const std::uint64_t id = j.at("id").get<std::uint64_t>();
  log_.kernels.push_back({id, j.at("program").get<std::uint64_t>(), j.at("name").get<std::string>()});
  kernel_args_[id] = j.at("args");
}

void LogLines::newLaunch(const json& j) {
  CapturedLaunch l;
  l.id = j.at("id").get<std::uint64_t>();
  l.kernel_id = j.at("kernel").get<std::uint64_t>();
  l.work_dim = j.at("work_dim").get<std::uint32_t>();
  l.global_size = j.at("global").get<std::vector<std::uint64_t>>();
  if (j.contains("offset")) l.global_offset = j.at("offset").get<std::vector<std::uint64_t>>();
  if (!j.at("local").is_null()) l.local_size = j.at("local").get<std::vector<std::uint64_t>>();
  if (j.contains("not_replayable")) l.not_replayable = j.at("not_replayable").get<std::string>();
  const json& info = kernel_args_[l.kernel_id];
  for (const json& a : j.at("args")) {
    CapturedArgument arg;
    const auto kind = parseCapturedArgumentKind(a.at("kind").get<std::string>());
    if (!kind && !l.not_replayable) fail("argument kind " + a.at("kind").dump() + " in a launch said to be replayable");
    arg.kind = kind.value_or(CapturedArgumentKind::unset);
    arg.buffer_id = a.value("buffer", std::uint64_t{0});
    arg.size_bytes = a.value("bytes", std::uint64_t{0});
    const std::string hex = a.value("value", "");
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
      arg.value.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    const std::size_t index = l.arguments.size();
    if (info.is_array() && index < info.size()) {
      arg.type_name = info[index].at("type").get<std::string>();
      arg.name = info[index].at("name").get<std::string>();
      arg.address_space = info[index].at("space").get<std::string>();
    }
    l.arguments.push_back(arg);
  }
  launch_index_[l.id] = log_.launches.size();
  log_.launches.push_back(l);
}

void LogLines::saved(const json& j) {
  CapturedLaunch& l = launch(j.at("launch").get<std::uint64_t>());
  if (!j.contains("buffer")) return;  // the launch's buffers could not be saved at all (a user event)
  const std::uint64_t buffer = j.at("buffer").get<std::uint64_t>();
  CapturedLaunch::BufferState* state = nullptr;
  for (auto& s : l.buffers) state = s.buffer_id == buffer ? &s : state;
  if (state == nullptr)
    state = &l.buffers.emplace_back(CapturedLaunch::BufferState{buffer, std::nullopt, std::nullopt});
  if (!j.contains("data")) return;
  const CaptureBlob blob{j.at("data").at("name").get<std::string>(), j.at("data").at("bytes").get<std::uint64_t>()};
  (j.at("when").get<std::string>() == "before" ? state->before : state->after) = blob;
}

void LogLines::command(const json& j) {
  CapturedCommand c;
  c.sequence = j.at("seq").get<std::uint64_t>();
  c.queue_id = j.at("queue").get<std::uint64_t>();
  const auto kind = parseCapturedCommandKind(j.at("kind").get<std::string>());
  if (!kind) fail("unknown command kind " + j.at("kind").dump());
  c.kind = *kind;
  c.call = j.at("call").get<std::string>();
  c.host_begin_ns = j.at("host_begin_ns").get<std::uint64_t>();
  c.host_end_ns = j.at("host_end_ns").get<std::uint64_t>();
  c.blocking = j.at("blocking").get<bool>();
  c.wait_list_size = j.at("wait_list").get<std::uint64_t>();
  c.buffer_id = j.value("buffer", std::uint64_t{0});
  c.other_buffer_id = j.value("other_buffer", std::uint64_t{0});
  c.bytes = j.value("bytes", std::uint64_t{0});
  c.map_flags = j.value("map_flags", std::uint64_t{0});
  if (j.contains("launch")) {
    c.launch_id = j.at("launch").get<std::uint64_t>();
    if (j.at("status").get<int>() == 0) ++launch(*c.launch_id).commands;
  }
  command_index_[c.sequence] = log_.commands.size();
  log_.commands.push_back(c);
}

void LogLines::times(const json& j) {
  const auto found = command_index_.find(j.at("seq").get<std::uint64_t>());
  if (found == command_index_.end()) fail("times of a command no earlier line made");
  if (!j.contains("start_ns")) return;  // the command failed or never completed
  log_.commands[found->second].times =
      CapturedEventTimes{j.at("queued_ns").get<std::uint64_t>(), j.at("submit_ns").get<std::uint64_t>(),
                         j.at("start_ns").get<std::uint64_t>(), j.at("end_ns").get<std::uint64_t>()};
}

void LogLines::unsupported(const json& j) {
  const std::string feature = j.at("feature").get<std::string>(), call = j.at("call").get<std::string>();
  for (CaptureUnsupported& u : log_.unsupported)
    if (u.feature == feature && u.call == call) return void(++u.count);
  log_.unsupported.push_back({feature, call, 1});
}

void LogLines::finish() {
  if (!exit_seen_) log_.calls_seen = lines_ > 0 ? lines_ - 1 : 0;  // every line after start is a call's
}

}  // namespace

void writeCaptureSeal(const fs::path& dir, const CaptureSeal& seal) {
  const fs::path log = dir / kLogName;
  const std::string bytes = fs::exists(log) ? readBytes(log) : std::string();
  json j{{"format", kLogFormat},        {"rooflab_version", ROOFLAB_VERSION}, {"log_bytes", bytes.size()},
         {"log_hash", fnv1aHex(bytes)}, {"complete", seal.complete},          {"process", processJson(seal.process)}};
  if (!seal.complete) j["incomplete_reason"] = seal.incomplete_reason;
  writeJsonAtomically(dir / kSealName, j);
}

bool captureLogHasExit(const fs::path& dir) {
  const fs::path log = dir / kLogName;
  if (!fs::exists(log)) return false;
  const std::string bytes = readBytes(log);
  return bytes.rfind("{\"t\":\"exit\"") != std::string::npos;
}

CaptureReading readCaptureFolder(const fs::path& dir, CaptureAcceptance acceptance) {
  const CaptureSeal seal = readSeal(dir);
  const fs::path file = dir / kLogName;
  const std::string bytes = fs::exists(file) ? readBytes(file) : std::string();
  if (bytes.size() != seal.log_bytes || fnv1aHex(bytes) != seal.log_hash)
    throw InputError(file.string() + ": not the log the capture sealed (" + std::to_string(bytes.size()) +
                     " bytes, sealed " + std::to_string(seal.log_bytes) + "): it was edited; capture again");
  if (!seal.complete && acceptance == CaptureAcceptance::complete_only)
    throw InputError(dir.string() + ": an incomplete capture: " + seal.incomplete_reason);
  CaptureReading reading;
  reading.incomplete_reason = seal.complete ? "" : seal.incomplete_reason;
  reading.log.process = seal.process;
  reading.log.complete = seal.complete;
  LogLines lines(file, reading.log);
  std::uint64_t number = 0;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t end = bytes.find('\n', at);
    ++number;
    if (end == std::string::npos) {  // killed mid-write: the last line is cut short
      reading.torn_line = number;
      break;
    }
    json line;
    try {
      line = json::parse(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                         bytes.begin() + static_cast<std::ptrdiff_t>(end));
      lines.read(line, number);
    } catch (const json::exception& e) {
      throw InputError(file.string() + ":" + std::to_string(number) + ": " + e.what());
    }
    at = end + 1;
  }
  lines.finish();
  return reading;
}

}  // namespace rooflab
